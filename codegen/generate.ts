// Runs every emitter over the loaded model and writes generated/: the
// complete set of output files is computed in memory first (so a bad spec
// writes nothing), then written, and files no longer produced are removed.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpecs } from './load/index.ts';
import { generateProto } from './proto/index.ts';
import type { Model } from './model/types.ts';
import { emitApiTypes } from './emit/api-types.ts';
import { emitRegistry } from './emit/registry.ts';
import { emitMergeSchema, emitMergeSchemaJSON } from './emit/merge-schema.ts';
import { emitValidators } from './emit/validators.ts';
import { emitOpenAPIV2 } from './emit/openapi-v2.ts';
import { emitOpenAPIV3 } from './emit/openapi-v3.ts';
import { emitOpenAPIIndex } from './emit/openapi-index.ts';
import { GENERATED_HEADER } from './emit/printer.ts';

export const templatesDir = join(dirname(fileURLToPath(import.meta.url)), 'templates');

/** Output files (path relative to generated/ -> content) for a model. */
export function generateFiles(model: Model): Map<string, string> {
  const files = new Map<string, string>();
  files.set('api-types.ts', emitApiTypes(templatesDir));
  files.set('registry.ts', emitRegistry(model));
  files.set('merge-schema.ts', emitMergeSchema());
  files.set('merge-schema.json', emitMergeSchemaJSON(model));
  const v = emitValidators(model, templatesDir);
  for (const [name, text] of v.modules) files.set(`validators/${name}.ts`, text);
  files.set('validators/index.ts', v.index);
  files.set('validators/runtime.ts', v.runtime);
  files.set('openapi/v2.json', emitOpenAPIV2(model));
  const v3 = emitOpenAPIV3(model);
  for (const [name, text] of v3.files) files.set(`openapi/v3/${name}`, text);
  files.set('openapi/v3/index.json', v3.index);
  files.set('openapi/index.ts', emitOpenAPIIndex(model, v3.hashes));
  return new Map([...files.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}

function listFiles(dir: string, out: string[] = [], root = dir): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    const p = join(dir, n);
    if (n === 'node_modules' || n.startsWith('.')) continue;
    if (statSync(p).isDirectory()) listFiles(p, out, root);
    else out.push(relative(root, p).split(sep).join('/'));
  }
  return out;
}

/** A file codegen wrote earlier: a .ts file with the generated header, a JSON document under openapi/, or the merge schema's data. */
function isGeneratedFile(outDir: string, rel: string): boolean {
  if ((rel.startsWith('openapi/') && rel.endsWith('.json')) || rel === 'merge-schema.json') return true;
  if (!rel.endsWith('.ts')) return false;
  return readFileSync(join(outDir, rel), 'utf8').startsWith(GENERATED_HEADER);
}

/**
 * Writes the files (only those whose bytes changed) and removes earlier
 * generated files of outDir that are no longer produced; other files are left alone.
 */
export function writeFiles(outDir: string, files: Map<string, string>): { written: number; removed: number } {
  let written = 0;
  let removed = 0;
  for (const existing of listFiles(outDir)) {
    if (existing.startsWith('proto/')) continue; // written by codegen/proto
    if (!files.has(existing) && isGeneratedFile(outDir, existing)) {
      rmSync(join(outDir, existing));
      removed++;
    }
  }
  for (const [rel, text] of files) {
    const p = join(outDir, rel);
    let old: string | undefined;
    try {
      old = readFileSync(p, 'utf8');
    } catch {
      old = undefined;
    }
    if (old === text) continue;
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    written++;
  }
  return { written, removed };
}

export async function generate(specsDir: string, outDir: string): Promise<{ files: number; written: number; removed: number; model: Model }> {
  const model = loadSpecs(specsDir);
  const files = generateFiles(model);
  const { written, removed } = writeFiles(outDir, files);
  // protobuf: .proto files from the same specs, field numbers from the lock, codecs through buf
  await generateProto(specsDir, outDir);
  return { files: files.size, written, removed, model };
}

export { listFiles };
