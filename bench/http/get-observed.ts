// GET of one object over 50 kept-alive connections (autocannon) from a
// server that observes its requests (the request, authentication and store
// metrics of /metrics, recorded for every request) against the same build
// with those metrics disabled (--disabled-metrics), in the same run:
// interleaved repetitions (observed, unobserved, ...), medians. The audit
// log's policy can be added to the observed side's flags once it exists.
// Usage: npx tsx bench/http/get-observed.ts [--quick]

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
const OBJECT = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench', labels: { app: 'bench' } }, data: { key: 'value' } };

/** What a request records when observed: off on the unobserved side. */
export const PER_REQUEST_METRICS = [
  'apiserver_request_total',
  'apiserver_request_duration_seconds',
  'apiserver_response_sizes',
  'authentication_attempts',
  'etcd_request_duration_seconds',
  'apiserver_admission_step_admission_duration_seconds',
  'apiserver_admission_controller_admission_duration_seconds',
];

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const duration = quick ? 2 : 5;
  const observed = await spawnOurs(join(scratch, 'observed'));
  const unobserved = await spawnOurs(join(scratch, 'unobserved'), [`--disabled-metrics=${PER_REQUEST_METRICS.join(',')}`]).catch(async (e) => (await observed.stop(), Promise.reject(e)));
  try {
    const agent = oneConnection();
    for (const s of [observed, unobserved]) {
      await postJSON(`${s.url}/api/v1/namespaces/default/configmaps`, OBJECT);
      await getAs(`${s.url}${PATH}`, agent, 'application/json');
    }
    agent.destroy();
    const cpu = new Map<BenchProcess, number[]>([
      [observed, []],
      [unobserved, []],
    ]);
    const get = (server: BenchProcess) => async () => {
      const before = cpuMs(server.proc.pid!);
      const r = await cannon({ url: `${server.url}${PATH}`, connections: CONNECTIONS, duration });
      cpu.get(server)!.push(((cpuMs(server.proc.pid!) - before) * 1000) / r.requests.total);
      return r.requests.average;
    };
    // warm-up (JIT, connection pools), not counted
    for (const s of [observed, unobserved]) await cannon({ url: `${s.url}${PATH}`, connections: CONNECTIONS, duration: 1 });
    const p = await interleave(pairs, get(observed), get(unobserved));
    const cpuText = `server CPU per request: observed ${median(cpu.get(observed)!).toFixed(0)} µs, unobserved ${median(cpu.get(unobserved)!).toFixed(0)} µs`;
    log(`observed ${p.ours.map((x) => x.toFixed(0)).join(' ')}; unobserved ${p.baseline.map((x) => x.toFixed(0)).join(' ')} req/s; ${cpuText}`);
    return [
      {
        figure: `GET one object with metrics, JSON, ${CONNECTIONS} conns`,
        unit: '/s',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: 'the same server, per-request metrics off',
        aim: { of: 'ratio', op: '>=', value: 0.85 },
        load: load1(),
        detail: `medians of ${pairs} interleaved ${duration}s runs; observed ${p.ours.map((x) => x.toFixed(0)).join(', ')}; unobserved ${p.baseline.map((x) => x.toFixed(0)).join(', ')}; ${cpuText}`,
      },
    ];
  } finally {
    await observed.stop();
    await unobserved.stop();
  }
}

export const figure: Figure = { name: 'get-observed', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
