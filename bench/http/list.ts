// LIST of 10,000 ConfigMaps of about 1 KB each (as the server serializes
// them), three ways: JSON in one response, JSON paged with limit=500 (all 20
// pages, following continue), and protobuf in one response; the baseline is
// JSON.stringify, in this process, of the same list object (the JSON list
// parsed once). Interleaved repetitions (ours, [before,] stringify, ...),
// medians. Both layers time the server's work the same way: from the request
// to the body's last byte as the server hands it out, never copying or
// parsing it on the clock. In-process (the rows): the compiled package
// (dist/index.js) started in this process, each list sent through
// app.request() and its body stream read chunk by chunk to the end (the
// request stages, the storage and the encoding, no socket). Over HTTP (one
// more row): a server process (`node dist/cli.js`), from sending the request
// to the response's last byte read off the socket, minus the median round
// trip of a tiny response (GET /version) on the same kept-alive connection;
// the paged and protobuf lists over HTTP go in its details. With --before
// DIR, that checkout's package and server run in the same rounds, and their
// figures go in the details.
// Usage: npx tsx bench/http/list.ts [--quick] [--before DIR]

import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { createMany, getAs, oneConnection, postJSON, rawGet } from '../support/http.ts';
import { configMapOf1KB } from '../support/objects.ts';
import { importLibrary, spawnOurs } from '../support/servers.ts';
import { interleave, load1, median } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

const COUNT = 10_000;
const PAGE = 500;
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } };
const COLLECTION = '/api/v1/namespaces/bench/configmaps';

/** A list's body and the time to its last byte, ms. */
interface Listed {
  body: Buffer;
  ms: number;
}

interface Measures {
  /** The JSON list, parsed once (the baseline's input). */
  parsed: { items: unknown[] };
  bytes: number;
  whole(accept?: string): () => Promise<number>;
  paged(): Promise<number>;
}

