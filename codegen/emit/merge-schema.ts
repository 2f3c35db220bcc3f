// Emits generated/merge-schema.ts: the structured-merge-diff schema of every
// named type reachable from a resource (plus the meta types) as plain data.
// Each type's atom comes from the shared translation
// (runtime/schema/merge-types.ts, the rules of docs/spec-format.md); here
// only Quantity (untyped) and the reserved types are added.
import type { Atom, MergeSchema } from '../templates/api-types.ts';
import type { Model } from '../model/types.ts';
import { QUANTITY } from '../load/schema-util.ts';
import { namedAtom, reservedTypes, type MergeCtx } from '../../runtime/schema/merge-types.ts';
import { closure, metaSchemas, rootsOfResources } from './reach.ts';
import { literal, ModuleWriter } from './printer.ts';

/** The merge schema of the named types reachable from the model's resources and meta types. */
export function buildMergeSchema(model: Model): MergeSchema {
  const names = closure(model, [...rootsOfResources(model, model.resources), ...metaSchemas(model)]);
  const lookup = (n: string) => model.schemas.get(n);
  const types: Record<string, Atom> = {};
  for (const name of names) {
    const s = model.schemas.get(name)!;
    if (name === QUANTITY) {
      types[name] = { scalar: 'untyped' };
      continue;
    }
    const ctx: MergeCtx = { custom: s.custom, lookup };
    types[name] = namedAtom(s.schema, ctx);
  }
  Object.assign(types, reservedTypes());
  const sorted: Record<string, Atom> = {};
  for (const k of Object.keys(types).sort()) sorted[k] = types[k];
  return { types: sorted };
}

export function emitMergeSchema(model: Model): string {
  const w = new ModuleWriter('The merge schema (structured-merge-diff model) of every named type served, for\nstrategic merge patch and server-side apply.');
  w.importType('MergeSchema', './api-types.ts');
  w.line(`export const mergeSchema: MergeSchema = ${literal(buildMergeSchema(model))};`);
  return w.toString();
}
