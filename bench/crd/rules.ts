// Creates of a custom resource whose CRD has five x-kubernetes-validations
// rules, against creates of the same custom resource under a CRD with the
// same schema and no rules, on the same server in the same run: autocannon,
// 16 connections, unique names, interleaved runs (rules, none, rules, ...),
// medians. The aim: with rules at least 0.7 of the creates per second.
// Usage: npx tsx bench/crd/rules.ts [--quick]

import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { cannon } from '../support/http.ts';
import { spawnOurs } from '../support/servers.ts';
import { interleave, load1, median } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';
import { benchCr, createServedCrds, crPath, FIVE_RULES } from './fixtures.ts';

const CONNECTIONS = 16;

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const duration = quick ? 2 : 5;
  const ours = await spawnOurs(join(scratch, 'data'));
  try {
    const url = ours.url;
    // CRD 'rules' has the five rules, CRD 'plain' none; the schemas are otherwise the same
    await createServedCrds(url, ['rules'], FIVE_RULES);
    await createServedCrds(url, ['plain']);
    let n = 0;
    const creates = (which: string, seconds: number) => async () => {
      const r = await cannon({
        url: url + crPath(which),
        connections: CONNECTIONS,
        duration: seconds,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify(benchCr(which, `c-${n++}`)) }) }],
      });
      return r.requests.average;
    };
    await creates('rules', 1)();
    await creates('plain', 1)();
    const p = await interleave(pairs, creates('rules', duration), creates('plain', duration));
    const detail = `medians of ${pairs} interleaved ${duration}s runs, ${CONNECTIONS} conns; with rules ${p.ours.map((x) => x.toFixed(0)).join(', ')}; without ${p.baseline.map((x) => x.toFixed(0)).join(', ')} /s`;
    log(detail);
    return [
      {
        figure: `custom resource creates, 5 CEL rules`,
        unit: '/s',
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: 'creates of the same custom resource under a CRD without rules, same server',
        aim: { of: 'ratio', op: '>=', value: 0.7 },
        load: load1(),
        detail,
      },
    ];
  } finally {
    await ours.stop();
  }
}

export const figure: Figure = { name: 'crd-rules', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
