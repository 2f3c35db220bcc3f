// Memory with many objects: the RSS of our server process (VmRSS of the node
// process itself) holding 100,000 ConfigMaps of about 1.1 KB (20,000 with
// --quick), 2 s after the last create, and again 2 s after one full LIST
// of them; against the raw data: the bytes of that LIST's JSON body. The
// details add the RSS on the way (every fifth of the creates) and after a
// protobuf LIST as well. One measurement (memory is not a rate: the
// repetitions of the other figures are not needed to compare it with the
// same run's data size). With --before DIR, that checkout's server is
// measured the same way after ours (one server at a time), its figures in
// the details.
// Usage: npx tsx bench/http/rss.ts [--quick] [--before DIR]

import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { createMany, getAs, oneConnection, postJSON, rawGet } from '../support/http.ts';
import { configMapOf1KB } from '../support/objects.ts';
import { rssMB } from '../support/proc.ts';
import { spawnOurs } from '../support/servers.ts';
import { load1, sleep } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
/** How long the RSS is left to settle (GC, freed buffers) before it is read. */
const SETTLE_MS = 2000;

/** What one server's memory came to, in MB. */
interface Memory {
  idle: number;
  steps: string[];
  held: number;
  afterList: number;
  afterProtobuf: number;
  /** The full LIST's JSON body. */
  raw: number;
  protobufMB: number;
}

/** Starts the server of dir (default: this checkout), fills it and reads its RSS along the way. */
async function measure(count: number, dataDir: string, log: (line: string) => void, dir?: string): Promise<Memory> {
  const ours = await spawnOurs(dataDir, [], dir);
  try {
    await postJSON(`${ours.url}/api/v1/namespaces`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bulk' } });
    const collection = `${ours.url}/api/v1/namespaces/bulk/configmaps`;
    const pid = ours.proc.pid!;
    const idle = rssMB(pid);
    const t = performance.now();
    // the RSS on the way, every fifth of the objects
    const steps: string[] = [];
    const step = count / 5;
    for (let made = 0; made < count; made += step) {
      await createMany(collection, step, configMapOf1KB, 64, made);
      steps.push(`${((made + step) / 1000).toFixed(0)}k ${rssMB(pid).toFixed(0)} MB`);
    }
    log(`${dir ?? 'ours'}: ${count} creates in ${((performance.now() - t) / 1000).toFixed(1)} s; RSS on the way: ${steps.join(', ')}`);
    await sleep(SETTLE_MS);
    const held = rssMB(pid);
    const agent = oneConnection();
    const list = await rawGet(collection, agent);
    if (list.status !== 200) throw new Error(`LIST: ${list.status}`);
    await sleep(SETTLE_MS);
    const afterList = rssMB(pid);
    // a protobuf list too: the cache may keep each item's protobuf bytes once asked for
    const pb = await getAs(collection, agent, PROTOBUF);
    agent.destroy();
    await sleep(SETTLE_MS);
    const afterProtobuf = rssMB(pid);
    const m: Memory = { idle, steps, held, afterList, afterProtobuf, raw: list.body.length / 2 ** 20, protobufMB: pb.body.length / 2 ** 20 };
    log(
      `${dir ?? 'ours'}: RSS idle ${idle.toFixed(0)} MB, with the objects ${held.toFixed(0)} MB, after a full list ${afterList.toFixed(0)} MB, after a protobuf list (${m.protobufMB.toFixed(0)} MB) too ${afterProtobuf.toFixed(0)} MB; data ${m.raw.toFixed(0)} MB`,
    );
    return m;
  } finally {
    await ours.stop();
  }
}

async function run({ quick, scratch, log, before: beforeDir }: FigureOptions): Promise<Row[]> {
  const count = quick ? 20_000 : 100_000;
  const m = await measure(count, join(scratch, 'data'), log);
  const was = beforeDir ? await measure(count, join(scratch, 'before'), log, beforeDir) : undefined;
  const beforeText = (pick: (x: Memory) => number) => (was ? `; before (${beforeDir}): ${pick(was).toFixed(0)} MB, ratio ${(pick(was) / was.raw).toFixed(2)}` : '');
  const n = count.toLocaleString('en');
  const load = load1();
  const base = { unit: 'MB', baseline: m.raw, baselineIs: `the data: the full LIST's JSON body (${m.raw.toFixed(0)} MB)`, aim: { of: 'ratio', op: '<=', value: 2.5 } as const, load };
  return [
    {
      ...base,
      figure: `RSS with ${n} × 1.1 KB objects`,
      ours: m.held,
      detail: `RSS idle before the creates ${m.idle.toFixed(0)} MB; on the way: ${m.steps.join(', ')}${beforeText((x) => x.held)}`,
    },
    {
      ...base,
      figure: `RSS with ${n} objects, after one full LIST`,
      ours: m.afterList,
      detail: `after a protobuf LIST as well: ${m.afterProtobuf.toFixed(0)} MB${beforeText((x) => x.afterList)}${was ? ` (after a protobuf LIST as well: ${was.afterProtobuf.toFixed(0)} MB)` : ''}`,
    },
  ];
}

export const figure: Figure = { name: 'rss', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
