// Memory per served CustomResourceDefinition: the RSS and heap growth (after
// full collections) of a server process that creates 200 CRDs and one custom
// resource of each, divided by 200; against the same server storing 200
// ConfigMaps carrying the same CRD manifests as data (what storing the bytes
// costs, without serving them). Each side in a fresh process
// (bench/crd/memory-child.mjs, the compiled server imported), interleaved
// (CRDs, ConfigMaps, CRDs, ...), medians. The heap per CRD is in the details.
// Usage: npx tsx bench/crd/memory.ts [--quick]

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { importLibrary, LIBRARY_ENTRY, root } from '../support/servers.ts';
import { interleave, load1, median } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';
import { benchCr, benchCrd, CRDS_PATH, crPath, range, type Json } from './fixtures.ts';

const COUNT = 200;
const MB = 1024 * 1024;

interface Measured {
  rss: number;
  heap: number;
}

function measure(scratch: string, file: string): Measured {
  const dataDir = mkdtempSync(join(scratch, 'data-'));
  const r = spawnSync(process.execPath, ['--expose-gc', join(root, 'bench', 'crd', 'memory-child.mjs'), LIBRARY_ENTRY, dataDir, file], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`memory-child.mjs exited ${r.status}: ${r.stderr.slice(-500)}`);
  const m = JSON.parse(r.stdout) as { count: number; rss: number; heap: number };
  return { rss: m.rss / m.count / MB, heap: m.heap / m.count / MB };
}

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  await importLibrary(); // brings dist/ up to date
  const warm = [
    { path: CRDS_PATH, body: benchCrd('warm') },
    { path: '/api/v1/namespaces/default/configmaps', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'warm' }, data: { a: 'b' } } },
  ];
  const crds: Json[] = range(COUNT).map((i) => ({ path: CRDS_PATH, body: benchCrd(i), then: { path: crPath(i), body: benchCr(i, 'one') } }));
  const maps: Json[] = range(COUNT).map((i) => ({
    path: '/api/v1/namespaces/default/configmaps',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `crd-${i}` }, data: { manifest: JSON.stringify(benchCrd(i)), object: JSON.stringify(benchCr(i, 'one')) } },
  }));
  crds[0].warm = warm;
  maps[0].warm = warm;
  const crdFile = join(scratch, 'crds.json');
  const mapFile = join(scratch, 'configmaps.json');
  writeFileSync(crdFile, JSON.stringify({ items: crds }));
  writeFileSync(mapFile, JSON.stringify({ items: maps }));
  const heaps: { crd: number[]; map: number[] } = { crd: [], map: [] };
  const p = await interleave(
    pairs,
    async () => {
      const m = measure(scratch, crdFile);
      heaps.crd.push(m.heap);
      return m.rss;
    },
    async () => {
      const m = measure(scratch, mapFile);
      heaps.map.push(m.heap);
      return m.rss;
    },
  );
  const f = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(', ');
  const detail = `medians of ${pairs} interleaved fresh processes, ${COUNT} each; RSS per CRD ${f(p.ours)} MB, per ConfigMap ${f(p.baseline)} MB; heap per CRD ${f(heaps.crd)} MB (median ${median(heaps.crd).toFixed(3)}), per ConfigMap ${f(heaps.map)} MB (median ${median(heaps.map).toFixed(3)})`;
  log(detail);
  return [
    {
      figure: `memory per served CRD (RSS), ${COUNT} CRDs`,
      unit: 'MB',
      ours: median(p.ours),
      baseline: median(p.baseline),
      baselineIs: 'RSS per ConfigMap holding the same manifest, not served',
      aim: { of: 'ours', op: '<=', value: 1 },
      load: load1(),
      detail,
    },
  ];
}

export const figure: Figure = { name: 'crd-memory', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
