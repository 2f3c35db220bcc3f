// Table-driven tests of strategic merge patch: every directive, every patch
// strategy, the ordering rules and the error answers (codes and texts).
import { describe, expect, it } from 'vitest';
import type { JSONValue } from '../../generated/api-types.ts';
import { PatchError } from './errors.ts';
import { strategicMergePatch } from './strategic-merge.ts';
import { DAEMONSET, liveDaemonSet, testSchema, WIDGET } from './test-fixtures.ts';

type JMap = { [k: string]: JSONValue };

function get(obj: JSONValue, path: string): JSONValue | undefined {
  let v: JSONValue | undefined = obj;
  for (const p of path.split('.')) v = v && typeof v === 'object' && !Array.isArray(v) ? v[p] : undefined;
  return v;
}

/** Wraps `inner` at spec.template.spec of a DaemonSet patch. */
const podSpec = (inner: JMap): JMap => ({ spec: { template: { spec: inner } } });
const POD = 'spec.template.spec';

interface Case {
  name: string;
  patch: unknown;
  type?: string;
  live?: JMap;
  /** Dotted path into the result and its expected value (undefined: absent). */
  expect?: [string, JSONValue | undefined][];
  error?: { code: number; reason: string; message: string | RegExp };
}

const agent = liveDaemonSet().spec as JMap;
const liveAgent = (get(agent, 'template.spec.containers') as JMap[])[0];

