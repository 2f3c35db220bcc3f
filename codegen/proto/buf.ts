// Runs `buf generate` with the project's buf.gen.yaml on a directory of .proto
// files, writing protoc-gen-es output to a chosen directory. buf and the
// plugin come from node_modules; the template names only a local plugin, so
// nothing is fetched.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export class BufError extends Error {}

/** buf.gen.yaml with every plugin's `out` replaced by `outDir` (absolute). */
export function bufTemplate(outDir: string, templatePath = join(PROJECT_ROOT, 'buf.gen.yaml')): string {
  const t = parseYaml(readFileSync(templatePath, 'utf8')) as { plugins: Array<Record<string, unknown>> };
  for (const p of t.plugins) {
    p.out = outDir;
    if (typeof p.local === 'string' && !p.local.startsWith('/')) p.local = join(PROJECT_ROOT, p.local);
  }
  return JSON.stringify(t);
}

export function runBufGenerate(protoDir: string, outDir: string): Promise<void> {
  const buf = join(PROJECT_ROOT, 'node_modules', '.bin', 'buf');
  const args = ['generate', protoDir, '--template', bufTemplate(outDir)];
  return new Promise((resolve, reject) => {
    const child = spawn(buf, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BUF_CACHE_DIR: join(PROJECT_ROOT, 'node_modules', '.cache', 'buf') } });
    let err = '';
    child.stdout.on('data', (d) => (err += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', (e) => reject(new BufError(`cannot run buf: ${e.message}`)));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new BufError(`buf generate failed (${code}): ${err.trim()}`))));
  });
}
