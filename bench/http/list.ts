// LIST of 10,000 ConfigMaps of about 1 KB each (as the server serializes
// them), three ways: JSON in one response, JSON paged with limit=500 (all 20
// pages, following continue), and protobuf in one response; the baseline is
// JSON.stringify, in this process, of the same list object (the JSON list
// parsed once). Interleaved repetitions (ours, stringify, ...), medians.
// The figures are server-side time, taken in-process: the compiled package
// (dist/index.js) started in this process, each list sent through
// app.request() and its body read to the end: the request stages, the
// storage and the encoding, no socket. One more row times the JSON list over
// HTTP from a server process (`node dist/cli.js`): from sending the request
// to the response's last byte (read off the socket, never parsed) minus the
// median round trip of a tiny response (GET /version) on the same kept-alive
// connection; the paged and protobuf lists over HTTP go in the details.
// Usage: npx tsx bench/http/list.ts [--quick]

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

/** Server-side: the compiled package in this process, lists through app.request(). */
async function inProcess(reps: number, scratch: string, log: (line: string) => void): Promise<Row[]> {
  const { startServer } = await importLibrary();
  const s = await startServer({ dataDir: join(scratch, 'in-process'), authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
  try {
    const post = async (path: string, body: unknown) => {
      const r = await s.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${await r.text()}`);
    };
    await post('/api/v1/namespaces', NAMESPACE);
    for (let i = 0; i < COUNT; i++) await post(COLLECTION, configMapOf1KB(i));
    const m = await measures(async (query, accept) => {
      const t = performance.now();
      const r = await s.app.request(`${COLLECTION}${query}`, { headers: accept ? { accept } : {} });
      const body = Buffer.from(await r.arrayBuffer());
      const ms = performance.now() - t;
      if (r.status !== 200) throw new Error(`LIST${query}: ${r.status} ${body.toString().slice(0, 300)}`);
      if (accept && !r.headers.get('content-type')?.startsWith(accept)) throw new Error(`LIST${query} answered ${r.headers.get('content-type')}, not ${accept}`);
      return { body, ms };
    });
    const stringify = stringifyOf(m.parsed);
    log(`in-process list: ${(m.bytes / 1e6).toFixed(1)} MB JSON`);
    const rows: Row[] = [];
    for (const c of CASES) {
      const measure = c.pick(m);
      await measure(); // warm-up, not counted
      await stringify();
      const p = await interleave(reps, measure, stringify);
      log(`${c.figure}: ours ${p.ours.map((x) => x.toFixed(0)).join(' ')}; stringify ${p.baseline.map((x) => x.toFixed(0)).join(' ')} ms`);
      rows.push({
        figure: c.figure,
        unit: 'ms',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: `JSON.stringify of the same ${(m.bytes / 1e6).toFixed(1)} MB list in the same process`,
        aim: { of: 'ratio', op: '<=', value: c.aim },
        load: load1(),
        detail: `server-side, in-process (app.request of the compiled package, body read to the end); medians of ${reps} interleaved runs; ours ${p.ours.map((x) => x.toFixed(0)).join(', ')}; stringify ${p.baseline.map((x) => x.toFixed(0)).join(', ')}`,
      });
    }
    return rows;
  } finally {
    await s.stop();
  }
}

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const reps = quick ? 3 : 9;
  const rows = await inProcess(reps, scratch, log);
  rows.push(await overHTTP(reps, scratch, log));
  return rows;
}

/** Over a socket, from a server process: the JSON list as a row, the paged and protobuf ones in its details. */
async function overHTTP(reps: number, scratch: string, log: (line: string) => void): Promise<Row> {
  const ours = await spawnOurs(join(scratch, 'data'));
  try {
    await postJSON(`${ours.url}/api/v1/namespaces`, NAMESPACE);
    const collection = `${ours.url}${COLLECTION}`;
    await createMany(collection, COUNT, configMapOf1KB);
    const agent = oneConnection();
    const tinyRTT = async () => {
      const xs: number[] = [];
      for (let i = 0; i < 21; i++) xs.push((await rawGet(`${ours.url}/version`, agent)).ms);
      return median(xs);
    };
    await getAs(`${ours.url}/api/v1/namespaces/bench/configmaps/${configMapOf1KB(0).metadata.name}`, agent, PROTOBUF); // the protobuf code loaded
    // each response's time minus a tiny response's round trip taken just before the list
    const m = await measures(async (query, accept) => {
      const rtt = await tinyRTT();
      const r = await rawGet(`${collection}${query}`, agent, accept ? { accept } : {});
      if (r.status !== 200) throw new Error(`LIST${query}: ${r.status} ${r.body.toString().slice(0, 300)}`);
      if (accept && !r.contentType.startsWith(accept)) throw new Error(`LIST${query} answered ${r.contentType}, not ${accept}`);
      return { body: r.body, ms: r.ms - rtt };
    });
    const stringify = stringifyOf(m.parsed);
    const figures: { figure: string; ours: number[]; stringify: number[] }[] = [];
    for (const c of CASES) {
      const measure = c.pick(m);
      await measure(); // warm-up, not counted
      const p = await interleave(reps, measure, stringify);
      figures.push({ figure: c.figure, ours: p.ours, stringify: p.baseline });
    }
    agent.destroy();
    const [json, ...others] = figures;
    const line = (f: (typeof figures)[number]) =>
      `${f.figure}: ${median(f.ours).toFixed(0)} ms vs stringify ${median(f.stringify).toFixed(0)} ms (ratio ${(median(f.ours) / median(f.stringify)).toFixed(2)})`;
    for (const f of figures) log(`over HTTP, ${line(f)}`);
    return {
      figure: `${json.figure}, over HTTP`,
      unit: 'ms',
      ours: median(json.ours),
      baseline: median(json.stringify),
      baselineIs: `JSON.stringify of the same ${(m.bytes / 1e6).toFixed(1)} MB list in the bench process`,
      aim: { of: 'ratio', op: '<=', value: 1.2 },
      load: load1(),
      detail: `a server process; last byte minus a tiny response's round trip; medians of ${reps} interleaved runs; ours ${json.ours.map((x) => x.toFixed(0)).join(', ')}; also over HTTP: ${others.map(line).join('; ')}`,
    };
  } finally {
    await ours.stop();
  }
}

export const figure: Figure = { name: 'list', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
