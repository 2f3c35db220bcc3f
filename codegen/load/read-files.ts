// Reads every .json/.yaml/.yml file below the specs directory, sorted by
// relative path, and parses it (YAML files may hold several documents).
// Knows nothing about what the documents mean.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CodegenError } from './errors.ts';

export interface SpecDocument {
  /** Path relative to the specs dir, with `/` separators. */
  file: string;
  /** Index of the document within a multi-document YAML file. */
  index: number;
  doc: unknown;
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(json|ya?ml)$/.test(name)) out.push(p);
  }
}

export function readSpecFiles(specsDir: string): SpecDocument[] {
  const paths: string[] = [];
  walk(specsDir, paths);
  const rel = paths.map((p) => ({ abs: p, file: relative(specsDir, p).split(sep).join('/') }));
  rel.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const docs: SpecDocument[] = [];
  for (const { abs, file } of rel) {
    const text = readFileSync(abs, 'utf8');
    if (file.endsWith('.json')) {
      try {
        docs.push({ file, index: 0, doc: JSON.parse(text) });
      } catch (e) {
        throw new CodegenError(file, '$', `invalid JSON: ${(e as Error).message}`);
      }
      continue;
    }
    const parsed = parseAllDocuments(text);
    const list = Array.isArray(parsed) ? parsed : [parsed];
    list.forEach((d, index) => {
      if (d.errors.length > 0) throw new CodegenError(file, `$[${index}]`, `invalid YAML: ${d.errors[0].message}`);
      const value = d.toJSON();
      if (value !== null && value !== undefined) docs.push({ file, index, doc: value });
    });
  }
  return docs;
}
