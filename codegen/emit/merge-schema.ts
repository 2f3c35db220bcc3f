// Emits generated/merge-schema.json: the structured-merge-diff schema of every
// named type reachable from a resource (plus the meta types) as plain data, and
// generated/merge-schema.ts, which reads it.
// Each type's atom comes from the shared translation
// (runtime/schema/merge-types.ts, the rules of docs/spec-format.md); here
// only Quantity (untyped) and the reserved types are added.
import type { Atom, MergeSchema } from '../templates/api-types.ts';
import type { Model } from '../model/types.ts';
import { QUANTITY } from '../load/schema-util.ts';
import { namedAtom, reservedTypes, type MergeCtx } from '../../runtime/schema/merge-types.ts';
import { closure, metaSchemas, rootsOfResources } from './reach.ts';
import { ModuleWriter } from './printer.ts';

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

/** generated/merge-schema.json: the merge schema as data, which the server reads on first use (runtime/server/generated-api.ts). */
export function emitMergeSchemaJSON(model: Model): string {
  return `${JSON.stringify(buildMergeSchema(model))}\n`;
}

/** generated/merge-schema.ts: `mergeSchema`, read from merge-schema.json beside it when imported (tests and tools). */
export function emitMergeSchema(): string {
  const w = new ModuleWriter(
    'The merge schema (structured-merge-diff model) of every named type served, for\nstrategic merge patch and server-side apply: merge-schema.json beside this\nmodule, read when it is imported. The server reads that file on first use.',
  );
  w.importValue('readFileSync', 'node:fs');
  w.importType('MergeSchema', './api-types.ts');
  w.line(`export const mergeSchema: MergeSchema = JSON.parse(readFileSync(new URL('./merge-schema.json', import.meta.url), 'utf8'));`);
  return w.toString();
}
