// Creates while 1,000 HTTP watches are open, against creates with none, on
// the same server in the same run: one client connection creating
// ConfigMaps one after another (each create its own commit, as in the
// issue's figure), into the namespace the 1,000 watches (one client process,
// client.mjs, reading the bytes and counting the events) are watching; after
// each timed run every watch must have counted every create's event. Interleaved
// repetitions: watches opened, creates for a fixed time, watches closed;
// then the same creates without watches; medians. The details also give the
// server's CPU time per create with and without the watches (until every
// watch has its events) and the watch client's per event: figures a busy
// machine distorts less than rates, where waiting for fsync dominates. With
// --before DIR, that checkout's server runs the same pair in each round, its
// figures in the details.
// Usage: npx tsx bench/http/watch/creates.ts [--quick] [--before DIR]

import { runAlone, runsAlone, type Figure, type FigureOptions } from '../../support/figure.ts';
import { cannon } from '../../support/http.ts';
import type { BenchProcess } from '../../support/process.ts';
import { cpuMs } from '../../support/proc.ts';
import { interleave, load1, median } from '../../support/stats.ts';
import type { Row } from '../../support/summary.ts';
import { WatchClient } from './client.ts';
import { COLLECTION, currentVersion, spawnWatched, WATCHERS } from './servers.ts';

const CONNECTIONS = 1;

async function run({ quick, scratch, log, before: beforeDir }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const duration = quick ? 2 : 5;
  const servers: BenchProcess[] = [];
  const client = new WatchClient();
  try {
    const { ours, before } = await spawnWatched(scratch, beforeDir, servers);
    let n = 0;
    /** CPU time per create in µs, per server and with or without watches; the client's per event. */
    const cpu = new Map<BenchProcess, { with: number[]; none: number[] }>(servers.map((s) => [s, { with: [], none: [] }]));
    const clientCpu = new Map<BenchProcess, number[]>(servers.map((s) => [s, []]));
    /** Creates for `duration` seconds: the rate, and how many were answered. */
    const timedCreates = async (server: BenchProcess) => {
      const r = await cannon({
        url: `${server.url}${COLLECTION}`,
        connections: CONNECTIONS,
        duration,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req: Record<string, unknown>) => ({
              ...req,
              body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c-${n++}` }, data: { payload: 'x'.repeat(200) } }),
            }),
          },
        ],
      });
      return { rate: r.requests.average, total: r.requests.total };
    };
    const creates = (server: BenchProcess) => async () => {
      const cpu0 = cpuMs(server.proc.pid!);
      const { rate, total } = await timedCreates(server);
      cpu.get(server)?.none.push(((cpuMs(server.proc.pid!) - cpu0) * 1000) / total);
      return rate;
    };
    const withWatches = (server: BenchProcess) => async () => {
      const collection = `${server.url}${COLLECTION}`;
      await client.open(`${collection}?watch=1&resourceVersion=${await currentVersion(collection)}`, WATCHERS, false);
      try {
        const [cpu0, client0] = [cpuMs(server.proc.pid!), cpuMs(client.pid)];
        const { rate, total } = await timedCreates(server);
        // every watch must have had every create's event (counted after the timed part)
        const fewest = await client.drained(total);
        if (fewest < total) throw new Error(`a watch of ${server.url} counted ${fewest} of the ${total} events (the server had ended ${client.endedByServer} of the ${WATCHERS} watches)`);
        cpu.get(server)?.with.push(((cpuMs(server.proc.pid!) - cpu0) * 1000) / total);
        clientCpu.get(server)?.push(((cpuMs(client.pid) - client0) * 1000) / total);
        return rate;
      } finally {
        await client.close();
      }
    };
    for (const s of servers) await creates(s)(); // warm-up
    for (const c of cpu.values()) c.none = [];
    // with --before, each round is ours with watches, before with watches, before with none, ours with none
    const p = await interleave(pairs, withWatches(ours), creates(ours), before ? [withWatches(before), creates(before)] : []);
    const [watched = [], none = []] = p.others;
    log(`with ${WATCHERS} watches ${p.ours.map((x) => x.toFixed(0)).join(' ')}; with none ${p.baseline.map((x) => x.toFixed(0)).join(' ')} /s`);
    /** Medians of the CPU figures of a server. */
    const cpuText = (s: BenchProcess) => {
      const c = cpu.get(s)!;
      return `server CPU per create with ${median(c.with).toFixed(0)} µs, none ${median(c.none).toFixed(0)} µs; client CPU per event ${median(clientCpu.get(s)!).toFixed(0)} µs`;
    };
    const beforeText = before
      ? `; before (${beforeDir}): with ${watched.map((x) => x.toFixed(0)).join(', ')}; none ${none.map((x) => x.toFixed(0)).join(', ')}; median ratio ${median(watched.map((x, i) => x / none[i])).toFixed(2)}; ${cpuText(before)}`
      : '';
    return [
      {
        figure: `creates while ${WATCHERS.toLocaleString('en')} watches open`,
        unit: '/s',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: 'creates with no watch open, same server, same client',
        aim: { of: 'ratio', op: '>=', value: 0.8 },
        load: load1(),
        detail: `${CONNECTIONS} connection; medians of ${pairs} interleaved ${duration}s runs; with ${p.ours.map((x) => x.toFixed(0)).join(', ')}; none ${p.baseline.map((x) => x.toFixed(0)).join(', ')}; ${cpuText(ours)}${beforeText}`,
      },
    ];
  } finally {
    client.stop();
    await Promise.all(servers.map((s) => s.stop()));
  }
}

export const figure: Figure = { name: 'watch-creates', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
