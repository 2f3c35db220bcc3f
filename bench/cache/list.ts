// bench/cache/list: server-side LIST time of 10,000 ConfigMaps of about 1 KB
// (JSON, JSON paged by 500, protobuf), each against JSON.stringify of the same
// objects in the same process, interleaved (A B A B ...) and reported as the
// median of the per-pair ratios. In-process through app.request(), so the
// figure is the server's work (request stages, storage, encoding), no socket.
// Usage: npx tsx bench/cache/list.ts [--pairs N] ; or --profile FILE [--paged |
// --protobuf] to write a CPU profile of 30 lists (open it in Chrome's DevTools).

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { loadavg } from 'node:os';
import { startServer } from '../../runtime/index.ts';

const argv = process.argv.slice(2);
const pairs = Number(argv[argv.indexOf('--pairs') + 1]) || 15;
const profile = argv.includes('--profile');
const N = 10_000;
const NS = 'bench';
const LIST = `/api/v1/namespaces/${NS}/configmaps`;
const PROTO = 'application/vnd.kubernetes.protobuf';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  const s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  const req = (path: string, init?: RequestInit) => s.app.request(path, init);
  await req('/api/v1/namespaces', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }) });
  for (let i = 0; i < N; i++) {
    const r = await req(LIST, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { app: 'bench', n: String(i % 10) } }, data: { payload: 'x'.repeat(700) } }),
    });
    if (r.status !== 201) throw new Error(`create ${i}: ${r.status} ${await r.text()}`);
  }
  const full = await (await req(LIST)).text();
  const parsed = JSON.parse(full) as { items: unknown[] };
  // the namespace also holds the published root CA ConfigMap
  if (parsed.items.length < N) throw new Error(`listed ${parsed.items.length}`);
  const total = parsed.items.length;
  console.log(`one item: ${JSON.stringify(parsed.items[0]).length} bytes; list body ${full.length} bytes`);

  const json = async () => {
    const r = await req(LIST);
    await r.arrayBuffer();
  };
  const paged = async () => {
    let cont = '';
    let pages = 0;
    for (;;) {
      const r = await req(`${LIST}?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
      // the token is in the list's metadata at the head of the body: no parse of the items on the client's side
      const head = new TextDecoder().decode(new Uint8Array(await r.arrayBuffer(), 0, 1024));
      pages++;
      const m = /"continue":"([^"]+)"/.exec(head);
      if (!m) break;
      cont = m[1];
    }
    if (pages !== Math.ceil(total / 500)) throw new Error(`paged list: ${pages} pages`);
  };
  const proto = async () => {
    const r = await req(LIST, { headers: { accept: PROTO } });
    if (!r.headers.get('content-type')?.startsWith(PROTO)) throw new Error('no protobuf');
    await r.arrayBuffer();
  };
  const stringify = async () => {
    JSON.stringify(parsed);
  };
  const time = async (f: () => Promise<void>) => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };

  if (profile) {
    // only the lists are profiled, not the creates before them
    const session = new Session();
    session.connect();
    const post = (method: string, params?: object) => new Promise<unknown>((res, rej) => session.post(method, params, (err, out) => (err ? rej(err) : res(out))));
    await post('Profiler.enable');
    await post('Profiler.start');
    for (let i = 0; i < 30; i++) await (argv.includes('--paged') ? paged() : argv.includes('--protobuf') ? proto() : json());
    const { profile: prof } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(argv[argv.indexOf('--profile') + 1] ?? 'list.cpuprofile', JSON.stringify(prof));
    await s.stop();
    return;
  }
  const cases: [string, () => Promise<void>, number][] = [
    ['LIST 10,000 JSON', json, 1.2],
    ['LIST 10,000 JSON paged by 500 (20 pages)', paged, 1.5],
    ['LIST 10,000 protobuf', proto, 1.2],
  ];
  console.log(
    `load average before: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  for (const [name, f, aim] of cases) {
    await f();
    await stringify();
    const ratios: number[] = [];
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const ta = await time(f);
      const tb = await time(stringify);
      a.push(ta);
      b.push(tb);
      ratios.push(ta / tb);
    }
    console.log(`${name.padEnd(44)} ${median(a).toFixed(1)} ms vs JSON.stringify ${median(b).toFixed(1)} ms: ratio ${median(ratios).toFixed(2)} (aim <= ${aim})`);
  }
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  await s.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
