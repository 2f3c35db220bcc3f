// Emits generated/openapi/index.ts: where the precomputed OpenAPI documents
// are on disk (the runtime reads them with fs at first use) and each v3
// document's hash and default enablement.
import type { Model } from '../model/types.ts';
import { literal, ModuleWriter } from './printer.ts';
import { v3FileName, v3Key } from '../../runtime/schema/openapi-docs.ts';

export function emitOpenAPIIndex(model: Model, hashes: Map<string, string>): string {
  const w = new ModuleWriter('Locations of the precomputed OpenAPI documents (read with fs at first use).');
  w.importValue('fileURLToPath', 'node:url');
  w.line('const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));');
  w.line('');
  w.line('/** The /openapi/v2 document. */');
  w.line("export const openapiV2Path = here('./v2.json');");
  w.line('/** The /openapi/v3 discovery body (enabled-by-default group-versions). */');
  w.line("export const openapiV3IndexPath = here('./v3/index.json');");
  w.line('');
  w.line('export interface OpenAPIV3Document {');
  w.line('  /** Absolute path of the document. */');
  w.line('  path: string;');
  w.line('  /** The hash in its serverRelativeURL (SHA-512 of the file, upper-case hex). */');
  w.line('  hash: string;');
  w.line('  enabledByDefault: boolean;');
  w.line('}');
  w.line('');
  w.line('/** Per group-version documents, keyed `api/v1` or `apis/<group>/<version>`. */');
  w.line('export const openapiV3Documents: Record<string, OpenAPIV3Document> = {');
  for (const g of model.groupVersions) {
    const key = v3Key(g.group, g.version);
    const hash = hashes.get(key);
    if (!hash) continue;
    w.line(`  ${JSON.stringify(key)}: { path: here(${JSON.stringify(`./v3/${v3FileName(g.group, g.version)}`)}), hash: ${JSON.stringify(hash)}, enabledByDefault: ${literal(g.enabledByDefault)} },`);
  }
  w.line('};');
  return w.toString();
}
