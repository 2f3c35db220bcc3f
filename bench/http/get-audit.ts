// GET of one object with an audit policy at Metadata for every request and
// the JSON log written to a file (the default mode), against the same server
// without a policy, and against one with neither the policy nor the
// per-request metrics (issue 20's figure: both on against both off), in the
// same run: 50 kept-alive connections (autocannon), interleaved repetitions
// (audited, plain, off, audited, ...), medians, each side's CPU time per
// request from /proc. The log's size after the runs says the events were
// written.
// Usage: npx tsx bench/http/get-audit.ts [--quick]

import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { cannon, getAs, oneConnection, postJSON } from '../support/http.ts';
import { cpuMs } from '../support/proc.ts';
import type { BenchProcess } from '../support/process.ts';
import { spawnOurs } from '../support/servers.ts';
import { PER_REQUEST_METRICS } from './get-observed.ts';
import { interleave, load1, median } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

const CONNECTIONS = 50;
const PATH = '/api/v1/namespaces/default/configmaps/bench';
const OBJECT = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench' }, data: { key: 'value' } };
const POLICY = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n';

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const duration = quick ? 2 : 5;
  const policy = join(scratch, 'policy.yaml');
  const auditLog = join(scratch, 'audit.log');
  writeFileSync(policy, POLICY);
  const audited = await spawnOurs(join(scratch, 'audited'), ['--audit-policy-file', policy, '--audit-log-path', auditLog]);
  const plain = await spawnOurs(join(scratch, 'plain')).catch(async (e) => (await audited.stop(), Promise.reject(e)));
  const off = await spawnOurs(join(scratch, 'off'), [`--disabled-metrics=${PER_REQUEST_METRICS.join(',')}`]).catch(async (e) => (await Promise.all([audited.stop(), plain.stop()]), Promise.reject(e)));
  try {
    const agent = oneConnection();
    for (const s of [audited, plain, off]) {
      await postJSON(`${s.url}/api/v1/namespaces/default/configmaps`, OBJECT);
      await getAs(`${s.url}${PATH}`, agent, 'application/json');
    }
    agent.destroy();
    const cpu = new Map<BenchProcess, number[]>([
      [audited, []],
      [plain, []],
      [off, []],
    ]);
    const get = (server: BenchProcess) => async () => {
      const before = cpuMs(server.proc.pid!);
      const r = await cannon({ url: `${server.url}${PATH}`, connections: CONNECTIONS, duration });
      cpu.get(server)!.push(((cpuMs(server.proc.pid!) - before) * 1000) / r.requests.total);
      return r.requests.average;
    };
    for (const s of [audited, plain, off]) await cannon({ url: `${s.url}${PATH}`, connections: CONNECTIONS, duration: 1 });
    const p = await interleave(pairs, get(audited), get(plain), [get(off)]);
    const offRates = p.others[0];
    const logMB = statSync(auditLog).size / 1024 / 1024;
    const cpuText = `server CPU per request: audited ${median(cpu.get(audited)!).toFixed(0)} µs, plain ${median(cpu.get(plain)!).toFixed(0)} µs, neither audit nor per-request metrics ${median(cpu.get(off)!).toFixed(0)} µs; audit log ${logMB.toFixed(0)} MB`;
    log(cpuText);
    return [
      {
        figure: `GET one object, audit policy at Metadata, ${CONNECTIONS} conns`,
        unit: '/s',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: 'the same server without an audit policy',
        aim: { of: 'ratio', op: '>=', value: 0.85 },
        load: load1(),
        detail: `medians of ${pairs} interleaved ${duration}s runs; audited ${p.ours.map((x) => x.toFixed(0)).join(', ')}; plain ${p.baseline.map((x) => x.toFixed(0)).join(', ')}; ${cpuText}`,
      },
      {
        figure: `GET one object, audit at Metadata and metrics, ${CONNECTIONS} conns`,
        unit: '/s',
        ours: median(p.ours),
        baseline: median(offRates),
        baselineIs: 'the same server with neither an audit policy nor the per-request metrics',
        aim: { of: 'ratio', op: '>=', value: 0.85 },
        load: load1(),
        detail: `medians of ${pairs} interleaved ${duration}s runs; audited ${p.ours.map((x) => x.toFixed(0)).join(', ')}; off ${offRates.map((x) => x.toFixed(0)).join(', ')}; ${cpuText}`,
      },
    ];
  } finally {
    await Promise.all([audited.stop(), plain.stop(), off.stop()]);
  }
}

export const figure: Figure = { name: 'get-audit', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
