// Patch requests for the fuzz harness: every patch type (JSON patch, merge
// patch, strategic merge patch, server-side apply in YAML) with garbage
// bodies aimed at the harness's patch targets (fz-target of each kind in
// the run's namespace): bad operations and pointers, directives of the wrong
// type, list items without their merge key, mixed element types, deep and
// huge values, non-object bodies, and unknown patch media types.

import { stringify } from 'yaml';
import { type Generator, type Target, utf8, withQuery } from './case.ts';
import { objectPath } from './kinds.ts';
import { allPaths, emit, hasSpecial, mutateText, mutateValue, nestingDepth, oddValue } from './mutate.ts';
import { PATCH_PARAMS, queryString } from './params.ts';
import type { Rng } from './rng.ts';
import { yamlBody } from './yaml-cases.ts';

const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

const pointer = (p: (string | number)[]) => p.map((k) => `/${String(k).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

const ODD_POINTERS = [
  '',
  '/',
  '//',
  '/~2',
  '/~',
  '/-',
  '/metadata/labels/-',
  '/a/b/c/d',
  '/spec/template/spec/containers/999',
  '/spec/template/spec/containers/-1',
  '/spec/template/spec/containers/01',
  '/metadata/name',
  '/metadata/namespace',
  '/metadata/uid',
  '/metadata/resourceVersion',
  '/kind',
  '/apiVersion',
  'metadata',
  '/data/' + 'x'.repeat(300),
  '/metadata/managedFields/0/fieldsV1',
  '/metadata/finalizers/-',
  '/status',
  '/spec/replicas',
  '/data/ñ',
  '/data/a~1b',
];

function jsonPatchBody(rng: Rng, t: Target): { value: unknown; note: string } {
  const shape = rng.pick(['ops', 'ops', 'ops', 'not-array', 'many-ops', 'deep-value', 'move-loop', 'test-fail']);
  const paths = allPaths(t.object, 500).filter((p) => p.length > 0);
  const op = (): Record<string, unknown> => {
    const o: Record<string, unknown> = { op: rng.pick(['add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus', '', 'ADD', 'merge']) };
    if (rng.chance(0.95)) o.path = rng.chance(0.6) && paths.length ? pointer(rng.pick(paths)) : rng.pick(ODD_POINTERS);
    if (rng.chance(0.8)) o.value = rng.chance(0.5) ? oddValue(rng) : 'v';
    if (o.op === 'move' || o.op === 'copy' || rng.chance(0.1)) o.from = rng.chance(0.6) && paths.length ? pointer(rng.pick(paths)) : rng.pick(ODD_POINTERS);
    if (rng.chance(0.05)) o.path = oddValue(rng);
    return o;
  };
  switch (shape) {
    case 'not-array':
      return { value: rng.pick<unknown>([{}, null, 'str', 1, [1], [null], [[]], { op: 'add', path: '/a', value: 1 }]), note: 'not a list of operations' };
    case 'many-ops': {
      const n = rng.pick([1000, 10_000, 50_000]);
      return { value: new Array(n).fill(0).map(() => ({ op: 'add', path: '/metadata/labels/a', value: 'b' })), note: `${n} operations` };
    }
    case 'deep-value': {
      const d = nestingDepth(rng);
      let v: unknown = 1;
      for (let i = 0; i < d; i++) v = rng.chance(0.5) ? [v] : { a: v };
      return { value: [{ op: 'add', path: '/metadata/annotations/deep', value: v }], note: `value nested ${d} deep` };
    }
    case 'move-loop':
      return {
        value: [
          { op: 'move', from: '/metadata', path: '/metadata/labels/x' },
          { op: 'copy', from: '', path: '/spec/x' },
        ],
        note: 'move into its own child, copy of the root',
      };
    case 'test-fail':
      return {
        value: [
          { op: 'test', path: '/metadata/name', value: 'other' },
          { op: 'remove', path: '/metadata' },
        ],
        note: 'failing test, then remove metadata',
      };
    default: {
      const n = rng.int(1, 4);
      return { value: new Array(n).fill(0).map(op), note: `${n} random operations` };
    }
  }
}

function mergeBody(rng: Rng, t: Target): { value: unknown; note: string } {
  const shape = rng.pick(['mutated', 'mutated', 'nulls', 'not-object', 'metadata', 'deep']);
  switch (shape) {
    case 'not-object':
      return { value: rng.pick<unknown>([[], 'str', 1, null, true, [{}]]), note: 'not an object' };
    case 'nulls': {
      const v = JSON.parse(JSON.stringify(t.object));
      for (const p of allPaths(v)
        .filter((x) => x.length > 0)
        .slice(0, 50))
        if (rng.chance(0.2)) setNull(v, p);
      return { value: v, note: 'nulls to delete fields' };
    }
    case 'metadata':
      return {
        value: {
          metadata: rng.pick<unknown>([
            { name: 'other' },
            { namespace: 'other' },
            { uid: 'x' },
            { resourceVersion: '1' },
            { resourceVersion: 'abc' },
            { managedFields: [{}] },
            { finalizers: [7] },
            { labels: { '': '' } },
            null,
            'x',
          ]),
        },
        note: 'metadata changes',
      };
    case 'deep': {
      const d = nestingDepth(rng);
      let v: unknown = null;
      for (let i = 0; i < d; i++) v = { a: v };
      return { value: { spec: v }, note: `object nested ${d} deep` };
    }
    default: {
      const v = JSON.parse(JSON.stringify(t.object));
      const notes = [mutateValue(rng, v, { sentinelNamespace: 'fz-missing' })];
      return { value: v, note: `mutated object: ${notes.join('; ')}` };
    }
  }
}

function setNull(v: any, p: (string | number)[]): void {
  let o = v;
  for (const k of p.slice(0, -1)) o = o?.[k];
  if (o && typeof o === 'object') o[p[p.length - 1]] = null;
}

function strategicBody(rng: Rng, t: Target): { value: unknown; note: string } {
  const directive = rng.pick([
    'patch-delete',
    'patch-replace',
    'patch-garbage',
    'patch-on-list-item',
    'set-element-order-wrong',
    'set-element-order-unknown',
    'retain-keys-wrong',
    'delete-from-primitive',
    'missing-merge-key',
    'mixed-elements',
    'list-for-map',
    'map-for-list',
    'merge-like',
    'deep',
    'not-object',
  ]);
  const containers = (v: unknown) => ({ spec: { template: { spec: { containers: v } } } });
  switch (directive) {
    case 'patch-delete':
      return { value: { metadata: { labels: { $patch: 'delete' } } }, note: '$patch: delete on a map' };
    case 'patch-replace':
      return { value: { $patch: 'replace', metadata: { name: t.name } }, note: '$patch: replace at the root' };
    case 'patch-garbage':
      return { value: { metadata: { $patch: rng.pick<unknown>(['bogus', 7, null, [], {}]) } }, note: '$patch of the wrong value' };
    case 'patch-on-list-item':
      return { value: containers([{ $patch: rng.pick(['delete', 'replace', 'merge', 'x']) }]), note: '$patch in a list item without the merge key' };
    case 'set-element-order-wrong':
      return {
        value: { spec: { template: { spec: { '$setElementOrder/containers': rng.pick<unknown>(['str', 7, {}, [1, 2], [{}], [{ name: 7 }], null]) } } } },
        note: '$setElementOrder of the wrong type',
      };
    case 'set-element-order-unknown':
      return { value: { '$setElementOrder/nosuchlist': [{ name: 'a' }], metadata: { '$setElementOrder/finalizers': ['a', 'a'] } }, note: '$setElementOrder on unknown or primitive lists' };
    case 'retain-keys-wrong':
      return { value: { spec: { strategy: { $retainKeys: rng.pick<unknown>(['str', [1], [null], {}, ['nosuch']]) } } }, note: '$retainKeys of the wrong type' };
    case 'delete-from-primitive':
      return { value: { metadata: { '$deleteFromPrimitiveList/finalizers': rng.pick<unknown>(['a', [{}], null, [1]]) } }, note: '$deleteFromPrimitiveList of the wrong type' };
    case 'missing-merge-key':
      return { value: containers([{ image: 'x' }, { name: null }]), note: 'list items without the merge key' };
    case 'mixed-elements':
      return { value: containers([1, { name: 'main' }, 'x', [], null]), note: 'mixed element types in a keyed list' };
    case 'list-for-map':
      return { value: { metadata: { labels: ['a'] }, spec: [] }, note: 'lists where maps are' };
    case 'map-for-list':
      return { value: containers({ name: 'main' }), note: 'a map where a keyed list is' };
    case 'deep': {
      const d = nestingDepth(rng);
      let v: unknown = 'x';
      for (let i = 0; i < d; i++) v = [{ name: `n${i % 3}`, env: v }];
      return { value: { spec: { template: { spec: { containers: v } } } }, note: `keyed lists nested ${d} deep` };
    }
    case 'not-object':
      return { value: rng.pick<unknown>([[], 'x', 1, null]), note: 'not an object' };
    default:
      return mergeBody(rng, t);
  }
}

function applyBody(rng: Rng, t: Target): { text: string; note: string } {
  const shape = rng.pick(['mutated', 'mutated', 'yaml-attack', 'no-type-meta', 'other-name', 'managed-fields', 'not-object', 'json']);
  const base = JSON.parse(JSON.stringify(t.object));
  delete base.metadata.resourceVersion;
  switch (shape) {
    case 'yaml-attack': {
      const y = yamlBody(rng, base);
      return { text: y.text, note: `apply of YAML: ${y.note}` };
    }
    case 'no-type-meta': {
      delete base[rng.pick(['apiVersion', 'kind'])];
      return { text: stringify(base), note: 'apply without apiVersion or kind' };
    }
    case 'other-name': {
      base.metadata.name = rng.pick(['other', '', '..', 7]);
      return { text: stringify(base), note: `apply with name ${JSON.stringify(base.metadata.name)}` };
    }
    case 'managed-fields': {
      base.metadata.managedFields = [{ manager: 'x', operation: 'Apply', fieldsV1: oddValue(rng) }];
      return { text: stringify(base), note: 'apply with managedFields' };
    }
    case 'not-object':
      return { text: rng.pick(['- a\n- b\n', 'str\n', '7\n', '', 'null\n', '{}\n']), note: 'apply of a non-object' };
    case 'json': {
      const note = mutateValue(rng, base, { sentinelNamespace: 'fz-missing' });
      return { text: emit(base), note: `apply as JSON text: ${note}` };
    }
    default: {
      const note = mutateValue(rng, base, { sentinelNamespace: 'fz-missing' });
      let text: string;
      try {
        text = stringify(base);
      } catch {
        text = emit(base);
      }
      return { text, note: `apply: ${note}` };
    }
  }
}

export const patches: Generator = (rng, ctx, index) => {
  const t = rng.pick(ctx.targets);
  const name = rng.chance(0.85) ? t.name : `fz-${index}`;
  const type = rng.weighted([
    [5, JSON_PATCH],
    [5, MERGE],
    [6, STRATEGIC],
    [5, APPLY],
    [1, 'garbage'],
  ]);
  let contentType = type;
  let bytes: Uint8Array;
  let note: string;
  if (type === APPLY) {
    const b = applyBody(rng, t);
    bytes = utf8(b.text);
    note = b.note;
  } else if (type === 'garbage') {
    contentType = rng.pick([
      'application/json',
      'application/yaml',
      'text/plain',
      'application/json-patch+yaml',
      'application/merge-patch+yaml',
      'application/strategic-merge-patch+yaml',
      'application/apply-patch+json',
      'application/apply-patch+cbor',
      'application/vnd.kubernetes.protobuf',
      '',
    ]);
    bytes = utf8(JSON.stringify({ metadata: { labels: { a: 'b' } } }));
    note = `patch with Content-Type ${JSON.stringify(contentType)}`;
  } else {
    const b = type === JSON_PATCH ? jsonPatchBody(rng, t) : type === MERGE ? mergeBody(rng, t) : strategicBody(rng, t);
    bytes = utf8(emit(b.value));
    note = b.note;
    if (!hasSpecial(b.value) && rng.chance(0.15)) {
      const m = mutateText(rng, bytes);
      bytes = m.bytes;
      note += `; ${m.note}`;
    }
  }
  const parts: string[] = [];
  if (type === APPLY && rng.chance(0.85)) parts.push(`fieldManager=${rng.pick(['fuzz', 'fuzz-2', 'kubectl'])}`);
  if (rng.chance(0.3)) parts.push(queryString(rng, rng.int(1, 3), PATCH_PARAMS));
  if (bytes.length > 512 * 1024 && rng.chance(0.7)) parts.push('dryRun=All');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (contentType) headers['content-type'] = contentType;
  const short = type === 'garbage' ? 'garbage-type' : type.split('/')[1].split('+')[0];
  return {
    generator: `patch/${short}`,
    note: `${t.kind.apiVersion} ${t.kind.def.kind} ${name}: ${note}`,
    method: 'PATCH',
    path: withQuery(objectPath(t.kind, ctx.fuzzNs, name), ...parts),
    headers,
    body: bytes,
  };
};
