// A CRD of 10,000 typed properties: time from its create request to the
// first custom resource create answered 201 (the compile of its validator
// in between), against the same for a CRD of 100 properties, on the same
// server in the same run, interleaved (wide, narrow, wide, ...), medians,
// each pair with CRDs of new names. The aim: at most 20 times as long.
// Usage: npx tsx bench/crd/wide.ts [--quick]

import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { spawnOurs } from '../support/servers.ts';
import { interleave, load1, median } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';
import { CRDS_PATH, type Json } from './fixtures.ts';

const GROUP = 'wide.example.com';

function wideCrd(plural: string, properties: number): Json {
  const props: Json = {};
  for (let i = 0; i < properties; i++) props[`p${i}`] = { type: 'string', maxLength: 4 };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { kind: plural[0].toUpperCase() + plural.slice(1, -1), plural },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } } } }],
    },
  };
}

/** Milliseconds from the CRD's create request to the first custom resource create answered 201. */
async function toFirstWrite(url: string, plural: string, properties: number): Promise<number> {
  const started = performance.now();
  const crd = wideCrd(plural, properties);
  const r = await fetch(url + CRDS_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(crd) });
  if (r.status !== 201) throw new Error(`CRD ${plural}: ${r.status} ${(await r.text()).slice(0, 300)}`);
  const kind = (crd.spec as { names: { kind: string } }).names.kind;
  const body = JSON.stringify({ apiVersion: `${GROUP}/v1`, kind, metadata: { name: 'first' }, spec: { p1: 'x' } });
  for (let polls = 0; polls < 100_000; polls++) {
    const c = await fetch(`${url}/apis/${GROUP}/v1/namespaces/default/${plural}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await c.arrayBuffer();
    if (c.status === 201) return performance.now() - started;
    if (c.status !== 404 && c.status !== 503) throw new Error(`custom resource of ${plural}: ${c.status}`);
    await new Promise((res) => setTimeout(res, 5));
  }
  throw new Error(`${plural} never served`);
}

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const ours = await spawnOurs(join(scratch, 'data'));
  try {
    let n = 0;
    const measure = (properties: number) => () => toFirstWrite(ours.url, `w${properties}x${n++}s`, properties);
    await measure(100)();
    const p = await interleave(pairs, measure(10_000), measure(100));
    const detail = `medians of ${pairs} interleaved runs; 10,000 properties ${p.ours.map((x) => x.toFixed(0)).join(', ')}; 100 properties ${p.baseline.map((x) => x.toFixed(0)).join(', ')} ms`;
    log(detail);
    return [
      {
        figure: 'CRD of 10,000 properties: create → first custom resource written',
        unit: 'ms',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: 'the same for a CRD of 100 properties, same server',
        aim: { of: 'ratio', op: '<=', value: 20 },
        load: load1(),
        detail,
      },
    ];
  } finally {
    await ours.stop();
  }
}

export const figure: Figure = { name: 'crd-wide', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
