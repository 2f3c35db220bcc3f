// Creates through ValidatingAdmissionPolicy: ConfigMap creates over HTTP
// (64 connections) into a namespace that 1 policy validation matches, and
// one that 10 match, against creates into a namespace no policy matches, on
// the same server in the same run (interleaved: none, 1, 10, none, ...;
// medians). Each validation reads the object (`object.data.key.size() <
// 4096`), with a binding per policy, Deny.
// Usage: npx tsx bench/admission/policies.ts [--quick]

import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { cannon, postJSON } from '../support/http.ts';
import type { BenchProcess } from '../support/process.ts';
import { spawnOurs } from '../support/servers.ts';
import { interleave, load1, median, sleep } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

const CONNECTIONS = 64;
const AR = '/apis/admissionregistration.k8s.io/v1';
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { key: 'value'.repeat(20) } });

async function setUp(server: BenchProcess, ns: string, validations: number): Promise<void> {
  await postJSON(`${server.url}/api/v1/namespaces`, { metadata: { name: ns, labels: { bench: ns } } });
  if (validations === 0) return;
  const name = `bench-${ns}`;
  await postJSON(`${server.url}${AR}/validatingadmissionpolicies`, {
    metadata: { name },
    spec: {
      matchConstraints: { namespaceSelector: { matchLabels: { bench: ns } }, resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
      validations: Array.from({ length: validations }, (_, i) => ({ expression: `object.data.key.size() < ${4096 + i}` })),
    },
  });
  await postJSON(`${server.url}${AR}/validatingadmissionpolicybindings`, { metadata: { name }, spec: { policyName: name, validationActions: ['Deny'] } });
}

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const duration = quick ? 2 : 5;
  const server = await spawnOurs(join(scratch, 'data'));
  try {
    await setUp(server, 'vap-none', 0);
    await setUp(server, 'vap-one', 1);
    await setUp(server, 'vap-ten', 10);
    // the policies take effect from their watch events
    await sleep(1000);
    let n = 0;
    const creates = (ns: string, seconds: number) => async () => {
      const r = await cannon({
        url: `${server.url}/api/v1/namespaces/${ns}/configmaps`,
        connections: CONNECTIONS,
        duration: seconds,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify(configMap(`c-${n++}`)) }) }],
      });
      return r.requests.average;
    };
    for (const ns of ['vap-none', 'vap-one', 'vap-ten']) await creates(ns, 1)(); // warm-up
    const p = await interleave(pairs, creates('vap-one', duration), creates('vap-none', duration), [creates('vap-ten', duration)]);
    const ten = p.others[0];
    const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    log(`none ${fmt(p.baseline)}; 1 validation ${fmt(p.ours)}; 10 validations ${fmt(ten)} /s`);
    const row = (label: string, xs: number[], aim: number): Row => ({
      figure: `creates with ${label} matching VAP validations, ${CONNECTIONS} conns`,
      unit: '/s',
      ours: median(xs),
      baseline: median(p.baseline),
      baselineIs: 'the same creates into a namespace no policy matches, same server',
      aim: { of: 'ratio', op: '>=', value: aim },
      load: load1(),
      detail: `medians of ${pairs} interleaved ${duration}s runs; with ${label}: ${fmt(xs)}; none: ${fmt(p.baseline)}; median ratio ${median(xs.map((x, i) => x / p.baseline[i])).toFixed(2)}`,
    });
    return [row('1', p.ours, 0.6), row('10', ten, 0.3)];
  } finally {
    await server.stop();
  }
}

export const figure: Figure = { name: 'vap', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