/** The three lists and their checks, given how to list (query, accept) → body and ms. */
async function measures(list: (query: string, accept?: string) => Promise<Listed>): Promise<Measures> {
  const first = await list('');
  const parsed = JSON.parse(first.body.toString()) as { items: unknown[] };
  if (parsed.items.length !== COUNT) throw new Error(`LIST returned ${parsed.items.length} items, not ${COUNT}`);
  const paged = async () => {
    let total = 0;
    let items = 0;
    let token = '';
    for (;;) {
      const r = await list(`?limit=${PAGE}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      total += r.ms;
      const page = JSON.parse(r.body.toString()) as { items: unknown[]; metadata: { continue?: string } };
      items += page.items.length;
      token = page.metadata.continue ?? '';
      if (!token) break;
    }
    if (items !== COUNT) throw new Error(`paged LIST returned ${items} items, not ${COUNT}`);
    return total;
  };
  return { parsed, bytes: first.body.length, whole: (accept) => async () => (await list('', accept)).ms, paged };
}

const stringifyOf = (parsed: unknown) => async () => {
  const t = performance.now();
  JSON.stringify(parsed);
  return performance.now() - t;
};

const CASES = [
  { figure: `LIST ${COUNT.toLocaleString('en')} × ~1 KB, JSON`, aim: 1.2, pick: (m: Measures) => m.whole() },
  { figure: `LIST paged limit=${PAGE}, all ${COUNT / PAGE} pages`, aim: 1.5, pick: (m: Measures) => m.paged },
  { figure: `LIST ${COUNT.toLocaleString('en')}, protobuf`, aim: 1.2, pick: (m: Measures) => m.whole(PROTOBUF) },
];

/** One side in this process: a started package filled with the objects, and how to list it. */
interface InProcessSide {
  list(query: string, accept?: string): Promise<Listed>;
  stop(): Promise<void>;
}

/** The compiled package of dir started in this process (its data under dataDir), filled with COUNT objects. */
async function inProcessSide(dir: string | undefined, dataDir: string): Promise<InProcessSide> {
  const { startServer } = await importLibrary(dir);
  const s = await startServer({ dataDir, authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
  const post = async (path: string, body: unknown) => {
    const r = await s.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${await r.text()}`);
  };
  await post('/api/v1/namespaces', NAMESPACE);
  for (let i = 0; i < COUNT; i++) await post(COLLECTION, configMapOf1KB(i));
  return {
    async list(query, accept) {
      const t = performance.now();
      const r = await s.app.request(`${COLLECTION}${query}`, { headers: accept ? { accept } : {} });
      // the body as the server hands it out, chunk by chunk; joined only after the clock stops
      const chunks: Uint8Array[] = [];
      if (r.body) for await (const c of r.body as unknown as AsyncIterable<Uint8Array>) chunks.push(c);
      const ms = performance.now() - t;
      const body = Buffer.concat(chunks);
      if (r.status !== 200) throw new Error(`LIST${query}: ${r.status} ${body.toString().slice(0, 300)}`);
      if (accept && !r.headers.get('content-type')?.startsWith(accept)) throw new Error(`LIST${query} answered ${r.headers.get('content-type')}, not ${accept}`);
      return { body, ms };
    },
    stop: () => s.stop(),
  };
}

/** " before (DIR): ms..., median ratio to stringify r" for a detail, or ''. */
function beforeText(beforeDir: string | undefined, was: number[] | undefined, stringify: number[]): string {
  if (!beforeDir || !was?.length) return '';
  const ratios = was.map((x, i) => x / stringify[i]);
  return `; before (${beforeDir}): ${was.map((x) => x.toFixed(0)).join(', ')} ms, median ratio to stringify ${median(ratios).toFixed(2)}`;
}

/** Server-side: the compiled package in this process, lists through app.request(). */
async function inProcess(reps: number, scratch: string, log: (line: string) => void, beforeDir?: string): Promise<Row[]> {
  const ours = await inProcessSide(undefined, join(scratch, 'in-process'));
  const before = beforeDir ? await inProcessSide(beforeDir, join(scratch, 'in-process-before')).catch(async (e) => (await ours.stop(), Promise.reject(e))) : undefined;
  try {
    const m = await measures((q, a) => ours.list(q, a));
    const mb = before ? await measures((q, a) => before.list(q, a)) : undefined;
    const stringify = stringifyOf(m.parsed);
    log(`in-process list: ${(m.bytes / 1e6).toFixed(1)} MB JSON`);
    const rows: Row[] = [];
    for (const c of CASES) {
      const measure = c.pick(m);
      const others = mb ? [c.pick(mb)] : [];
      for (const f of [measure, ...others, stringify]) await f(); // warm-up, not counted
      const p = await interleave(reps, measure, stringify, others);
      const was = beforeText(beforeDir, p.others[0], p.baseline);
      log(`${c.figure}: ours ${p.ours.map((x) => x.toFixed(0)).join(' ')}; stringify ${p.baseline.map((x) => x.toFixed(0)).join(' ')} ms${was}`);
      rows.push({
        figure: c.figure,
        unit: 'ms',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: `JSON.stringify of the same ${(m.bytes / 1e6).toFixed(1)} MB list in the same process`,
        aim: { of: 'ratio', op: '<=', value: c.aim },
        load: load1(),
        detail: `server-side, in-process: app.request of the compiled package, from the request to the body stream's last chunk (not copied or parsed on the clock); medians of ${reps} interleaved runs; ours ${p.ours.map((x) => x.toFixed(0)).join(', ')}; stringify ${p.baseline.map((x) => x.toFixed(0)).join(', ')}${was}`,
      });
    }
    return rows;
  } finally {
    await ours.stop();
    await before?.stop();
  }
}

async function run({ quick, scratch, log, before }: FigureOptions): Promise<Row[]> {
  const reps = quick ? 3 : 9;
  const rows = await inProcess(reps, scratch, log, before);
  rows.push(await overHTTP(reps, scratch, log, before));
  return rows;
}

/** A server process of dir (default: this checkout) filled with the objects, and how to list it over one kept-alive connection. */
async function httpSide(dataDir: string, dir?: string) {
  const server = await spawnOurs(dataDir, [], dir);
  await postJSON(`${server.url}/api/v1/namespaces`, NAMESPACE);
  const collection = `${server.url}${COLLECTION}`;
  await createMany(collection, COUNT, configMapOf1KB);
  const agent = oneConnection();
  const tinyRTT = async () => {
    const xs: number[] = [];
    for (let i = 0; i < 21; i++) xs.push((await rawGet(`${server.url}/version`, agent)).ms);
    return median(xs);
  };
  await getAs(`${server.url}${COLLECTION}/${configMapOf1KB(0).metadata.name}`, agent, PROTOBUF); // the protobuf code loaded
  // each response's time minus a tiny response's round trip taken just before the list
  const list = async (query: string, accept?: string): Promise<Listed> => {
    const rtt = await tinyRTT();
    const r = await rawGet(`${collection}${query}`, agent, accept ? { accept } : {});
    if (r.status !== 200) throw new Error(`LIST${query}: ${r.status} ${r.body.toString().slice(0, 300)}`);
    if (accept && !r.contentType.startsWith(accept)) throw new Error(`LIST${query} answered ${r.contentType}, not ${accept}`);
    return { body: r.body, ms: r.ms - rtt };
  };
  return {
    list,
    stop: async () => {
      agent.destroy();
      await server.stop();
    },
  };
}

/** Over a socket, from a server process: the JSON list as a row, the paged and protobuf ones in its details. */
async function overHTTP(reps: number, scratch: string, log: (line: string) => void, beforeDir?: string): Promise<Row> {
  const ours = await httpSide(join(scratch, 'data'));
  const before = beforeDir ? await httpSide(join(scratch, 'data-before'), beforeDir).catch(async (e) => (await ours.stop(), Promise.reject(e))) : undefined;
  try {
    const m = await measures(ours.list);
    const mb = before ? await measures(before.list) : undefined;
    const stringify = stringifyOf(m.parsed);
    const figures: { figure: string; ours: number[]; stringify: number[]; before?: number[] }[] = [];
    for (const c of CASES) {
      const measure = c.pick(m);
      const others = mb ? [c.pick(mb)] : [];
      for (const f of [measure, ...others]) await f(); // warm-up, not counted
      const p = await interleave(reps, measure, stringify, others);
      figures.push({ figure: c.figure, ours: p.ours, stringify: p.baseline, before: p.others[0] });
    }
    const [json, ...others] = figures;
    const line = (f: (typeof figures)[number]) =>
      `${f.figure}: ${median(f.ours).toFixed(0)} ms vs stringify ${median(f.stringify).toFixed(0)} ms (ratio ${(median(f.ours) / median(f.stringify)).toFixed(2)})${beforeText(beforeDir, f.before, f.stringify)}`;
    for (const f of figures) log(`over HTTP, ${line(f)}`);
    return {
      figure: `${json.figure}, over HTTP`,
      unit: 'ms',
      ours: median(json.ours),
      baseline: median(json.stringify),
      baselineIs: `JSON.stringify of the same ${(m.bytes / 1e6).toFixed(1)} MB list in the bench process`,
      aim: { of: 'ratio', op: '<=', value: 1.2 },
      load: load1(),
      detail: `over HTTP from a server process: last byte read off the socket minus a tiny response's round trip; medians of ${reps} interleaved runs; ours ${json.ours.map((x) => x.toFixed(0)).join(', ')}${beforeText(beforeDir, json.before, json.stringify)}; also over HTTP: ${others.map(line).join('; ')}`,
    };
  } finally {
    await ours.stop();
    await before?.stop();
  }
}

export const figure: Figure = { name: 'list', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
