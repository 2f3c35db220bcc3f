// Durable creates over HTTP, 64 connections (autocannon POSTs of ConfigMaps
// with unique names; every 201 is committed with synchronous=FULL), against
// raw better-sqlite3 doing what a naive durable server would do: one
// single-row INSERT per transaction (journal_mode=WAL, synchronous=FULL), rows
// of the size of our stored object (the bytes a GET of one created object
// returns), in a child process (bench/baselines/raw-sqlite.mjs, started as
// our server is) on the same disk in the same run. The aim is above 1 because
// group commit batches many creates into one fsync.
// Interleaved repetitions (ours, raw, ours, raw, ...), medians; the server's
// CPU per create (from /proc) in the details. With --before DIR, that
// checkout's server runs in the same rounds (ours, before, raw) and its
// figures go in the details.
// Usage: npx tsx bench/http/create.ts [--quick] [--before DIR]

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { cannon, oneConnection, rawGet } from '../support/http.ts';
import { cpuMs } from '../support/proc.ts';
import type { BenchProcess } from '../support/process.ts';
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

async function run({ quick, scratch, log, before: beforeDir }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const duration = quick ? 2 : 5;
  const ours = await spawnOurs(join(scratch, 'data'));
  const before = beforeDir ? await spawnOurs(join(scratch, 'before'), [], beforeDir).catch(async (e) => (await ours.stop(), Promise.reject(e))) : undefined;
  try {
    const collection = (server: BenchProcess) => `${server.url}/api/v1/namespaces/default/configmaps`;
    let n = 0;
    /** CPU µs per create of each server, per run. */
    const cpu = new Map<BenchProcess, number[]>();
    const creates = (server: BenchProcess, seconds: number) => async () => {
      const cpu0 = cpuMs(server.proc.pid!);
      const r = await cannon({
        url: collection(server),
        connections: CONNECTIONS,
        duration: seconds,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify(configMap(`c-${n++}`)) }) }],
      });
      cpu.set(server, [...(cpu.get(server) ?? []), ((cpuMs(server.proc.pid!) - cpu0) * 1000) / r.requests.total]);
      return r.requests.average;
    };
    for (const s of before ? [ours, before] : [ours]) await creates(s, 1)(); // warm-up
    cpu.clear();
    const agent = oneConnection();
    const rowBytes = (await rawGet(`${collection(ours)}/c-0`, agent)).body.length;
    agent.destroy();
    log(`stored object: ${rowBytes} bytes`);
    const p = await interleave(pairs, creates(ours, duration), async () => rawRate(join(scratch, 'raw.db'), duration, rowBytes), before ? [creates(before, duration)] : []);
    const us = (s: BenchProcess) => median(cpu.get(s) ?? []).toFixed(0);
    let detail = `server CPU per create ${us(ours)} µs`;
    if (before) {
      const was = p.others[0];
      detail += `; before (${beforeDir}): ${was.map((x) => x.toFixed(0)).join(', ')} /s, median ratio to raw ${median(was.map((x, i) => x / p.baseline[i])).toFixed(2)}, ${us(before)} µs CPU per create`;
    }
    log(`ours ${p.ours.map((x) => x.toFixed(0)).join(' ')}; raw ${p.baseline.map((x) => x.toFixed(0)).join(' ')} /s; ${detail}`);
    return [
      {
        figure: `durable creates, ${CONNECTIONS} conns`,
        unit: '/s',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: `raw better-sqlite3 single-row INSERT per transaction, WAL, FULL, ${rowBytes}-byte rows`,
        aim: { of: 'ratio', op: '>=', value: 1.5 },
        load: load1(),
        detail: `medians of ${pairs} interleaved ${duration}s runs; ours ${p.ours.map((x) => x.toFixed(0)).join(', ')}; raw ${p.baseline.map((x) => x.toFixed(0)).join(', ')}; ${detail}`,
      },
    ];
  } finally {
    await ours.stop();
    await before?.stop();
  }
}

export const figure: Figure = { name: 'create', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
