// Round trip without loss between the versions of every built-in resource
// served in several versions: random valid objects (seeded, drawn from each
// version's generated OpenAPI schema) go v_a → storage → v_b → storage →
// v_a through the store's converter and come back equal; each converted
// object is still valid in its version (no unknown fields, no wrong types).
// Versions of different groups stored as one (events.k8s.io/v1 and core v1
// Events) are covered the same way: upstream's mapping between them is
// renames only, lossless both ways, so nothing is exempt.
// Every step into a version is followed by that version's defaults (the
// declared ones, then the kind's strategy's), as if a client of that version wrote back what it read (the
// start object gets them as its first write would): a value a version cannot
// tell from unset must survive that. Annotations the conversions own are not
// drawn (the converter writes them). A hub object sometimes gets, last in
// the list, the item a version's itemField rule mirrors (random draws
// would hardly ever make it), so the mirrored scalars are crossed too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResourceDef } from '../../generated/api-types.ts';
import { resources } from '../../generated/registry.ts';
import { validators } from '../../generated/validators/index.ts';
import { applyVersionDefaults, declaredConverter } from '../../runtime/registry/conversion/declared.ts';
import { defaultStrategy } from '../../runtime/registry/strategy.ts';
import { strategyFor } from '../../runtime/registry/strategies/index.ts';
import type { Obj } from '../../runtime/storage/interface.ts';
import { get } from '../../runtime/registry/conversion/paths.ts';
import { Rng } from '../fuzz/rng.ts';
import { storageGroupOf } from '../../runtime/api/served-index.ts';
import { generatedDir } from '../codegen/helpers.ts';

type Schema = Record<string, any>;
const ROUNDS = 150;
const SEED = 20261124;

/** The multi-version built-in resources: stored group/resource → its versions (of its group, and of another group stored with it). */
const multi = new Map<string, ResourceDef[]>();
for (const r of resources) {
  if (r.custom || r.virtual) continue;
  const key = `${storageGroupOf(r)}/${r.resource}`;
  multi.set(key, [...(multi.get(key) ?? []), r]);
}
for (const [k, v] of multi) if (v.length < 2) multi.delete(k);

const docs = new Map<string, Schema>();
function schemasOf(def: ResourceDef): Record<string, Schema> {
  const file = def.group ? `apis__${def.group}__${def.version}.json` : `api__${def.version}.json`;
  let doc = docs.get(file);
  if (!doc) docs.set(file, (doc = JSON.parse(readFileSync(join(generatedDir, 'openapi', 'v3', file), 'utf8')) as Schema));
  return doc.components.schemas;
}

const refOf = (s: Schema): string | undefined => s.$ref ?? (Array.isArray(s.allOf) && s.allOf.length === 1 ? s.allOf[0].$ref : undefined);

/** A random value of the schema (bounded depth; required fields always, others by chance). */
function draw(rng: Rng, s: Schema, all: Record<string, Schema>, depth: number): unknown {
  const ref = refOf(s);
  if (ref) return draw(rng, all[ref.replace('#/components/schemas/', '')], all, depth);
  if (Array.isArray(s.enum) && s.enum.length) return rng.pick(s.enum);
  if (s['x-kubernetes-int-or-string']) return rng.chance(0.5) ? rng.int(0, 100) : `${rng.int(0, 100)}%`;
  switch (s.type) {
    case 'string':
      if (s.format === 'date-time') return '2026-01-02T03:04:05Z';
      if (s.format === 'byte') return 'YWJj';
      return rng.string(rng.int(1, 8));
    case 'integer':
      return rng.weighted([
        [2, 0],
        [3, rng.int(1, 100)],
      ]);
    case 'number':
      return rng.int(0, 100) / 4;
    case 'boolean':
      return rng.chance(0.5);
    case 'array': {
      if (depth > 6) return [];
      const n = rng.int(0, 2);
      return Array.from({ length: n }, () => draw(rng, s.items ?? { type: 'string' }, all, depth + 1));
    }
    case 'object':
    default: {
      const out: Obj = {};
      if (s.properties) {
        const required = new Set<string>(s.required ?? []);
        for (const [name, p] of Object.entries<Schema>(s.properties)) {
          if (name === 'apiVersion' || name === 'kind' || name === 'metadata') continue;
          if (!required.has(name) && (depth > 5 || !rng.chance(0.6))) continue;
          out[name] = draw(rng, p, all, depth + 1);
        }
      } else if (s.additionalProperties && depth <= 6) {
        for (let i = rng.int(0, 2); i > 0; i--) out[rng.string(4)] = draw(rng, s.additionalProperties, all, depth + 1);
      }
      return out;
    }
  }
}

function reservedAnnotations(versions: ResourceDef[]): Set<string> {
  const out = new Set<string>();
  for (const v of versions) {
    for (const r of v.conversion?.rules ?? []) if (r.op !== 'rename' && r.op !== 'itemField') out.add(r.annotation);
    for (const d of v.conversion?.defaults ?? []) if (d.unlessAnnotation) out.add(d.unlessAnnotation);
  }
  return out;
}

