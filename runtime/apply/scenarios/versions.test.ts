// Scenarios: field ownership across the versions of one object. Version
// `v2` of the fixture kind calls `spec.args` `spec.argv`; each manager's set
// stays in the version it wrote through, and conflicts, removals and
// pruning compare the objects converted into it.
import { describe, expect, it } from 'vitest';
import type { MergeSchema } from '../../../generated/api-types.ts';
import { ApplyConflictError, FieldManager, type ObjectVersions } from '../index.ts';
import { isObj, type Obj } from '../value/json.ts';
import { fixtureSchema } from './fixture-schema.ts';
import { entriesByKey, stripManaged } from './run.ts';

const spec = fixtureSchema.types.Spec.map!;
const schema: MergeSchema = {
  types: {
    ...fixtureSchema.types,
    ThingB: { map: { fields: fixtureSchema.types.Thing.map!.fields!.map((f) => (f.name === 'spec' ? { ...f, type: { named: 'SpecB' } } : f)) } },
    SpecB: { map: { ...spec, fields: spec.fields!.map((f) => (f.name === 'args' ? { ...f, name: 'argv' } : f)) } },
  },
};

/** `spec.args` (v1) ⇄ `spec.argv` (v2). */
function convert(obj: Obj, from: string, to: string): Obj {
  const out = structuredClone(obj);
  out.apiVersion = to;
  if (from === to || !isObj(out.spec)) return out;
  const [a, b] = from === 'v1' ? ['args', 'argv'] : ['argv', 'args'];
  if (a in out.spec) {
    out.spec[b] = out.spec[a];
    delete out.spec[a];
  }
  return out;
}

const versions: ObjectVersions = { typeName: (v) => ({ v1: 'Thing', v2: 'ThingB' })[v], convert };
const managers = {
  v1: new FieldManager({ schema, typeName: 'Thing', apiVersion: 'v1', versions }),
  v2: new FieldManager({ schema, typeName: 'ThingB', apiVersion: 'v2', versions }),
  /** v2 without the versions: every set read in v2's field paths, as before versions were known. */
  blind: new FieldManager({ schema, typeName: 'ThingB', apiVersion: 'v2' }),
};
type Via = keyof typeof managers;

interface Step {
  via: Via;
  op?: 'apply' | 'update';
  manager: string;
  /** Configuration (apply) or, for update, a function of the live object in `via`'s version. */
  object: Obj | ((live: Obj) => Obj);
  force?: boolean;
  expectMessage?: string;
  /** Entries "manager/Operation@apiVersion" to fieldsV1. */
  expectManaged?: Record<string, Obj>;
  /** The object afterwards, in v1, managedFields left out. */
  expectObject?: Obj;
}

const meta = { metadata: { name: 'x' } };
const v1 = (s: Obj): Obj => ({ apiVersion: 'v1', kind: 'Thing', ...meta, spec: s });
const v2 = (s: Obj): Obj => ({ apiVersion: 'v2', kind: 'Thing', ...meta, spec: s });

function entries(o: Obj): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const byKey = entriesByKey(o);
  const mf = (o.metadata as Obj).managedFields as Obj[];
  for (const e of mf) out[`${e.manager}/${e.operation}@${e.apiVersion}`] = byKey[`${e.manager}/${e.operation}`];
  return out;
}

/** Runs the steps; the live object is kept in v1 (the stored version) and handed to each manager in its version. */
function run(steps: Step[]): void {
  let live: Obj | null = null;
  steps.forEach((s, i) => {
    const fm = managers[s.via];
    const version = s.via === 'v1' ? 'v1' : 'v2';
    const mine = live && convert(live, 'v1', version);
    const obj = typeof s.object === 'function' ? s.object(mine ?? {}) : s.object;
    let out: Obj;
    try {
      out = s.op === 'update' ? fm.update(mine, obj, s.manager) : fm.apply(mine, obj, s.manager, { force: !!s.force });
    } catch (e) {
      if (s.expectMessage === undefined || !(e instanceof ApplyConflictError)) throw e;
      expect(e.message, `step ${i}`).toBe(s.expectMessage);
      return;
    }
    if (s.expectMessage !== undefined) throw new Error(`step ${i}: expected a conflict, the write succeeded`);
    live = convert(out, version, 'v1');
    if (s.expectManaged) expect(entries(live), `step ${i} managed fields`).toEqual(s.expectManaged);
    if (s.expectObject) expect(stripManaged(live), `step ${i} object`).toEqual(s.expectObject);
  });
}

