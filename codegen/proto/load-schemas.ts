// Collects the OpenAPI component schemas of every OpenAPI document under
// api-specs/ (sorted by path; CRD manifests and other files are skipped: custom
// resources have no protobuf form). The first definition of a name wins; the
// main codegen checks that repeated definitions agree.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { Schema } from './model.ts';

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(json|ya?ml)$/.test(e)) out.push(p);
  }
  return out;
}

export function loadSchemas(specsDir: string): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  for (const file of walk(specsDir)) {
    const text = readFileSync(file, 'utf8');
    const docs: unknown[] = file.endsWith('.json') ? [JSON.parse(text)] : parseAllDocuments(text).map((d) => d.toJSON());
    for (const doc of docs) {
      if (!doc || typeof doc !== 'object' || !('openapi' in doc)) continue;
      const s = (doc as { components?: { schemas?: Record<string, Schema> } }).components?.schemas ?? {};
      for (const [name, schema] of Object.entries(s)) if (!(name in schemas)) schemas[name] = schema;
    }
  }
  return schemas;
}
