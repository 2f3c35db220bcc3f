// Write → watchers over HTTP: 1,000 watches of one namespace's ConfigMaps
// held open by one client process (client.mjs), then creates one at a time;
// for each create, the time from sending the POST to the event's arrival on
// the last of the 1,000 streams (p99) and on the first (p50). The baseline is
// a bare node process (bench/baselines/bare-fanout.mjs) that, for each POST,
// appends the body to a file, fsyncs it and writes the event line to 1,000
// open responses, watched by the same client; its POST bodies are our own
// stored object with the name changed, so the events are the same size.
// Interleaved repetitions (ours, bare, ours, bare, ...), medians of the
// per-repetition percentiles. With --before DIR, that checkout's server runs
// in the same rounds (ours, before, bare), its figures in the details.
// Usage: npx tsx bench/http/watch/fanout.ts [--quick] [--before DIR]

import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../../support/figure.ts';
import { oneConnection, postJSON, rawGet } from '../../support/http.ts';
import type { BenchProcess } from '../../support/process.ts';
import { spawnBaseline } from '../../support/servers.ts';
import { interleave, load1, median, percentile } from '../../support/stats.ts';
import type { Row } from '../../support/summary.ts';
import { hrNow, WatchClient } from './client.ts';
import { COLLECTION, currentVersion, spawnWatched, WATCHERS } from './servers.ts';

type Side = 'ours' | 'before' | 'bare';

const make = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { payload: 'x'.repeat(200) } });

async function run({ quick, scratch, log, before: beforeDir }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const writes = quick ? 50 : 200;
  const servers: BenchProcess[] = [];
  const client = new WatchClient();
  try {
    const { ours, before } = await spawnWatched(scratch, beforeDir, servers);
    const bare = await spawnBaseline('bare-fanout.mjs', [join(scratch, 'bare.log')]);
    servers.push(bare);
    for (const s of before ? [ours, before] : [ours]) await postJSON(`${s.url}${COLLECTION}`, make('template'));
    const agent = oneConnection();
    const template = (await rawGet(`${ours.url}${COLLECTION}/template`, agent)).body.toString();
    agent.destroy();
    let rep = 0;
    const firsts: Record<Side, number[]> = { ours: [], before: [], bare: [] };
    /** One repetition: open the watches, `writes` creates one after another, close; p99 to the last watcher (p50 to the first in firsts). */
    const repetition = (side: Side) => async () => {
      rep++;
      let url = `${bare.url}/watch`;
      const collection = `${(side === 'before' && before ? before : ours).url}${COLLECTION}`;
      if (side !== 'bare') url = `${collection}?watch=1&resourceVersion=${await currentVersion(collection)}`;
      await client.open(url, WATCHERS, true);
      const last: number[] = [];
      const first: number[] = [];
      for (let i = 0; i < writes; i++) {
        const name = `w-${rep}-${i}`;
        const t0 = hrNow();
        const write = side !== 'bare' ? postJSON(collection, make(name)) : postJSON(`${bare.url}/write`, JSON.parse(template.replace('"name":"template"', `"name":"${name}"`)));
        const [, a] = await Promise.all([write, client.arrival(name)]);
        last.push(a.last - t0);
        first.push(a.first - t0);
      }
      await client.close();
      firsts[side].push(percentile(first, 50));
      return percentile(last, 99);
    };
    await repetition('ours')(); // warm-up
    if (before) await repetition('before')();
    await repetition('bare')();
    firsts.ours = [];
    firsts.before = [];
    firsts.bare = [];
    // with --before, each round is ours, before, bare
    const p = await interleave(pairs, repetition('ours'), repetition('bare'), before ? [repetition('before')] : []);
    const lasts = p.others[0] ?? [];
    const { ours: oursFirst, bare: bareFirst } = firsts;
    const was = before
      ? `; before (${beforeDir}): last p99 ${lasts.map((x) => x.toFixed(1)).join(', ')} ms (median ${median(lasts).toFixed(1)}), first p50 ${firsts.before.map((x) => x.toFixed(1)).join(', ')} ms (median ${median(firsts.before).toFixed(1)})`
      : '';
    log(`last p99: ours ${p.ours.map((x) => x.toFixed(1)).join(' ')}; bare ${p.baseline.map((x) => x.toFixed(1)).join(' ')} ms`);
    log(`first p50: ours ${oursFirst.map((x) => x.toFixed(1)).join(' ')}; bare ${bareFirst.map((x) => x.toFixed(1)).join(' ')} ms`);
    const load = load1();
    const each = `medians of ${pairs} interleaved repetitions of ${writes} creates`;
    return [
      {
        figure: `write → last of ${WATCHERS.toLocaleString('en')} watches, p99`,
        unit: 'ms',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: `bare node: fsync, then the event to ${WATCHERS} sockets, same client`,
        aim: { of: 'ratio', op: '<=', value: 1.1 },
        load,
        detail: `${each}; ours ${p.ours.map((x) => x.toFixed(1)).join(', ')}; bare ${p.baseline.map((x) => x.toFixed(1)).join(', ')}${was}`,
      },
      {
        figure: `write → first of ${WATCHERS.toLocaleString('en')} watches, p50`,
        unit: 'ms',
        ours: median(oursFirst),
        baseline: median(bareFirst),
        baselineIs: 'the same bare node process',
        aim: { of: 'ours', op: '<=', value: 5 },
        load,
        detail: `${each}; ours ${oursFirst.map((x) => x.toFixed(1)).join(', ')}; bare ${bareFirst.map((x) => x.toFixed(1)).join(', ')}`,
      },
    ];
  } finally {
    client.stop();
    await Promise.all(servers.map((s) => s.stop()));
  }
}

export const figure: Figure = { name: 'fanout', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