const cases: Case[] = [
  {
    name: 'containers merge by name, other fields and items kept',
    patch: podSpec({ containers: [{ name: 'agent', image: 'agent:2.0' }] }),
    expect: [
      [
        `${POD}.containers`,
        [
          { ...liveAgent, image: 'agent:2.0' },
          { name: 'sidecar', image: 'sidecar:2.0' },
        ],
      ],
    ],
  },
  {
    name: 'a new container goes before the live ones (no $setElementOrder)',
    patch: podSpec({ containers: [{ name: 'new', image: 'new:1' }] }),
    expect: [[`${POD}.containers`, [{ name: 'new', image: 'new:1' }, liveAgent, { name: 'sidecar', image: 'sidecar:2.0' }]]],
  },
  {
    name: 'env merges by name inside a container',
    patch: podSpec({
      containers: [
        {
          name: 'agent',
          env: [
            { name: 'LEVEL', value: 'debug' },
            { name: 'NEW', value: 'x' },
          ],
        },
      ],
    }),
  },
  {
    name: 'volumes merge by name',
    patch: podSpec({ volumes: [{ name: 'cache', emptyDir: { sizeLimit: '1Gi' } }] }),
    expect: [
      [
        `${POD}.volumes`,
        [
          { name: 'logs', hostPath: { path: '/var/log', type: 'Directory' } },
          { name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } },
        ],
      ],
    ],
  },
  {
    name: '$patch: delete removes one container',
    patch: podSpec({ containers: [{ name: 'sidecar', $patch: 'delete' }] }),
    expect: [[`${POD}.containers`, [liveAgent]]],
  },
  {
    name: '$patch: delete of a missing item is a no-op',
    patch: podSpec({ containers: [{ name: 'nope', $patch: 'delete' }] }),
    expect: [[`${POD}.containers`, [liveAgent, { name: 'sidecar', image: 'sidecar:2.0' }]]],
  },
  {
    name: '$setElementOrder orders the merged list',
    patch: podSpec({
      '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'agent' }],
      containers: [{ name: 'agent', image: 'agent:3' }],
    }),
    expect: [
      [
        `${POD}.containers`,
        [
          { name: 'sidecar', image: 'sidecar:2.0' },
          { ...liveAgent, image: 'agent:3' },
        ],
      ],
    ],
  },
  {
    name: '$setElementOrder places a new item where the directive says',
    patch: podSpec({
      '$setElementOrder/containers': [{ name: 'agent' }, { name: 'mid' }, { name: 'sidecar' }],
      containers: [{ name: 'mid', image: 'm' }],
    }),
    expect: [[`${POD}.containers`, [liveAgent, { name: 'mid', image: 'm' }, { name: 'sidecar', image: 'sidecar:2.0' }]]],
  },
  {
    name: '$setElementOrder keeps live-only items in their relative place',
    patch: podSpec({
      '$setElementOrder/containers': [{ name: 'new' }, { name: 'agent' }],
      containers: [{ name: 'new', image: 'n' }],
    }),
    expect: [[`${POD}.containers`, [{ name: 'new', image: 'n' }, liveAgent, { name: 'sidecar', image: 'sidecar:2.0' }]]],
  },
  {
    name: '$setElementOrder alone reorders the live list',
    patch: podSpec({ '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'agent' }] }),
    expect: [[`${POD}.containers`, [{ name: 'sidecar', image: 'sidecar:2.0' }, liveAgent]]],
  },
  {
    name: '$setElementOrder on a list the live object lacks: the patch list, ordered',
    patch: podSpec({
      '$setElementOrder/initContainers': [{ name: 'b' }, { name: 'c' }, { name: 'a' }],
      initContainers: [
        { name: 'b', image: 'b' },
        { name: 'gone', $patch: 'delete' },
        { name: 'a', image: 'a' },
      ],
    }),
    expect: [
      [
        `${POD}.initContainers`,
        [
          { name: 'b', image: 'b' },
          { name: 'a', image: 'a' },
        ],
      ],
    ],
  },
  {
    name: '$setElementOrder for a list in neither: nothing added',
    patch: podSpec({ '$setElementOrder/initContainers': [{ name: 'a' }] }),
    expect: [[`${POD}.initContainers`, undefined]],
  },
  {
    name: '$setElementOrder of a primitive list',
    patch: { metadata: { '$setElementOrder/finalizers': ['b.example.com/two', 'c', 'a.example.com/one'], finalizers: ['c'] } },
    expect: [['metadata.finalizers', ['b.example.com/two', 'c', 'a.example.com/one']]],
  },
  {
    name: '$retainKeys in a volume clears the other volume sources',
    patch: podSpec({ volumes: [{ name: 'logs', $retainKeys: ['emptyDir', 'name'], emptyDir: {} }] }),
  },
  {
    name: '$retainKeys on a retainKeys map field (updateStrategy)',
    patch: { spec: { updateStrategy: { $retainKeys: ['type'], type: 'OnDelete' } } },
    expect: [['spec.updateStrategy', { type: 'OnDelete' }]],
  },
  {
    name: '$retainKeys allows null fields and directive keys outside the list',
    type: WIDGET,
    live: { union: { type: 'A', a: 'x', c: { k: 'v' } } },
    patch: { union: { $retainKeys: ['type', 'b'], type: 'B', b: 'y', a: null } },
    expect: [['union', { type: 'B', b: 'y' }]],
  },
  {
    name: '$retainKeys naming a field the patch sets without listing it: 400',
    patch: { spec: { updateStrategy: { $retainKeys: ['type'], type: 'OnDelete', rollingUpdate: {} } } },
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
  },
  {
    name: '$retainKeys that is not a list: 400',
    patch: { spec: { updateStrategy: { $retainKeys: 'type', type: 'OnDelete' } } },
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
  },
  {
    name: '$deleteFromPrimitiveList removes items of a set',
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['a.example.com/one', 'zzz'] } },
    expect: [['metadata.finalizers', ['b.example.com/two']]],
  },
  {
    name: '$deleteFromPrimitiveList on an absent field adds nothing',
    patch: { metadata: { '$deleteFromPrimitiveList/annotations': ['x'] } },
    expect: [['metadata.annotations', undefined]],
  },
  {
    name: '$deleteFromPrimitiveList deletes from a list without merge strategy too',
    patch: podSpec({ containers: [{ name: 'agent', '$deleteFromPrimitiveList/args': ['--verbose'] }] }),
  },
  {
    name: '$deleteFromPrimitiveList without a field name: 400',
    patch: { metadata: { $deleteFromPrimitiveList: ['a'] } },
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of primitive list' },
  },
  {
    name: '$setElementOrder with $deleteFromPrimitiveList (kubectl apply dropping a finalizer)',
    patch: { metadata: { '$setElementOrder/finalizers': ['b.example.com/two'], '$deleteFromPrimitiveList/finalizers': ['a.example.com/one'] } },
    expect: [['metadata.finalizers', ['b.example.com/two']]],
  },
  {
    name: 'an empty list does not clear a merging list',
    patch: podSpec({ containers: [] }),
    expect: [[`${POD}.containers`, [liveAgent, { name: 'sidecar', image: 'sidecar:2.0' }]]],
  },
  {
    name: 'a primitive list with strategy merge is a set (deduplicated, live order first)',
    patch: { metadata: { finalizers: ['b.example.com/two', 'c', 'c'] } },
    expect: [['metadata.finalizers', ['a.example.com/one', 'b.example.com/two', 'c']]],
  },
  {
    name: 'null deletes a field; null for an absent field is ignored',
    patch: { metadata: { labels: { tier: null, missing: null } }, spec: { template: { spec: { nodeSelector: null } } } },
    expect: [
      ['metadata.labels', { app: 'agent' }],
      [`${POD}.nodeSelector`, undefined],
    ],
  },
  {
    name: 'a list without strategy is replaced whole',
    patch: podSpec({ tolerations: [{ key: 'x', operator: 'Exists' }] }),
    expect: [[`${POD}.tolerations`, [{ key: 'x', operator: 'Exists' }]]],
  },
  {
    name: '$patch: replace on a map',
    patch: podSpec({ nodeSelector: { $patch: 'replace', zone: 'a' } }),
    expect: [[`${POD}.nodeSelector`, { zone: 'a' }]],
  },
  {
    name: '$patch: delete on a map empties it',
    patch: podSpec({ nodeSelector: { $patch: 'delete' } }),
    expect: [[`${POD}.nodeSelector`, {}]],
  },
  {
    name: '$patch: replace in a list makes the patch items the list',
    patch: podSpec({ containers: [{ name: 'only', image: 'o' }, { $patch: 'replace' }] }),
    expect: [[`${POD}.containers`, [{ name: 'only', image: 'o' }]]],
  },
  {
    name: '$patch: merge in a list is refused',
    patch: podSpec({ containers: [{ $patch: 'merge' }] }),
    error: { code: 400, reason: 'BadRequest', message: 'merging lists cannot yet be specified in the patch' },
  },
  {
    name: 'an unknown $patch on a map is refused',
    patch: podSpec({ nodeSelector: { $patch: 'bogus', zone: 'a' } }),
    error: { code: 400, reason: 'BadRequest', message: 'unknown patch type: bogus in map: map[$patch:bogus zone:a]' },
  },
  {
    name: 'a null $patch is refused',
    patch: podSpec({ nodeSelector: { $patch: null }, tolerations: null }),
    error: { code: 400, reason: 'BadRequest', message: 'unknown patch type: %!s(<nil>) in map: map[$patch:<nil>]' },
  },
  {
    name: 'a numeric $patch is refused',
    patch: { $patch: 5 },
    error: { code: 400, reason: 'BadRequest', message: 'unknown patch type: %!s(int64=5) in map: map[$patch:5]' },
  },
  {
    name: 'an unknown $patch in a list is refused',
    patch: podSpec({ containers: [{ name: 'agent', $patch: 'bogus' }] }),
    error: { code: 400, reason: 'BadRequest', message: 'unknown patch type: bogus in map: map[$patch:bogus name:agent]' },
  },
  {
    name: '$patch: delete without the merge key',
    patch: podSpec({ containers: [{ $patch: 'delete' }] }),
    error: { code: 400, reason: 'BadRequest', message: 'map: map[$patch:delete] does not contain declared merge key: name' },
  },
  {
    name: 'a list item without the merge key',
    patch: podSpec({ containers: [{ image: 'x' }] }),
    error: { code: 400, reason: 'BadRequest', message: 'map: map[image:x] does not contain declared merge key: name' },
  },
  {
    name: '$setElementOrder without a field name: 400',
    patch: podSpec({ $setElementOrder: [] }),
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of setElementOrder list' },
  },
  {
    name: '$setElementOrder that is not a list',
    patch: podSpec({ '$setElementOrder/containers': 'agent' }),
    error: { code: 400, reason: 'BadRequest', message: 'expected a []interface {}, but received a string' },
  },
  {
    name: '$setElementOrder that contradicts the patch list',
    patch: podSpec({
      '$setElementOrder/containers': [{ name: 'agent' }],
      containers: [{ name: 'sidecar', image: 's' }],
    }),
    error: { code: 400, reason: 'BadRequest', message: /^The order in patch list:\n\[map\[image:s name:sidecar\]\]\n doesn't match \$setElementOrder list:/ },
  },
  {
    name: 'lists of lists: 422',
    type: WIDGET,
    live: { matrix: [['a']] },
    patch: { matrix: [['b']] },
    error: { code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' },
  },
  {
    name: 'list element types that differ',
    type: WIDGET,
    live: { mergedStrings: ['a'] },
    patch: { mergedStrings: [1] },
    error: { code: 400, reason: 'BadRequest', message: 'list element types are not identical: [[a] [1]]' },
  },
  {
    name: 'a merging list of maps without a merge key',
    type: WIDGET,
    live: { keyless: [{ id: 1 }] },
    patch: { keyless: [{ id: 2 }] },
    error: { code: 400, reason: 'BadRequest', message: 'cannot merge lists without merge key for struct' },
  },
  {
    name: 'strategy replace on a map field',
    type: WIDGET,
    live: { replaced: { a: '1', b: '2' } },
    patch: { replaced: { c: '3' } },
    expect: [['replaced', { c: '3' }]],
  },
  {
    name: 'an unusable patch strategy',
    type: WIDGET,
    live: { badStrategy: { a: 'x' } },
    patch: { badStrategy: { b: 'y' } },
    error: { code: 500, reason: '', message: 'unexpected patch strategy: [merge replace]' },
  },
  {
    name: 'items merge by a numeric key, in the patch order; nested sets merge',
    type: WIDGET,
    live: {
      items: [
        { id: 1, value: 'a', tags: ['x'] },
        { id: 2, value: 'b' },
      ],
    },
    patch: {
      items: [
        { id: 2, value: 'B' },
        { id: 1, tags: ['y', 'x'] },
      ],
    },
    expect: [
      [
        'items',
        [
          { id: 2, value: 'B' },
          { id: 1, value: 'a', tags: ['y', 'x'] },
        ],
      ],
    ],
  },
  {
    name: 'atomic primitive list replaced',
    type: WIDGET,
    live: { atomicStrings: ['a', 'b'] },
    patch: { atomicStrings: ['c'] },
    expect: [['atomicStrings', ['c']]],
  },
  {
    name: 'a value for an absent field loses its directives and nulls',
    patch: podSpec({
      initContainers: [
        { name: 'init', image: 'i', args: null },
        { name: 'gone', $patch: 'delete' },
      ],
      hostAliases: [{ ip: '10.0.0.1', hostnames: ['h'], '$setElementOrder/hostnames': ['h'] }],
    }),
    expect: [
      [`${POD}.initContainers`, [{ name: 'init', image: 'i' }]],
      [`${POD}.hostAliases`, [{ ip: '10.0.0.1', hostnames: ['h'] }]],
    ],
  },
  {
    name: 'a value of another type replaces the live one',
    patch: { metadata: { labels: 'x' } },
    expect: [['metadata.labels', 'x']],
  },
  {
    name: 'fields without schema: maps merge, lists are replaced',
    live: { ...liveDaemonSet(), status: { a: { x: 1 }, l: [1, 2] } },
    patch: { status: { a: { y: 2 }, l: [3] } },
    expect: [['status', { a: { x: 1, y: 2 }, l: [3] }]],
  },
  {
    name: 'ports merge by containerPort; a new port goes first',
    patch: podSpec({
      containers: [
        {
          name: 'agent',
          ports: [
            { containerPort: 9001, protocol: 'TCP' },
            { containerPort: 9000, name: 'http' },
          ],
        },
      ],
    }),
  },
  {
    name: '$patch: delete at the top empties the object',
    patch: { $patch: 'delete' },
  },
  {
    name: '$patch: replace at the top replaces the object',
    patch: { $patch: 'replace', kind: 'DaemonSet', metadata: { name: 'x' } },
    expect: [
      ['metadata', { name: 'x' }],
      ['spec', undefined],
    ],
  },
  {
    name: 'a patch that is not an object: 400',
    patch: [{ op: 'add' }],
    error: { code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal array into Go value of type map[string]interface {}' },
  },
  {
    name: 'a string patch: 400',
    patch: 'x',
    error: { code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal string into Go value of type map[string]interface {}' },
  },
];

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

describe('strategic merge patch', () => {
  it.each(cases)('$name', (c) => {
    const live = deepFreeze(c.live ?? liveDaemonSet());
    const patch = deepFreeze(structuredClone(c.patch));
    const run = () => strategicMergePatch(live, patch, testSchema, c.type ?? DAEMONSET);
    if (c.error) {
      let err: unknown;
      try {
        run();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(PatchError);
      const pe = err as PatchError;
      expect({ code: pe.code, reason: pe.reason }).toEqual({ code: c.error.code, reason: c.error.reason });
      if (typeof c.error.message === 'string') expect(pe.message).toBe(c.error.message);
      else expect(pe.message).toMatch(c.error.message);
      return;
    }
    const out = run();
    for (const [path, want] of c.expect ?? []) {
      expect(get(out, path), path).toEqual(want);
    }
    if (!c.expect) expect(checks[c.name], 'a case needs expectations').toBeDefined();
    checks[c.name]?.(out);
  });
});

/** Checks that need more than a path/value pair. */
const checks: Record<string, (out: JMap) => void> = {
  'env merges by name inside a container': (out) => {
    const c = (get(out, `${POD}.containers`) as JMap[])[0];
    expect(c.env).toEqual([
      { name: 'MODE', value: 'node' },
      { name: 'LEVEL', value: 'debug' },
      { name: 'NEW', value: 'x' },
    ]);
    expect(c.image).toBe('agent:1.0');
  },
  '$retainKeys in a volume clears the other volume sources': (out) => {
    expect((get(out, `${POD}.volumes`) as JMap[])[0]).toEqual({ name: 'logs', emptyDir: {} });
  },
  '$deleteFromPrimitiveList deletes from a list without merge strategy too': (out) => {
    expect((get(out, `${POD}.containers`) as JMap[])[0].args).toEqual(['--port=9000']);
  },
  'ports merge by containerPort; a new port goes first': (out) => {
    expect((get(out, `${POD}.containers`) as JMap[])[0].ports).toEqual([
      { containerPort: 9001, protocol: 'TCP' },
      { containerPort: 9000, protocol: 'TCP', name: 'http' },
    ]);
  },
  '$patch: delete at the top empties the object': (out) => {
    expect(out).toEqual({});
  },
};

describe('strategic merge patch inputs', () => {
  it('a type missing from the merge schema is a server error, not a silent merge', () => {
    expect(() => strategicMergePatch(liveDaemonSet(), {}, testSchema, 'no.such.Kind')).toThrow('no merge schema for type no.such.Kind: cannot apply a strategic merge patch');
  });

  it('a null patch leaves a copy of the object', () => {
    const live = liveDaemonSet();
    const out = strategicMergePatch(live, null, testSchema, DAEMONSET);
    expect(out).toEqual(live);
    expect(out).not.toBe(live);
  });

  it('the result shares nothing with the live object or the patch', () => {
    const live = liveDaemonSet();
    const patch = podSpec({ initContainers: [{ name: 'i', image: 'i', env: [{ name: 'A', value: 'a' }] }] });
    const out = strategicMergePatch(live, patch, testSchema, DAEMONSET);
    (get(out, 'metadata.labels') as JMap).app = 'changed';
    ((get(out, `${POD}.initContainers`) as JMap[])[0].env as JMap[])[0].value = 'changed';
    expect(get(live, 'metadata.labels.app')).toBe('agent');
    expect(((get(patch, `${POD}.initContainers`) as JMap[])[0].env as JMap[])[0].value).toBe('a');
  });

  it('applying the same patch twice gives the same result (retry safety)', () => {
    const live = liveDaemonSet();
    const patch = podSpec({
      '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'agent' }],
      containers: [{ name: 'agent', env: [{ name: 'X', value: '1' }] }],
    });
    const a = strategicMergePatch(live, patch, testSchema, DAEMONSET);
    const b = strategicMergePatch(live, patch, testSchema, DAEMONSET);
    expect(a).toEqual(b);
  });
});

// Long lists: each patch item used to scan the live list (merge by key, and a
// full pass per `$patch: delete`), and items missing from the order were
// placed by an insertion sort; 100,000 items took minutes of the single thread.
describe('long lists merge in near-linear time', () => {
  const N = 100_000;
  const withEnv = (env: JMap[]): JMap => {
    const live = liveDaemonSet();
    ((live.spec as JMap).template as JMap).spec = { containers: [{ name: 'agent', image: 'a', env }] };
    return live;
  };
  const envOf = (obj: JMap) => (get(obj, POD) as JMap).containers as JMap[];
  const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}` }));

  it('merges 100,000 patch items into 100,000 live items by key', () => {
    const live = withEnv(names(N, 'E').map((e) => ({ ...e, value: 'old' })));
    const patch = podSpec({
      containers: [
        {
          name: 'agent',
          env: names(N, 'E')
            .reverse()
            .map((e) => ({ ...e, value: 'new' })),
        },
      ],
    });
    const env = envOf(strategicMergePatch(live, patch, testSchema, DAEMONSET))[0].env as JMap[];
    expect(env).toHaveLength(N);
    expect(env.every((e) => e.value === 'new')).toBe(true);
    // patch order wins for items the patch names
    expect(env[0].name).toBe(`E${N - 1}`);
  });

  it('deletes 100,000 items', () => {
    const live = withEnv(names(N + 1, 'E'));
    const patch = podSpec({ containers: [{ name: 'agent', env: names(N, 'E').map((e) => ({ ...e, $patch: 'delete' })) }] });
    expect(envOf(strategicMergePatch(live, patch, testSchema, DAEMONSET))[0].env).toEqual([{ name: `E${N}` }]);
  });

  it('orders 100,000 new items by an empty $setElementOrder', () => {
    const live = withEnv(names(10, 'E'));
    const patch = podSpec({ containers: [{ name: 'agent', '$setElementOrder/env': [], env: names(N, 'N') }] });
    expect(envOf(strategicMergePatch(live, patch, testSchema, DAEMONSET))[0].env).toHaveLength(N + 10);
  });
});
