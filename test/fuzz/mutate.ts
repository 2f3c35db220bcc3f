// Mutations of valid objects for the fuzz harness: structural ones on the
// value (wrong types at any depth, removed fields, huge strings, arrays and
// maps, deep nesting, odd names and metadata, duplicate keys, number
// literals JSON.stringify cannot write) and textual ones on the encoded
// bytes (truncation, invalid UTF-8, stray bytes, bad escapes). A value may
// hold Raw (literal JSON text) and Dup (an object with repeated keys): emit()
// writes them; plain JSON.stringify cannot.

import type { Rng } from './rng.ts';

/** Literal JSON text placed as is. */
export class Raw {
  constructor(readonly text: string) {}
}

/** An object whose entries may repeat a key. */
export class Dup {
  constructor(readonly entries: [string, unknown][]) {}
}

/**
 * Serializes a value that may contain Raw and Dup (iteratively: values may be
 * deeply nested). Stops after maxChars: a longer body would only meet the
 * 3 MiB limit, and mutations can multiply sizes.
 */
export function emit(value: unknown, maxChars = 4 * 1024 * 1024): string {
  const out: string[] = [];
  let length = 0;
  // a stack of pending work: values to write or literal text
  const stack: (unknown | { lit: string })[] = [value];
  const LIT = Symbol('lit');
  const lit = (s: string) => ({ [LIT]: s });
  const put = (s: string) => {
    out.push(s);
    length += s.length;
  };
  while (stack.length && length < maxChars) {
    const v = stack.pop() as any;
    if (v !== null && typeof v === 'object' && LIT in v) {
      put(v[LIT]);
      continue;
    }
    if (v instanceof Raw) {
      put(v.text);
      continue;
    }
    if (v === undefined) {
      put('null');
      continue;
    }
    if (v === null || typeof v !== 'object') {
      put(JSON.stringify(v) ?? 'null');
      continue;
    }
    const entries: [string | undefined, unknown][] = v instanceof Dup ? v.entries : Array.isArray(v) ? v.map((x) => [undefined, x]) : Object.entries(v);
    const open = Array.isArray(v) ? '[' : '{';
    const close = Array.isArray(v) ? ']' : '}';
    put(open);
    stack.push(lit(close));
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, x] = entries[i];
      stack.push(x);
      if (k !== undefined) stack.push(lit(`${JSON.stringify(k)}:`));
      if (i > 0) stack.push(lit(','));
    }
  }
  return out.join('').slice(0, maxChars);
}

/** Whether a value holds Raw or Dup parts (only emit() can write it then). */
export function hasSpecial(v: unknown): boolean {
  const stack = [v];
  let seen = 0;
  while (stack.length && seen++ < 200_000) {
    const x = stack.pop();
    if (x instanceof Raw || x instanceof Dup) return true;
    if (x && typeof x === 'object') for (const y of Object.values(x)) stack.push(y);
  }
  return false;
}

type Path = (string | number)[];

/** Paths to values inside `obj` (objects and arrays included), breadth first, up to `max` and 64 levels deep. */
export function allPaths(obj: unknown, max = 2000): Path[] {
  const out: Path[] = [];
  const queue: [unknown, Path][] = [[obj, []]];
  while (queue.length && out.length < max) {
    const [v, p] = queue.shift()!;
    out.push(p);
    if (p.length >= 64) continue;
    if (Array.isArray(v)) v.slice(0, 200).forEach((x, i) => queue.push([x, [...p, i]]));
    else if (v && typeof v === 'object' && !(v instanceof Raw) && !(v instanceof Dup)) {
      for (const [k, x] of Object.entries(v).slice(0, 200)) queue.push([x, [...p, k]]);
    }
  }
  return out;
}

function getAt(obj: any, p: Path): any {
  let v = obj;
  for (const k of p) v = v?.[k];
  return v;
}

function setAt(obj: any, p: Path, value: unknown): void {
  if (p.length === 0) return;
  const parent = getAt(obj, p.slice(0, -1));
  if (parent && typeof parent === 'object') parent[p[p.length - 1]] = value;
}

function deleteAt(obj: any, p: Path): void {
  if (p.length === 0) return;
  const parent = getAt(obj, p.slice(0, -1));
  const k = p[p.length - 1];
  if (Array.isArray(parent) && typeof k === 'number') parent.splice(k, 1);
  else if (parent && typeof parent === 'object') delete parent[k];
}

