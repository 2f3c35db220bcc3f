// Durable creates over HTTP, 64 connections (autocannon POSTs of ConfigMaps
// with unique names; every 201 is committed with synchronous=FULL), against
// raw better-sqlite3 doing what a naive durable server would do: one
// single-row INSERT per transaction (journal_mode=WAL, synchronous=FULL), rows
// of the size of our stored object (the bytes a GET of one created object
// returns), in a child process (bench/baselines/raw-sqlite.mjs, started as
// our server is) on the same disk in the same run. The aim is above 1 because
// group commit batches many creates into one fsync.
// Interleaved repetitions (ours, raw, ours, raw, ...), medians.
// Usage: npx tsx bench/http/create.ts [--quick]

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { cannon, oneConnection, rawGet } from '../support/http.ts';
import { baseline, root, spawnOurs } from '../support/servers.ts';
import { interleave, load1, median } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

const CONNECTIONS = 64;

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { key: 'value'.repeat(20) } });

/** Single-row commits per second of the raw baseline, one fresh child process per run. */
function rawRate(file: string, seconds: number, rowBytes: number): number {
  const r = spawnSync(process.execPath, [baseline('raw-sqlite.mjs'), file, String(seconds), String(rowBytes)], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`raw-sqlite.mjs exited ${r.status}: ${r.stderr}`);
  const { rows, seconds: took } = JSON.parse(r.stdout) as { rows: number; seconds: number };
  return rows / took;
}

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const duration = quick ? 2 : 5;
  const ours = await spawnOurs(join(scratch, 'data'));
  try {
    const collection = `${ours.url}/api/v1/namespaces/default/configmaps`;
    let n = 0;
    const creates = async (seconds: number) =>
      (
        await cannon({
          url: collection,
          connections: CONNECTIONS,
          duration: seconds,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify(configMap(`c-${n++}`)) }) }],
        })
      ).requests.average;
    await creates(1); // warm-up
    const agent = oneConnection();
    const rowBytes = (await rawGet(`${collection}/c-0`, agent)).body.length;
    agent.destroy();
    log(`stored object: ${rowBytes} bytes`);
    const p = await interleave(
      pairs,
      () => creates(duration),
      async () => rawRate(join(scratch, 'raw.db'), duration, rowBytes),
    );
    log(`ours ${p.ours.map((x) => x.toFixed(0)).join(' ')}; raw ${p.baseline.map((x) => x.toFixed(0)).join(' ')} /s`);
    return [
      {
        figure: `durable creates, ${CONNECTIONS} conns`,
        unit: '/s',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: `raw better-sqlite3 single-row INSERT per transaction, WAL, FULL, ${rowBytes}-byte rows`,
        aim: { of: 'ratio', op: '>=', value: 1.5 },
        load: load1(),
        detail: `medians of ${pairs} interleaved ${duration}s runs; ours ${p.ours.map((x) => x.toFixed(0)).join(', ')}; raw ${p.baseline.map((x) => x.toFixed(0)).join(', ')}`,
      },
    ];
  } finally {
    await ours.stop();
  }
}

export const figure: Figure = { name: 'create', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
