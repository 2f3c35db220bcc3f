// Shared helpers of the codegen checks: temporary spec trees (a copy of
// api-specs/ plus test fixtures), running the generator in memory, loading
// generated TypeScript modules from a temporary output directory, and
// locating the upstream reference data.
import { cpSync, existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseProto, type ParsedMessage } from '../../codegen/proto/proto-parse.ts';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const specsDir = join(projectRoot, 'api-specs');
export const generatedDir = join(projectRoot, 'generated');
export const fixturesDir = join(projectRoot, 'test', 'codegen', 'fixtures');

export const referenceDir = process.env.SPECSERVER_REFERENCE_DIR ?? resolve(projectRoot, '../shared/reference');
export const runtimeClassDoc = join(referenceDir, 'openapi', 'v3', 'apis__node.k8s.io__v1_openapi.json');

/**
 * A temporary directory inside the project (so that generated .ts files
 * resolve the project's node_modules); removed by cleanup().
 */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const base = join(projectRoot, '.cache', 'codegen-tests');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, `${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function osTempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copies api-specs/ (when present) into dir/specs, adding the test meta types if it has none. */
export function copySpecs(dir: string): string {
  const out = join(dir, 'specs');
  mkdirSync(out, { recursive: true });
  if (existsSync(specsDir)) cpSync(specsDir, out, { recursive: true });
  if (!existsSync(join(out, 'meta'))) cpSync(join(fixturesDir, 'meta'), join(out, 'meta'), { recursive: true });
  return out;
}

/** A spec tree holding only the fixture meta types plus the given files (relative path -> JSON value or text). */
export function fixtureTree(dir: string, files: Record<string, unknown>): string {
  const out = join(dir, 'specs');
  cpSync(join(fixturesDir, 'meta'), join(out, 'meta'), { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const p = join(out, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return out;
}

/** Every message of the generated.proto files below root, by `<package>.<name>`. */
export function protoMessages(root: string): Map<string, ParsedMessage> {
  const found = new Map<string, ParsedMessage>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir)) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e === 'generated.proto') {
        const parsed = parseProto(readFileSync(p, 'utf8'), p);
        for (const m of parsed.messages) found.set(`${parsed.package}.${m.name}`, m);
      }
    }
  };
  walk(root);
  return found;
}