const fmt = (p: Path) => p.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('') || '(root)';

/** Values of every JSON type, and number literals beyond what JS numbers hold. */
export function oddValue(rng: Rng): unknown {
  return rng.pick<() => unknown>([
    () => null,
    () => true,
    () => false,
    () => 0,
    () => -1,
    () => 1.5,
    () => 1e308,
    () => -2147483649,
    () => '',
    () => 'x',
    () => ' ',
    () => '\u0000',
    () => 'ñ',
    () => '😀',
    () => '\ud800',
    () => [],
    () => [null],
    () => [[[]]],
    () => ({}),
    () => ({ '': null }),
    () => ({ a: { b: { c: [] } } }),
    () => new Raw('9223372036854775808'),
    () => new Raw('-9223372036854775809'),
    () => new Raw('1e400'),
    () => new Raw('-0'),
    () => new Raw('1.0'),
    () => new Raw('123456789012345678901234567890'),
    () => new Raw('4.9e-325'),
    () => '2024-13-45T99:99:99Z',
    () => '1Gi',
    () => '-1',
    () => 'true',
    () => '{"a":1}',
  ])();
}

function hugeString(rng: Rng, len: number): string {
  const unit = rng.pick(['a', 'ñ', '中', '😀', '\\', '"', '\n', '\u0001', 'abc-def.', ' ']);
  return unit.repeat(Math.max(1, Math.floor(len / unit.length)));
}

function nested(depth: number, leaf: unknown, asArray: boolean): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
}

/** Sizes of the big mutations; most are moderate so that a run stays fast. */
export function bigSize(rng: Rng): number {
  return rng.weighted([
    [6, 1024],
    [4, 65536],
    [2, 300_000],
    [1, 1_000_000],
    [1, 2_900_000],
  ]);
}

export function nestingDepth(rng: Rng): number {
  return rng.weighted([
    [3, 100],
    [3, 1000],
    [2, 2600],
    [2, 5000],
    [2, 10_000],
    [1, 10_001],
    [1, 50_000],
    [1, 200_000],
  ]);
}

const ODD_NAMES = ['', '.', '..', 'a/b', 'a%2Fb', '%2e%2e', 'UPPER', 'a_b', '-a', 'a-', 'a..b', 'ñ', '😀', 'x'.repeat(254), 'x'.repeat(64), 'a b', '#', '?', 'a\u0000b', '0', 'default'];

