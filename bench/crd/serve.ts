// Time from a CustomResourceDefinition's create to its resource being
// served (a create of one of its custom resources answered 201, polled every
// millisecond), with 200 other CRDs served, as the p99 over the samples;
// against a built-in create round trip (POST of a ConfigMap) to the same
// server in the same run, interleaved sample by sample (CRD, ConfigMap, CRD,
// ...). The aim is on our own p99 (< 100 ms); the ratio says how many
// create round trips serving a new CRD costs.
// Usage: npx tsx bench/crd/serve.ts [--quick]

import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { spawnOurs } from '../support/servers.ts';
import { load1, loadAverage, median, percentile } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';
import { benchCrd, createServedCrds, CRDS_PATH, range, waitServed } from './fixtures.ts';

const PRESENT = 200;

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const samples = quick ? 20 : 100;
  const ours = await spawnOurs(join(scratch, 'data'));
  try {
    const url = ours.url;
    await createServedCrds(url, range(PRESENT));
    log(`${PRESENT} CRDs served (load ${loadAverage()})`);
    const crdMs: number[] = [];
    const cmMs: number[] = [];
    const polls: number[] = [];
    for (let i = 0; i < samples; i++) {
      const t0 = performance.now();
      const r = await fetch(url + CRDS_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(benchCrd(`n${i}`)) });
      if (r.status !== 201) throw new Error(`CRD n${i}: ${r.status} ${(await r.text()).slice(0, 300)}`);
      await r.arrayBuffer();
      polls.push(await waitServed(url, `n${i}`));
      crdMs.push(performance.now() - t0);
      const t1 = performance.now();
      const c = await fetch(`${url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { a: 'b' } }),
      });
      await c.arrayBuffer();
      if (c.status !== 201) throw new Error(`ConfigMap ${i}: ${c.status}`);
      cmMs.push(performance.now() - t1);
    }
    const p99 = percentile(crdMs, 99);
    const base = percentile(cmMs, 99);
    const detail = `${samples} samples with ${PRESENT}+ CRDs served; CRD create to served: median ${median(crdMs).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...crdMs).toFixed(1)} ms (median ${median(polls)} polls); ConfigMap create: median ${median(cmMs).toFixed(1)} ms, p99 ${base.toFixed(1)} ms`;
    log(detail);
    return [
      {
        figure: `CRD create to served, p99, ${PRESENT} CRDs`,
        unit: 'ms',
        ours: p99,
        baseline: base,
        baselineIs: 'p99 of a ConfigMap create round trip, same server, interleaved',
        aim: { of: 'ours', op: '<=', value: 100 },
        load: load1(),
        detail,
      },
    ];
  } finally {
    await ours.stop();
  }
}

export const figure: Figure = { name: 'crd-serve', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
