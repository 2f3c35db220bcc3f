// Loads what codegen emitted: the resource registry, the merge schema, the
// validator loaders, the protobuf index and the location of the OpenAPI
// documents. The project's own generated/ is imported with literal paths, so
// that the build (scripts/build.mjs) bundles it and keeps its lazily loaded
// parts (validators per kind, protobuf messages per group-version) in chunks of
// their own. The merge schema is data (merge-schema.json), read and parsed
// when a write, patch or apply first needs it: a restart that writes nothing
// never loads it. Another codegen output directory (--generated-dir, dropped-in
// specs) is imported by path; when the running server is compiled JavaScript,
// that directory's TypeScript is compiled on import by tsx, registered then.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MergeSchema, ResourceDef, SchemaValidator } from '../../generated/api-types.ts';
import type { GeneratedProtoIndex } from '../codec/protobuf/index.ts';

export interface GeneratedApi {
  resources: ResourceDef[];
  mergeSchema: MergeSchema;
  validators: Record<string, () => Promise<SchemaValidator>>;
  /** The protobuf index (kinds, message packages loaded on first use); undefined for an API generated without protobuf. */
  proto: () => Promise<GeneratedProtoIndex | undefined>;
  openapiDir: string;
  /** The directory it was loaded from. */
  dir: string;
}

/** The nearest directory at or above `from` holding a package.json: the project's root, from its sources or from dist/. */
export function packageRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
  return dir;
}

export const DEFAULT_GENERATED_DIR = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'generated');

const MERGE_SCHEMA_JSON = 'merge-schema.json';

/** A merge schema whose types are read from `file` on first access (synchronously: every user reads them in the middle of a request). */
export function lazyMergeSchema(file: string): MergeSchema {
  let types: MergeSchema['types'] | undefined;
  const schema: MergeSchema = {
    get types() {
      return (types ??= (JSON.parse(readFileSync(file, 'utf8')) as MergeSchema).types);
    },
  };
  return schema;
}

/** Memoized: the protobuf index is imported once, by the first caller. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= load());
}

export async function loadGeneratedApi(dir: string = DEFAULT_GENERATED_DIR): Promise<GeneratedApi> {
  if (dir === DEFAULT_GENERATED_DIR) {
    const [registry, validators] = await Promise.all([import('../../generated/registry.ts'), import('../../generated/validators/index.ts')]);
    return {
      resources: registry.resources,
      mergeSchema: lazyMergeSchema(join(dir, MERGE_SCHEMA_JSON)),
      validators: validators.validators,
      proto: once(() => import('../../generated/proto/index.ts')),
      openapiDir: join(dir, 'openapi'),
      dir,
    };
  }
  const ext = await moduleExtension(dir);
  const url = (rel: string) => pathToFileURL(join(dir, `${rel}${ext}`)).href;
  // an output of an older codegen has no merge-schema.json: its module holds the data
  const mergeJSON = join(dir, MERGE_SCHEMA_JSON);
  const [registry, merge, validators] = await Promise.all([
    import(url('registry')),
    existsSync(mergeJSON) ? { mergeSchema: lazyMergeSchema(mergeJSON) } : import(url('merge-schema')),
    import(url('validators/index')),
  ]);
  return {
    resources: registry.resources,
    mergeSchema: merge.mergeSchema,
    validators: validators.validators,
    proto: once(async () => {
      if (!existsSync(join(dir, 'proto', `index${ext}`))) return undefined;
      return (await import(url('proto/index'))) as GeneratedProtoIndex;
    }),
    openapiDir: join(dir, 'openapi'),
    dir,
  };
}

// whether this module runs as TypeScript (under tsx or vitest) or as the build's JavaScript
const runningTypeScript = import.meta.url.endsWith('.ts');
let tsxRegistered: Promise<void> | undefined;

/** `.js` for a compiled output directory, `.ts` for codegen's own output (tsx registered first when this is compiled code). */
async function moduleExtension(dir: string): Promise<'.js' | '.ts'> {
  if (existsSync(join(dir, 'registry.js'))) return '.js';
  if (!runningTypeScript) {
    tsxRegistered ??= import('tsx/esm/api').then(({ register }) => {
      register();
    });
    await tsxRegistered;
  }
  return '.ts';
}