/** One structural mutation, in place; returns what it did. */
export function mutateValue(rng: Rng, obj: Record<string, any>, ctx: { sentinelNamespace: string }): string {
  const paths = allPaths(obj);
  const p = rng.pick(paths);
  const kind = rng.weighted<string>([
    [10, 'wrong-type'],
    [4, 'remove'],
    [3, 'huge-string'],
    [2, 'huge-array'],
    [2, 'many-keys'],
    [3, 'deep-nesting'],
    [3, 'odd-field-name'],
    [3, 'duplicate-key'],
    [3, 'raw-number'],
    [6, 'metadata'],
    [3, 'type-meta'],
  ]);
  switch (kind) {
    case 'wrong-type': {
      if (p.length === 0) return mutateValue(rng, obj, ctx);
      const v = oddValue(rng);
      setAt(obj, p, v);
      return `wrong-type ${fmt(p)} = ${emit(v).slice(0, 40)}`;
    }
    case 'remove':
      deleteAt(obj, p);
      return `remove ${fmt(p)}`;
    case 'huge-string': {
      const n = bigSize(rng);
      const target = rng.chance(0.5) ? p : [...containerPath(rng, obj, paths), `fuzz${rng.int(0, 9)}`];
      setAt(obj, target.length ? target : ['data'], hugeString(rng, n));
      return `huge-string ${fmt(target)} ${n}`;
    }
    case 'huge-array': {
      const n = rng.pick([1000, 10_000, 100_000]);
      const item = rng.pick<unknown>([0, 'a', null, {}, [], { name: 'x' }]);
      const target = rng.chance(0.5) && p.length ? p : ['spec', 'fuzzList'];
      // fresh items: a later mutation inside one must not grow all of them
      setAt(
        obj,
        target,
        Array.from({ length: n }, () => structuredClone(item)),
      );
      return `huge-array ${fmt(target)} ${n}x${JSON.stringify(item)}`;
    }
    case 'many-keys': {
      const n = rng.pick([1000, 10_000, 100_000]);
      const where = rng.pick<Path>([['metadata', 'labels'], ['metadata', 'annotations'], ['data'], ['spec'], ['metadata']]);
      const m: Record<string, string> = {};
      for (let i = 0; i < n; i++) m[`k${i}`] = rng.chance(0.5) ? 'v' : `v${i}`;
      if (where.length === 1 && where[0] === 'data') obj.data = m;
      else setAt(obj, where, m);
      return `many-keys ${fmt(where)} ${n}`;
    }
    case 'deep-nesting': {
      const d = nestingDepth(rng);
      const asArray = rng.chance(0.5);
      const target = p.length && rng.chance(0.6) ? p : [...containerPath(rng, obj, paths), 'deep'];
      setAt(obj, target.length ? target : ['deep'], nested(d, rng.pick<unknown>([1, 'x', null, {}]), asArray));
      return `deep-nesting ${fmt(target)} depth ${d} ${asArray ? 'arrays' : 'objects'}`;
    }
    case 'odd-field-name': {
      const name = rng.pick([
        'ñ',
        '中文',
        '😀',
        'a\u0001b',
        '\u0000',
        'x'.repeat(rng.pick([300, 70_000])),
        '',
        ' ',
        '$patch',
        '$retainKeys',
        '$setElementOrder/x',
        'a.b',
        'a"b',
        '\\',
        '\u2028',
        '\ud800',
      ]);
      const container = containerPath(rng, obj, paths);
      const parent = getAt(obj, container);
      if (parent && typeof parent === 'object' && !Array.isArray(parent)) parent[name] = oddValue(rng);
      return `odd-field-name ${fmt(container)}[${JSON.stringify(name.slice(0, 20))}${name.length > 20 ? `...(${name.length})` : ''}]`;
    }
    case 'duplicate-key': {
      const container = containerPath(rng, obj, paths);
      const parent = getAt(obj, container);
      if (!parent || typeof parent !== 'object' || Array.isArray(parent)) return `duplicate-key (none at ${fmt(container)})`;
      const entries = Object.entries(parent) as [string, unknown][];
      if (entries.length === 0) entries.push(['a', 1]);
      const dupe = rng.pick(entries);
      const copy: [string, unknown] = [dupe[0], rng.chance(0.5) ? dupe[1] : oddValue(rng)];
      entries.splice(rng.int(0, entries.length), 0, copy);
      const d = new Dup(entries);
      if (container.length === 0) return `duplicate-key (root: skipped)`;
      setAt(obj, container, d);
      return `duplicate-key ${fmt(container)}.${dupe[0]}`;
    }
    case 'raw-number': {
      if (p.length === 0) return mutateValue(rng, obj, ctx);
      const lit = rng.pick(['9223372036854775808', '-9223372036854775809', '18446744073709551616', '1e400', '-1e400', '-0', '1.0', '0.5', '1E2', '123456789012345678901234567890', '00', '1e-400']);
      setAt(obj, p, new Raw(lit));
      return `raw-number ${fmt(p)} = ${lit}`;
    }
    case 'metadata':
      return mutateMetadata(rng, obj, ctx);
    case 'type-meta': {
      const what = rng.pick(['kind', 'apiVersion']);
      const v = rng.pick<unknown>(['', 'Status', 'List', 'Pod', 'ConfigMap', 'v2', 'apps/v1', 'x/y/z', 'Namespace', 'Table', 'WatchEvent', 'DeleteOptions', null, 7, undefined]);
      if (v === undefined) delete obj[what];
      else obj[what] = v;
      return `type-meta ${what} = ${JSON.stringify(v)}`;
    }
  }
  return 'none';
}

/** The path of an object (map) inside `obj`, for adding fields. */
function containerPath(rng: Rng, obj: unknown, paths: Path[]): Path {
  const maps = paths.filter((p) => {
    const v = getAt(obj, p);
    return v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Raw) && !(v instanceof Dup);
  });
  return maps.length ? rng.pick(maps) : [];
}

