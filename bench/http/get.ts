// GET of one object over 50 kept-alive connections (autocannon), JSON and
// protobuf, against a bare Hono process serving exactly the bytes our server
// returned for the same GET (fetched from it first, managedFields included)
// with the same headers (an Audit-Id made per answer on both sides).
// Both processes are plain node (bench/support/servers.ts); the details add
// each server's CPU time per request (/proc; steadier than the rate when
// other work shares the machine) and how busy the load generator
// (autocannon, in this process) was, to tell whether it is the bottleneck.
// Interleaved repetitions (ours, bare, ours, bare, ...), medians. With
// --before DIR, that checkout's server runs in the same rounds (ours,
// before, bare) and its figures go in the details.
// Usage: npx tsx bench/http/get.ts [--quick] [--before DIR]

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { cannon, getAs, headerShape, oneConnection, postJSON, rawGet } from '../support/http.ts';
import { cpuMs, rssMB } from '../support/proc.ts';
import type { BenchProcess } from '../support/process.ts';
import { spawnBaseline, spawnOurs } from '../support/servers.ts';
import { interleave, load1, median } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

const CONNECTIONS = 50;
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const PATH = '/api/v1/namespaces/default/configmaps/bench';

const OBJECT = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench', labels: { app: 'bench' } }, data: { key: 'value' } };

type Side = 'ours' | 'before' | 'bare';

async function run({ quick, scratch, log, before: beforeDir }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const duration = quick ? 2 : 5;
  const ours = await spawnOurs(join(scratch, 'data'));
  const before = beforeDir ? await spawnOurs(join(scratch, 'before'), [], beforeDir).catch(async (e) => (await ours.stop(), Promise.reject(e))) : undefined;
  try {
    const agent = oneConnection();
    for (const s of before ? [ours, before] : [ours]) {
      await postJSON(`${s.url}/api/v1/namespaces/default/configmaps`, OBJECT);
      await getAs(`${s.url}${PATH}`, agent, PROTOBUF);
    }
    const json = await getAs(`${ours.url}${PATH}`, agent, 'application/json');
    const pb = await getAs(`${ours.url}${PATH}`, agent, PROTOBUF);
    writeFileSync(join(scratch, 'object.json'), json.body);
    writeFileSync(join(scratch, 'object.pb'), pb.body);
    const bare = await spawnBaseline('bare-hono.mjs', [join(scratch, 'object.json'), join(scratch, 'object.pb')]);
    try {
      const same = [await rawGet(`${bare.url}${PATH}`, agent), await rawGet(`${bare.url}${PATH}`, agent, { accept: PROTOBUF })];
      if (!same[0].body.equals(json.body) || !same[1].body.equals(pb.body)) throw new Error('the bare server does not serve the same bytes');
      // the same headers too (names and value lengths; Audit-Id is a new UUID per answer on both sides)
      for (const [o, b] of [
        [json, same[0]],
        [pb, same[1]],
      ])
        if (headerShape(o) !== headerShape(b)) throw new Error(`the bare server does not send the same headers: ours ${headerShape(o)}; bare ${headerShape(b)}`);
      agent.destroy();
      log(`object: ${json.body.length} bytes JSON, ${pb.body.length} bytes protobuf`);
      // CPU per request of each server (from /proc) and the load generator's share of a core, per run
      const cpu: Record<string, { serverUs: number[]; clientCore: number[] }> = {};
      const sideOf = (server: BenchProcess): Side => (server === ours ? 'ours' : server === bare ? 'bare' : 'before');
      const get = (server: BenchProcess, accept?: string) => async () => {
        const key = `${sideOf(server)} ${accept ?? 'json'}`;
        cpu[key] ??= { serverUs: [], clientCore: [] };
        const serverBefore = cpuMs(server.proc.pid!);
        const clientBefore = process.cpuUsage();
        const t0 = performance.now();
        const r = await cannon({ url: `${server.url}${PATH}`, connections: CONNECTIONS, duration, headers: accept ? { accept } : {} });
        const client = process.cpuUsage(clientBefore);
        cpu[key].clientCore.push((client.user + client.system) / 1000 / (performance.now() - t0));
        cpu[key].serverUs.push(((cpuMs(server.proc.pid!) - serverBefore) * 1000) / r.requests.total);
        return r.requests.average;
      };
      // warm-up (JIT, connection pools) on both sides, not counted
      for (const url of [ours.url, bare.url, ...(before ? [before.url] : [])])
        for (const accept of [undefined, PROTOBUF]) await cannon({ url: `${url}${PATH}`, connections: CONNECTIONS, duration: 1, headers: accept ? { accept } : {} });
      const rows: Row[] = [];
      for (const [format, accept, bytes] of [
        ['JSON', undefined, json.body.length],
        ['protobuf', PROTOBUF, pb.body.length],
      ] as const) {
        // with --before, each round is ours, before, bare
        const p = await interleave(pairs, get(ours, accept), get(bare, accept), before ? [get(before, accept)] : []);
        const was = p.others[0] ?? [];
        const o = cpu[`ours ${accept ?? 'json'}`];
        const b = cpu[`bare ${accept ?? 'json'}`];
        let cpuText = `server CPU per request: ours ${median(o.serverUs).toFixed(0)} µs, bare ${median(b.serverUs).toFixed(0)} µs; load generator busy ${(median(o.clientCore) * 100).toFixed(0)}% / ${(median(b.clientCore) * 100).toFixed(0)}% of a core`;
        if (before) {
          const w = cpu[`before ${accept ?? 'json'}`];
          const ratios = was.map((x, i) => x / p.baseline[i]);
          cpuText += `; before (${beforeDir}): ${was.map((x) => x.toFixed(0)).join(', ')} req/s, median ratio to bare ${median(ratios).toFixed(2)}, ${median(w.serverUs).toFixed(0)} µs CPU per request`;
        }
        log(cpuText);
        log(`${format}: ours ${p.ours.map((x) => x.toFixed(0)).join(' ')}; bare ${p.baseline.map((x) => x.toFixed(0)).join(' ')} req/s`);
        rows.push({
          figure: `GET one object, ${format}, ${CONNECTIONS} conns`,
          unit: '/s',
          ours: median(p.ours),
          baseline: median(p.baseline),
          baselineIs: `bare Hono serving the same ${bytes} bytes`,
          aim: { of: 'ratio', op: '>=', value: 0.8 },
          load: load1(),
          detail: `medians of ${pairs} interleaved ${duration}s runs; ours ${p.ours.map((x) => x.toFixed(0)).join(', ')}; bare ${p.baseline.map((x) => x.toFixed(0)).join(', ')}; ${cpuText}`,
        });
      }
      const after = `RSS after load: ours ${rssMB(ours.proc.pid!).toFixed(0)} MB, bare ${rssMB(bare.proc.pid!).toFixed(0)} MB`;
      rows[rows.length - 1].detail += `; ${after}`;
      return rows;
    } finally {
      await bare.stop();
    }
  } finally {
    await ours.stop();
    await before?.stop();
  }
}

export const figure: Figure = { name: 'get', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
