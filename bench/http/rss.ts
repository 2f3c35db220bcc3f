// Memory with many objects: the RSS of our server process (VmRSS of the node
// process itself) holding 100,000 ConfigMaps of about 1.1 KB (20,000 with
// --quick), 2 s after the last create, and again right after one full LIST
// of them; against the raw data: the bytes of that LIST's JSON body. One
// measurement (memory is not a rate: the repetitions of the other figures
// are not needed to compare it with the same run's data size).
// Usage: npx tsx bench/http/rss.ts [--quick]

import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { createMany, oneConnection, postJSON, rawGet } from '../support/http.ts';
import { configMapOf1KB } from '../support/objects.ts';
import { rssMB } from '../support/proc.ts';
import { spawnOurs } from '../support/servers.ts';
import { load1, sleep } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const count = quick ? 20_000 : 100_000;
  const ours = await spawnOurs(join(scratch, 'data'));
  try {
    await postJSON(`${ours.url}/api/v1/namespaces`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bulk' } });
    const collection = `${ours.url}/api/v1/namespaces/bulk/configmaps`;
    const idle = rssMB(ours.proc.pid!);
    const t = performance.now();
    await createMany(collection, count, configMapOf1KB, 64);
    log(`${count} creates in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    await sleep(2000);
    const held = rssMB(ours.proc.pid!);
    const agent = oneConnection();
    const list = await rawGet(collection, agent);
    agent.destroy();
    if (list.status !== 200) throw new Error(`LIST: ${list.status}`);
    const afterList = rssMB(ours.proc.pid!);
    const raw = list.body.length / 2 ** 20;
    log(`RSS idle ${idle.toFixed(0)} MB, with the objects ${held.toFixed(0)} MB, after a full list ${afterList.toFixed(0)} MB; data ${raw.toFixed(0)} MB`);
    const n = count.toLocaleString('en');
    const load = load1();
    const base = { unit: 'MB', baseline: raw, baselineIs: `the data: the full LIST's JSON body (${raw.toFixed(0)} MB)`, aim: { of: 'ratio', op: '<=', value: 2.5 } as const, load };
    return [
      { ...base, figure: `RSS with ${n} × 1.1 KB objects`, ours: held, detail: `RSS idle before the creates ${idle.toFixed(0)} MB` },
      { ...base, figure: `RSS with ${n} objects, after one full LIST`, ours: afterList },
    ];
  } finally {
    await ours.stop();
  }
}

export const figure: Figure = { name: 'rss', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
