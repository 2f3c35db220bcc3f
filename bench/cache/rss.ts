// bench/cache/rss: resident memory of the server process alone (node, no
// wrapper) holding many ConfigMaps of about 1.1 KB: idle, every 20,000
// objects while they are created over HTTP, then before and after one full
// LIST of all of them (and after a protobuf one), against the raw size of the objects (the bytes of
// their JSON as listed). Usage: npx tsx bench/cache/rss.ts [--objects N]

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnListening } from '../support/process.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const N = Number(argv[argv.indexOf('--objects') + 1]) || 100_000;
const STEP = 20_000;

function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const settle = () => new Promise((r) => setTimeout(r, 2000));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-rss-'));
  const server = await spawnListening(
    ['--import', 'tsx', join(root, 'runtime', 'cli.ts'), '--data-dir', dir, '--secure-port', '0', '--insecure-serve-http', '--authorization-mode', 'AlwaysAllow'],
    root,
  );
  const pid = server.proc.pid!;
  for (;;) {
    const r = await fetch(`${server.url}/readyz`).catch(() => null);
    if (r?.status === 200) break;
    await new Promise((res) => setTimeout(res, 20));
  }
  await settle();
  console.log(
    `load average: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log(`RSS idle: ${rssMB(pid).toFixed(0)} MB`);
  let next = 0;
  let made = 0;
  const create = async (limit: number) => {
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        for (;;) {
          const i = next++;
          if (i >= limit) return;
          const r = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { app: 'bench', n: String(i % 10) } }, data: { payload: 'x'.repeat(700) } }),
          });
          await r.arrayBuffer();
          if (r.status === 201) made++;
        }
      }),
    );
  };
  for (let n = STEP; n <= N; n += STEP) {
    await create(Math.min(n, N));
    console.log(`RSS with ${made} objects: ${rssMB(pid).toFixed(0)} MB`);
  }
  await settle();
  const before = rssMB(pid);
  const body = await (await fetch(`${server.url}/api/v1/configmaps`)).text();
  const items = (JSON.parse(body) as { items: unknown[] }).items;
  const raw = items.reduce<number>((sum, o) => sum + Buffer.byteLength(JSON.stringify(o)), 0) / 1024 / 1024;
  await settle();
  const after = rssMB(pid);
  console.log(`raw: ${items.length} objects, ${raw.toFixed(0)} MB of JSON`);
  console.log(`RSS before a full list: ${before.toFixed(0)} MB (${(before / raw).toFixed(2)}x raw); after: ${after.toFixed(0)} MB (${(after / raw).toFixed(2)}x raw, aim <= 2.5)`);
  await (await fetch(`${server.url}/api/v1/configmaps`, { headers: { accept: 'application/vnd.kubernetes.protobuf' } })).arrayBuffer();
  await settle();
  const afterProtobuf = rssMB(pid);
  console.log(`RSS after a full protobuf list too (its item bytes are kept): ${afterProtobuf.toFixed(0)} MB (${(afterProtobuf / raw).toFixed(2)}x raw)`);
  console.log(
    `load average: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
