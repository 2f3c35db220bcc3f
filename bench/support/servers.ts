// How the benches start server processes. Ours runs compiled, as `npm start`
// runs it (`node dist/cli.js`, built first with `scripts/build.mjs
// --if-stale`), and every baseline runs as `node bench/baselines/<file>.mjs`:
// both sides plain node, no TypeScript loader. A checkout given with
// `--before DIR` is started the same way from its own dist/ (built there if
// it has the build step; an older checkout without one runs runtime/cli.ts
// under tsx, which its figures then include).

import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnListening, spawnOnPort, type BenchProcess } from './process.ts';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Our server's command-line entry point in a checkout (what `npm start` runs). */
export const serverEntry = (dir: string = root): string => join(dir, 'dist', 'cli.js');

/** The package entry point (what `import 'specserver'` loads). */
export const LIBRARY_ENTRY = join(root, 'dist', 'index.js');

/** The compiled package (dist/ brought up to date first) of this checkout or of dir (--before), imported into this process. */
export async function importLibrary(dir: string = root): Promise<typeof import('../../runtime/index.ts')> {
  serverCommand(dir);
  return (await import(pathToFileURL(dir === root ? LIBRARY_ENTRY : join(dir, 'dist', 'index.js')).href)) as typeof import('../../runtime/index.ts');
}

/** A baseline script under bench/baselines/. */
export const baseline = (name: string): string => join(root, 'bench', 'baselines', name);

const built = new Set<string>();

/**
 * Brings dir's dist/ up to date (`node scripts/build.mjs --if-stale`, once per
 * process and checkout). Returns the node arguments that start its server:
 * the compiled entry, or runtime/cli.ts under tsx for a checkout that has no
 * build step.
 */
export function serverCommand(dir: string = root): string[] {
  const script = join(dir, 'scripts', 'build.mjs');
  if (!existsSync(script)) return ['--import', 'tsx', join(dir, 'runtime', 'cli.ts')];
  if (!built.has(dir)) {
    const r = spawnSync(process.execPath, [script, '--if-stale'], { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`build of ${dir} failed (${r.status}): ${r.stderr}`);
    built.add(dir);
  }
  return [serverEntry(dir)];
}

/**
 * Our server (or, with dir, another checkout's) over plain HTTP with every
 * request allowed (the baselines have neither TLS nor authorization;
 * bench/auth measures what those cost), its SQLite store under dataDir.
 */
export function spawnOurs(dataDir: string, extraFlags: string[] = [], dir: string = root): Promise<BenchProcess> {
  return spawnListening([...serverCommand(dir), '--data-dir', dataDir, '--secure-port', '0', '--insecure-serve-http', '--authorization-mode', 'AlwaysAllow', ...extraFlags], dir);
}

/**
 * Our server as users start it (`npm start`): HTTPS with the certificates it
 * makes in dataDir on first start (or finds there on a restart), the default
 * authorization.
 */
export function spawnOursAsUsersDo(dataDir: string, dir: string = root): Promise<BenchProcess> {
  return spawnListening([...serverCommand(dir), '--data-dir', dataDir, '--secure-port', '0'], dir);
}

/** The same on a fixed port (a user's is 6443), returned at once: the caller polls its /readyz from the spawn on. */
export function spawnOursOnPort(dataDir: string, port: number, dir: string = root): BenchProcess {
  return spawnOnPort([...serverCommand(dir), '--data-dir', dataDir, '--secure-port', String(port)], dir, `https://127.0.0.1:${port}`);
}

/** The bare Hono baseline (bare-hono.mjs, HTTPS with args `--tls KEY CERT`) on a fixed port, returned at once. */
export function spawnBareHonoOnPort(port: number, args: string[] = []): BenchProcess {
  const scheme = args[0] === '--tls' ? 'https' : 'http';
  return spawnOnPort([baseline('bare-hono.mjs'), ...args], root, `${scheme}://127.0.0.1:${port}`, { ...process.env, BARE_HONO_PORT: String(port) });
}

/** A TCP port nothing listens on now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** A baseline server script, run by plain node. */
export function spawnBaseline(name: string, args: string[] = []): Promise<BenchProcess> {
  return spawnListening([baseline(name), ...args], root);
}

/** The status of GET url/readyz on a fresh connection (a server's own certificate accepted); 0 when it could not connect. */
function readyz(url: string): Promise<number> {
  return new Promise((resolve) => {
    const get = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = get(`${url}/readyz`, { agent: false, rejectUnauthorized: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** Resolves once GET /readyz answers 200 (polled every 5 ms, over HTTP or HTTPS); the time it happened (performance.now()). With proc, rejects once that process has exited. */
export async function waitReady(url: string, proc?: ChildProcess): Promise<number> {
  while ((await readyz(url)) !== 200) {
    if (proc && (proc.exitCode !== null || proc.signalCode !== null)) throw new Error(`the server for ${url} exited (${proc.exitCode ?? proc.signalCode}) before it was ready`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return performance.now();
}
