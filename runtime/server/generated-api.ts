// Loads what codegen emitted (generated/ or another output directory): the
// resource registry, the merge schema, the validator loaders and the
// location of the OpenAPI documents.

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MergeSchema, ResourceDef, SchemaValidator } from '../../generated/api-types.ts';

export interface GeneratedApi {
  resources: ResourceDef[];
  mergeSchema: MergeSchema;
  validators: Record<string, () => Promise<SchemaValidator>>;
  openapiDir: string;
  /** The directory it was loaded from. */
  dir: string;
}

export const DEFAULT_GENERATED_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../generated');

export async function loadGeneratedApi(dir: string = DEFAULT_GENERATED_DIR): Promise<GeneratedApi> {
  const url = (rel: string) => pathToFileURL(join(dir, rel)).href;
  const [registry, merge, validators] = await Promise.all([import(url('registry.ts')), import(url('merge-schema.ts')), import(url('validators/index.ts'))]);
  return {
    resources: registry.resources,
    mergeSchema: merge.mergeSchema,
    validators: validators.validators,
    openapiDir: join(dir, 'openapi'),
    dir,
  };
}