function randomObject(rng: Rng, def: ResourceDef, reserved: Set<string>, i: number): Obj {
  const all = schemasOf(def);
  const obj = draw(rng, all[def.schema], all, 0) as Obj;
  const annotations: Record<string, string> = {};
  for (let n = rng.int(0, 2); n > 0; n--) {
    const key = `example.com/${rng.string(5)}`;
    if (!reserved.has(key)) annotations[key] = rng.string(3);
  }
  const metadata: Obj = { name: `o${i}`, resourceVersion: String(i + 1), labels: { n: String(i) } };
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  return { apiVersion: def.group ? `${def.group}/${def.version}` : def.version, kind: def.kind, metadata, ...obj };
}

/** With an even chance per itemField rule of `b`, the hub object gets the item the rule mirrors (a random value) last in its list. */
function withMirroredItems(rng: Rng, obj: Obj, b: ResourceDef): Obj {
  for (const r of b.conversion?.rules ?? []) {
    if (r.op !== 'itemField' || !rng.chance(0.5)) continue;
    const item = structuredClone(r.match) as Obj;
    let at: Obj = item;
    for (const name of r.value.slice(0, -1)) at = (at[name] ??= {}) as Obj;
    at[r.value[r.value.length - 1]] = rng.int(1, 100);
    let parent: Obj = obj;
    for (const name of r.list.slice(0, -1)) parent = (parent[name] ??= {}) as Obj;
    const last = r.list[r.list.length - 1];
    parent[last] = [...(Array.isArray(parent[last]) ? parent[last] : []), item];
  }
  return obj;
}

async function shapeIssues(def: ResourceDef, obj: Obj): Promise<string[]> {
  const validate = await validators[def.schema]();
  return validate(obj)
    .filter((i) => i.kind === 'unknown' || i.kind === 'type')
    .map((i) => `${i.path}: ${i.message}`);
}

describe.each([...multi.entries()].map(([key, versions]) => ({ key, versions })))('$key', ({ versions }) => {
  const converter = declaredConverter(versions);
  const storage = versions.find((v) => v.storageVersion)!;
  const gv = (d: ResourceDef) => (d.group ? `${d.group}/${d.version}` : d.version);
  const reserved = reservedAnnotations(versions);
  const pairs = versions.flatMap((a) => versions.map((b) => [a, b] as const));
  const strategy = strategyFor(storage, defaultStrategy(storage));

  it.each(pairs.map(([a, b]) => ({ a, b, name: `${gv(a)} → ${gv(storage)} → ${gv(b)} → ${gv(storage)} → ${gv(a)}` })))('$name', async ({ a, b }) => {
    const rng = new Rng(SEED ^ (a.version.length * 31 + b.version.length + (a.group === b.group ? 0 : 1000 + a.group.length)));
    const writtenBack = (o: Obj, d: ResourceDef) => {
      const copy = structuredClone(o);
      if (d.conversion?.defaults.length) applyVersionDefaults(copy, d.conversion.defaults);
      strategy.defaults?.(copy);
      return copy;
    };
    let marked = 0;
    let mirrored = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const drawn = randomObject(rng, a, reserved, i);
      const start = writtenBack(a === storage ? withMirroredItems(rng, drawn, b) : drawn, a);
      const snapshot = structuredClone(start);
      const [stored1] = await converter.convert([start], gv(storage));
      const [inB] = await converter.convert([stored1], gv(b));
      if (Object.keys(inB.metadata.annotations ?? {}).some((k) => reserved.has(k))) marked++;
      if (b.conversion?.rules.some((r) => r.op === 'itemField' && get(inB, r.field) !== undefined)) mirrored++;
      const [stored2] = await converter.convert([writtenBack(inB, b)], gv(storage));
      const [back] = await converter.convert([stored2], gv(a));
      expect(start, 'the source is not changed').toEqual(snapshot);
      expect(stored2, `round ${i}: storage → ${gv(b)} → storage`).toEqual(stored1);
      expect(back, `round ${i}: back in ${gv(a)}`).toEqual(start);
      for (const [def, obj] of [
        [storage, stored1],
        [b, inB],
      ] as const) {
        expect(await shapeIssues(def, obj), `round ${i}: valid in ${gv(def)}`).toEqual([]);
      }
    }
    // the draws reach what the conversions mark (a zero the version cannot tell from unset)
    if (a === storage && b.conversion?.rules.some((r) => r.op === 'zeroAnnotation' || r.op === 'annotation')) expect(marked).toBeGreaterThan(0);
    // and the items a version's scalar mirrors
    if (a === storage && b.conversion?.rules.some((r) => r.op === 'itemField')) expect(mirrored).toBeGreaterThan(0);
  });
});
