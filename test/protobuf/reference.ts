// Locates the upstream reference data for protobuf tests
// (../shared/reference or $SPECSERVER_REFERENCE_DIR); undefined when absent.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function referenceDir(): string | undefined {
  const dir = process.env.SPECSERVER_REFERENCE_DIR ?? resolve(ROOT, '..', 'shared', 'reference');
  return existsSync(join(dir, 'fixtures')) ? dir : undefined;
}

/** Fixture base names (`core.v1.ConfigMap`) that have both .json and .pb. */
export function fixtureNames(dir: string): string[] {
  const files = new Set(readdirSync(join(dir, 'fixtures')));
  return [...files]
    .filter((f) => f.endsWith('.json') && files.has(f.replace(/\.json$/, '.pb')))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}
