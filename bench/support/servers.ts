// How the benches start server processes. Ours and every baseline process run
// as `node ${NODE_ARGS} <script>`, so both sides pay the same loader; the
// entry points are constants here, so moving to a compiled build is one edit.
// The baselines are plain .mjs so they run the same with or without the loader.

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnListening, type BenchProcess } from './process.ts';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The node arguments before the script, for our server and for the baselines alike. */
export const NODE_ARGS: readonly string[] = ['--import', 'tsx'];

/** Our server's command-line entry point (what `npm start` runs). */
export const SERVER_ENTRY = join(root, 'runtime', 'cli.ts');

/** The package entry point (what `import 'specserver'` loads). */
export const LIBRARY_ENTRY = join(root, 'runtime', 'index.ts');

/** A baseline script under bench/baselines/. */
export const baseline = (name: string): string => join(root, 'bench', 'baselines', name);

/**
 * Our server over plain HTTP with every request allowed (the baselines have
 * neither TLS nor authorization; bench/auth measures what those cost), its
 * SQLite store under dataDir.
 */
export function spawnOurs(dataDir: string, extraFlags: string[] = []): Promise<BenchProcess> {
  return spawnListening([...NODE_ARGS, SERVER_ENTRY, '--data-dir', dataDir, '--secure-port', '0', '--insecure-serve-http', '--authorization-mode', 'AlwaysAllow', ...extraFlags], root);
}

/** A baseline server script, started as ours is. */
export function spawnBaseline(name: string, args: string[] = []): Promise<BenchProcess> {
  return spawnListening([...NODE_ARGS, baseline(name), ...args], root);
}

/** Resolves once GET /readyz answers 200 (polled every 5 ms); the time it happened (performance.now()). */
export async function waitReady(url: string): Promise<number> {
  for (;;) {
    try {
      const r = await fetch(`${url}/readyz`);
      await r.arrayBuffer();
      if (r.status === 200) return performance.now();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}
