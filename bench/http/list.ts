// LIST of 10,000 ConfigMaps of about 1 KB each (as the server serializes
// them), three ways: JSON in one response, JSON paged with limit=500 (all 20
// pages, following continue), and protobuf in one response. The figure is
// server-side time, taken from the client because the server does not report
// its own: the time from sending the request to the response's last byte
// (read off the socket, never parsed) minus the median round trip of a tiny
// response (GET /version) on the same kept-alive connection; for the paged
// list, the sum over its pages, each minus that round trip. The baseline is
// JSON.stringify, in this process, of the same list object (the JSON list
// parsed once). Interleaved repetitions (list, stringify, list, ...), medians.
// Usage: npx tsx bench/http/list.ts [--quick]

import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { createMany, oneConnection, postJSON, rawGet } from '../support/http.ts';
import { configMapOf1KB } from '../support/objects.ts';
import { spawnOurs } from '../support/servers.ts';
import { interleave, load1, median } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

const COUNT = 10_000;
const PAGE = 500;
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const reps = quick ? 3 : 9;
  const ours = await spawnOurs(join(scratch, 'data'));
  try {
    await postJSON(`${ours.url}/api/v1/namespaces`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
    const collection = `${ours.url}/api/v1/namespaces/bench/configmaps`;
    await createMany(collection, COUNT, configMapOf1KB);
    const agent = oneConnection();
    const tinyRTT = async () => {
      const xs: number[] = [];
      for (let i = 0; i < 21; i++) xs.push((await rawGet(`${ours.url}/version`, agent)).ms);
      return median(xs);
    };
    const list = async (query: string, accept?: string) => {
      const r = await rawGet(`${collection}${query}`, agent, accept ? { accept } : {});
      if (r.status !== 200) throw new Error(`LIST${query}: ${r.status} ${r.body.toString().slice(0, 300)}`);
      return r;
    };
    const first = await list('');
    const parsed = JSON.parse(first.body.toString()) as { items: unknown[] };
    if (parsed.items.length !== COUNT) throw new Error(`LIST returned ${parsed.items.length} items, not ${COUNT}`);
    const itemBytes = Buffer.byteLength(JSON.stringify(parsed.items[0]));
    log(`list: ${(first.body.length / 1e6).toFixed(1)} MB JSON, an item ${itemBytes} bytes`);
    const stringify = async () => {
      const t = performance.now();
      JSON.stringify(parsed);
      return performance.now() - t;
    };
    const whole = (accept?: string) => async () => {
      const rtt = await tinyRTT();
      return (await list('', accept)).ms - rtt;
    };
    const paged = async () => {
      const rtt = await tinyRTT();
      let total = 0;
      let items = 0;
      let token = '';
      for (;;) {
        const r = await list(`?limit=${PAGE}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
        total += r.ms - rtt;
        const page = JSON.parse(r.body.toString()) as { items: unknown[]; metadata: { continue?: string } };
        items += page.items.length;
        token = page.metadata.continue ?? '';
        if (!token) break;
      }
      if (items !== COUNT) throw new Error(`paged LIST returned ${items} items, not ${COUNT}`);
      return total;
    };
    // warm-up, not counted
    await whole()();
    await whole(PROTOBUF)();
    await paged();
    await stringify();
    const rows: Row[] = [];
    for (const [figure, measure] of [
      [`LIST ${COUNT.toLocaleString('en')} × ~1 KB, JSON`, whole()],
      [`LIST paged limit=${PAGE}, all ${COUNT / PAGE} pages`, paged],
      [`LIST ${COUNT.toLocaleString('en')}, protobuf`, whole(PROTOBUF)],
    ] as const) {
      const p = await interleave(reps, measure, stringify);
      log(`${figure}: ours ${p.ours.map((x) => x.toFixed(0)).join(' ')}; stringify ${p.baseline.map((x) => x.toFixed(0)).join(' ')} ms`);
      rows.push({
        figure,
        unit: 'ms',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: `JSON.stringify of the same ${(first.body.length / 1e6).toFixed(1)} MB list in the bench process`,
        aim: { of: 'ratio', op: '<=', value: figure.includes('paged') ? 1.5 : 1.2 },
        load: load1(),
        detail: `server-side time (last byte minus a tiny response's round trip); medians of ${reps} interleaved runs; ours ${p.ours.map((x) => x.toFixed(0)).join(', ')}; stringify ${p.baseline.map((x) => x.toFixed(0)).join(', ')}`,
      });
    }
    agent.destroy();
    return rows;
  } finally {
    await ours.stop();
  }
}

export const figure: Figure = { name: 'list', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