function mutateMetadata(rng: Rng, obj: Record<string, any>, ctx: { sentinelNamespace: string }): string {
  obj.metadata = obj.metadata && typeof obj.metadata === 'object' ? obj.metadata : {};
  const m = obj.metadata;
  const what = rng.pick([
    'name',
    'namespace',
    'generateName',
    'resourceVersion',
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'finalizers',
    'ownerReferences',
    'managedFields',
    'labels',
    'annotations',
    'generation',
    'selfLink',
  ]);
  const v: unknown = (() => {
    switch (what) {
      case 'name':
        return rng.pick(ODD_NAMES);
      case 'namespace':
        return rng.pick([ctx.sentinelNamespace, '', 'nonexistent', '..', 'UPPER', 'kube-system', 7]);
      case 'generateName':
        return rng.pick(['', 'x'.repeat(300), 'a-', '..', 'ñ-', '/']);
      case 'resourceVersion':
        return rng.pick(['', '0', '-1', 'abc', '9223372036854775808', '1', '99999999999', ' 5']);
      case 'uid':
        return rng.pick(['', 'not-a-uid', 'x'.repeat(1000), '00000000-0000-0000-0000-000000000000']);
      case 'creationTimestamp':
      case 'deletionTimestamp':
        return rng.pick(['', 'yesterday', '2024-13-01T00:00:00Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', 0, '2024-01-01T00:00:00.123456789Z']);
      case 'deletionGracePeriodSeconds':
        return rng.pick([-1, 0, 1e20, '5', new Raw('9223372036854775808')]);
      case 'finalizers':
        return rng.pick<unknown>([['a'], ['kubernetes'], ['example.com/x', 'example.com/x'], [''], ['Bad Finalizer!'], [7], 'str', new Array(1000).fill('example.com/f')]);
      case 'ownerReferences':
        return rng.pick<unknown>([
          [{}],
          [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: '' }],
          [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'u1', controller: true },
            { apiVersion: 'v1', kind: 'Secret', name: 'y', uid: 'u2', controller: true },
          ],
          [{ apiVersion: 'v1', kind: 'Namespace', name: ctx.sentinelNamespace, uid: 'abc', blockOwnerDeletion: true }],
          [{ apiVersion: '///', kind: '', name: '..', uid: 'x'.repeat(500) }],
          'str',
        ]);
      case 'managedFields':
        return rng.pick<unknown>([
          [{}],
          [{ manager: 'x', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }],
          [{ manager: 'x', operation: 'Bogus', fieldsType: 'FieldsV2', fieldsV1: 'str' }],
          [{ manager: 'x'.repeat(200), operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:': { '.': {}, 'k:{bad json': {} } } }],
          [{ manager: 'x', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: nested(3000, {}, false) }],
          'str',
          [null],
        ]);
      case 'labels':
        return rng.pick<unknown>([
          { '': 'v' },
          { 'a/b/c': 'v' },
          { ['x'.repeat(64)]: 'v' },
          { k: 'x'.repeat(64) },
          { k: 'bad value' },
          { k: 7 },
          { k: null },
          { ñ: 'ñ' },
          [],
          'str',
          { 'example.com/': 'v' },
          { '-k': 'v' },
          { k: '-v' },
        ]);
      case 'annotations':
        return rng.pick<unknown>([{ '': 'v' }, { k: 7 }, { big: 'x'.repeat(262_145) }, { 'a/b/c': 'v' }, 'str', { k: null }, { 'kubectl.kubernetes.io/last-applied-configuration': '{bad json' }]);
      case 'generation':
        return rng.pick([-1, 1.5, '1', new Raw('9223372036854775808')]);
      default:
        return rng.pick(['', '/api/v1/x', 7]);
    }
  })();
  m[what] = v;
  return `metadata.${what} = ${emit(v).slice(0, 60)}`;
}

/** A textual mutation of encoded bytes; returns the new bytes and what it did. */
export function mutateText(rng: Rng, text: Uint8Array): { bytes: Uint8Array; note: string; variant: string } {
  const r = textMutation(rng, text);
  return { ...r.out, variant: r.variant };
}

function textMutation(rng: Rng, text: Uint8Array): { out: { bytes: Uint8Array; note: string }; variant: string } {
  const at = () => rng.int(0, text.length);
  const splice = (pos: number, insert: Uint8Array | number[], remove = 0) => {
    const ins = insert instanceof Uint8Array ? insert : new Uint8Array(insert);
    const out = new Uint8Array(text.length - remove + ins.length);
    out.set(text.subarray(0, pos), 0);
    out.set(ins, pos);
    out.set(text.subarray(pos + remove), pos + ins.length);
    return out;
  };
  // a position just inside a string (after a quote), for byte insertions that keep the JSON shape
  const inString = () => {
    const quotes: number[] = [];
    for (let i = 0; i < text.length && quotes.length < 400; i++) if (text[i] === 0x22) quotes.push(i);
    return quotes.length ? rng.pick(quotes) + 1 : at();
  };
  const kind = rng.pick([
    'truncate',
    'invalid-utf8',
    'random-bytes',
    'nul',
    'bom',
    'trailing',
    'bad-escape',
    'lone-surrogate-escape',
    'comment',
    'whitespace',
    'drop-byte',
    'swap-quote',
    'replace-whole',
  ]);
  switch (kind) {
    case 'truncate': {
      const n = rng.int(0, Math.max(0, text.length - 1));
      return { out: { bytes: text.subarray(0, n), note: `truncate at ${n}/${text.length}` }, variant: kind };
    }
    case 'invalid-utf8': {
      const seq = rng.pick([[0xff], [0xfe, 0xff], [0xc3], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xf4, 0x90, 0x80, 0x80]]);
      const pos = rng.chance(0.8) ? inString() : at();
      return { out: { bytes: splice(pos, seq), note: `invalid-utf8 ${seq.map((b) => b.toString(16)).join(' ')} at ${pos}` }, variant: kind };
    }
    case 'random-bytes': {
      const pos = at();
      const n = rng.int(1, 8);
      return { out: { bytes: splice(pos, rng.bytes(n)), note: `random-bytes ${n} at ${pos}` }, variant: kind };
    }
    case 'nul': {
      const pos = rng.chance(0.5) ? inString() : at();
      return { out: { bytes: splice(pos, [0]), note: `nul at ${pos}` }, variant: kind };
    }
    case 'bom':
      return { out: { bytes: splice(0, [0xef, 0xbb, 0xbf]), note: 'utf-8 bom' }, variant: kind };
    case 'trailing': {
      const t = rng.pick(['x', '{}', ' {"a":1}', '\n---\n', ']', '\u0000', '}}}}']);
      return { out: { bytes: splice(text.length, [...Buffer.from(t)]), note: `trailing ${JSON.stringify(t)}` }, variant: kind };
    }
    case 'bad-escape': {
      const e = rng.pick(['\\x41', '\\u12', '\\uZZZZ', '\\', '\\a', '\\0', '\\U0001F600']);
      return { out: { bytes: splice(inString(), [...Buffer.from(e)]), note: `bad-escape ${e}` }, variant: kind };
    }
    case 'lone-surrogate-escape': {
      const e = rng.pick(['\\ud800', '\\udfff', '\\ud800\\ud800', '\\udc00\\ud800', '\\u0000']);
      return { out: { bytes: splice(inString(), [...Buffer.from(e)]), note: `escape ${e}` }, variant: kind };
    }
    case 'comment':
      return { out: { bytes: splice(at(), [...Buffer.from(rng.pick(['/* c */', '// c\n', '# c\n']))]), note: 'comment' }, variant: kind };
    case 'whitespace': {
      const n = rng.pick([1000, 100_000, 2_000_000]);
      return { out: { bytes: splice(at(), new Uint8Array(n).fill(0x20)), note: `whitespace ${n}` }, variant: kind };
    }
    case 'drop-byte': {
      const pos = rng.int(0, Math.max(0, text.length - 1));
      return { out: { bytes: splice(pos, [], 1), note: `drop-byte at ${pos}` }, variant: kind };
    }
    case 'swap-quote': {
      const pos = inString() - 1;
      return { out: { bytes: splice(Math.max(0, pos), [0x27], 1), note: `single quote at ${pos}` }, variant: kind };
    }
    default: {
      const t = rng.pick(['', 'null', '[]', '"str"', '0', 'true', '{', '[', '{"a":', 'NaN', '-', '{}', '{"apiVersion":"v1"}', '[{}]']);
      return { out: { bytes: new Uint8Array(Buffer.from(t)), note: `whole body ${JSON.stringify(t)}` }, variant: kind };
    }
  }
}