const cases: { name: string; steps: Step[] }[] = [
  {
    name: 'a renamed field applied through the other version conflicts, named in the owner version',
    steps: [
      { via: 'v1', manager: 'a', object: v1({ args: ['x'], replicas: 2 }) },
      { via: 'v2', manager: 'b', object: v2({ argv: ['y'] }), expectMessage: 'Apply failed with 1 conflict: conflict with "a": .spec.args' },
    ],
  },
  {
    name: 'before versions were known the same writes did not conflict',
    steps: [
      { via: 'v1', manager: 'a', object: v1({ args: ['x'] }) },
      { via: 'blind', manager: 'b', object: v2({ argv: ['y'] }), expectManaged: { 'a/Apply@v1': { 'f:spec': { 'f:args': {} } }, 'b/Apply@v2': { 'f:spec': { 'f:argv': {} } } } },
    ],
  },
  {
    name: 'the same value is shared ownership, not a conflict',
    steps: [
      { via: 'v1', manager: 'a', object: v1({ args: ['x'] }) },
      { via: 'v2', manager: 'b', object: v2({ argv: ['x'] }), expectManaged: { 'a/Apply@v1': { 'f:spec': { 'f:args': {} } }, 'b/Apply@v2': { 'f:spec': { 'f:argv': {} } } } },
    ],
  },
  {
    name: 'force takes the field: the owner entry loses it in its own terms and keeps the rest',
    steps: [
      { via: 'v1', manager: 'a', object: v1({ args: ['x'], replicas: 2 }) },
      {
        via: 'v2',
        manager: 'b',
        object: v2({ argv: ['y'] }),
        force: true,
        expectManaged: { 'a/Apply@v1': { 'f:spec': { 'f:replicas': {} } }, 'b/Apply@v2': { 'f:spec': { 'f:argv': {} } } },
        expectObject: v1({ args: ['y'], replicas: 2 }),
      },
    ],
  },
  {
    name: 'a field of one path in both versions conflicts too',
    steps: [
      { via: 'v2', manager: 'b', object: v2({ replicas: 3 }) },
      { via: 'v1', manager: 'a', object: v1({ replicas: 4 }), expectMessage: 'Apply failed with 1 conflict: conflict with "b": .spec.replicas' },
    ],
  },
  {
    name: 'an update through the other version takes the renamed field from its owner',
    steps: [
      { via: 'v1', manager: 'a', object: v1({ args: ['x'], paused: true }) },
      {
        via: 'v2',
        op: 'update',
        manager: 'u',
        object: (l) => ({ ...l, spec: { ...(l.spec as Obj), argv: ['z'] } }),
        expectManaged: { 'a/Apply@v1': { 'f:spec': { 'f:paused': {} } }, 'u/Update@v2': { 'f:spec': { 'f:argv': {} } } },
      },
    ],
  },
  {
    name: 'an update removing the renamed field through the other version removes it from its owner',
    steps: [
      { via: 'v1', manager: 'a', object: v1({ args: ['x'], paused: true }) },
      {
        via: 'v2',
        op: 'update',
        manager: 'u',
        object: (l) => ({ ...l, spec: { paused: true } }),
        expectManaged: { 'a/Apply@v1': { 'f:spec': { 'f:paused': {} } } },
      },
    ],
  },
  {
    name: 'an applier moving to the other version prunes what it no longer applies, from the set of its last version',
    steps: [
      { via: 'v1', manager: 'a', object: v1({ args: ['x'], paused: true }) },
      {
        via: 'v2',
        manager: 'a',
        object: v2({ argv: ['x'] }),
        expectManaged: { 'a/Apply@v2': { 'f:spec': { 'f:argv': {} } } },
        expectObject: v1({ args: ['x'] }),
      },
    ],
  },
  {
    name: 'pruning keeps a field another version manager owns',
    steps: [
      { via: 'v1', manager: 'a', object: v1({ args: ['x'], paused: true }) },
      { via: 'v2', manager: 'b', object: v2({ argv: ['x'] }) },
      {
        via: 'v1',
        manager: 'a',
        object: v1({ paused: true }),
        expectManaged: { 'a/Apply@v1': { 'f:spec': { 'f:paused': {} } }, 'b/Apply@v2': { 'f:spec': { 'f:argv': {} } } },
        expectObject: v1({ args: ['x'], paused: true }),
      },
    ],
  },
];

describe('ownership across versions', () => {
  it.each(cases)('$name', ({ steps }) => run(steps));
});
