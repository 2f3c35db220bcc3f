// GET of one object with an audit policy at Metadata for every request and
// the JSON log written to a file, against the same server without a policy,
// in the same run: 50 kept-alive connections (autocannon), interleaved
// repetitions (audited, plain, audited, ...), medians, each side's CPU time
// per request from /proc. The log's size after the runs says the events were
// written.
// Usage: npx tsx bench/http/get-audit.ts [--quick]

import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { cannon, getAs, oneConnection, postJSON } from '../support/http.ts';
import { cpuMs } from '../support/proc.ts';
import type { BenchProcess } from '../support/process.ts';
import { spawnOurs } from '../support/servers.ts';
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
  try {
    const agent = oneConnection();
    for (const s of [audited, plain]) {
      await postJSON(`${s.url}/api/v1/namespaces/default/configmaps`, OBJECT);
      await getAs(`${s.url}${PATH}`, agent, 'application/json');
    }
    agent.destroy();
    const cpu = new Map<BenchProcess, number[]>([
      [audited, []],
      [plain, []],
    ]);
    const get = (server: BenchProcess) => async () => {
      const before = cpuMs(server.proc.pid!);
      const r = await cannon({ url: `${server.url}${PATH}`, connections: CONNECTIONS, duration });
      cpu.get(server)!.push(((cpuMs(server.proc.pid!) - before) * 1000) / r.requests.total);
      return r.requests.average;
    };
    for (const s of [audited, plain]) await cannon({ url: `${s.url}${PATH}`, connections: CONNECTIONS, duration: 1 });
    const p = await interleave(pairs, get(audited), get(plain));
    const logMB = statSync(auditLog).size / 1024 / 1024;
    const cpuText = `server CPU per request: audited ${median(cpu.get(audited)!).toFixed(0)} µs, plain ${median(cpu.get(plain)!).toFixed(0)} µs; audit log ${logMB.toFixed(0)} MB`;
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
    ];
  } finally {
    await audited.stop();
    await plain.stop();
  }
}

export const figure: Figure = { name: 'get-audit', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
