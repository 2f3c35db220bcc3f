// The fuzz run in the test suite: a bounded number of seeded cases against a
// real in-memory server over a real socket (test/fuzz/harness.ts). Fails
// with a report of every failure class and its smallest reproducer. The
// seed is fixed unless FUZZ_SEED is set; FUZZ_COUNT sets the number of
// cases, FUZZ_ONLY (comma-separated indices) replays single cases. The long
// run is bench/fuzz/run.ts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { generateCase, formatCounts, formatReport, runFuzz } from './harness.ts';
import { collectionPath, servedKinds } from './kinds.ts';
import { hasBody, validObject } from './objects.ts';
import { Rng } from './rng.ts';
import type { GenContext } from './case.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20240531);
const COUNT = Number(process.env.FUZZ_COUNT ?? 1000);
const ONLY = process.env.FUZZ_ONLY ? process.env.FUZZ_ONLY.split(',').map(Number) : undefined;

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
});
afterAll(async () => {
  await s?.stop();
});

describe('fuzz harness building blocks', () => {
  it('has a valid object for every served kind, and the server accepts each (201)', async () => {
    await s.app.request('/api/v1/namespaces', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fuzz-valid' } }),
    });
    const refused: string[] = [];
    for (const k of servedKinds) {
      expect(hasBody(k), `${k.apiVersion} ${k.def.kind} has a hand-written body`).toBe(true);
      if (!k.def.verbs.includes('create')) continue;
      const obj = validObject(k, `fz-valid-${k.def.resource}`.slice(0, 60), 'fuzz-valid');
      // a Binding binds an existing pod of its name
      if (k.def.group === '' && k.def.kind === 'Binding') {
        const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: obj.metadata.name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
        await s.app.request('/api/v1/namespaces/fuzz-valid/pods', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pod) });
      }
      const res = await s.app.request(collectionPath(k, 'fuzz-valid'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(obj) });
      // the same storage serves two flowcontrol versions, and CRD and APIService names are fixed: 409 is fine for those
      if (res.status !== 201 && res.status !== 409) refused.push(`${k.apiVersion} ${k.def.kind}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    }
    expect(refused).toEqual([]);
  });

  it('generates the same cases from the same seed, and other cases from another', () => {
    const ctx: GenContext = {
      fuzzNs: 'fuzz',
      sentinels: { namespaces: ['sentinel-a', 'sentinel-b'], clusterRole: 'sentinel-cluster', names: { configmaps: 'cm', secrets: 's', deployments: 'd' } },
      targets: servedKinds.filter((k) => k.def.verbs.includes('patch')).map((kind) => ({ kind, name: 'fz-target', object: validObject(kind, 'fz-target', 'fuzz') })),
    };
    const sig = (seed: number) =>
      Array.from({ length: 60 }, (_, i) => {
        const c = generateCase(seed, i, ctx);
        return `${c.generator} ${c.method} ${c.path} ${JSON.stringify(c.headers)} ${c.body ? Buffer.from(c.body).toString('base64') : ''}`;
      });
    expect(sig(7)).toEqual(sig(7));
    expect(sig(8)).not.toEqual(sig(7));
    // one case alone equals the same case in a run
    expect(generateCase(7, 123, ctx)).toEqual(generateCase(7, 123, ctx));
    expect(Rng.forCase(7, 1).next()).not.toBe(Rng.forCase(7, 2).next());
  });
});

describe('fuzz run', () => {
  it(`${ONLY ? `replays cases ${ONLY.join(',')}` : `${COUNT} cases`} (seed ${SEED}): no 5xx, every error a Status, no request holding the server, sentinels untouched, /readyz 200`, async () => {
    const result = await runFuzz({ server: s, seed: SEED, count: COUNT, only: ONLY, timeoutMs: 30_000, slowMs: 15_000 });
    const report = formatReport(result);
    if (result.failures.length || result.aborted) console.log(`${report}\n\n${formatCounts(result)}`);
    expect(result.aborted, report).toBeUndefined();
    expect(result.sent, 'cases sent').toBeGreaterThan((ONLY?.length ?? COUNT) * 0.9);
    expect(
      result.classes.map((c) => c.key),
      report,
    ).toEqual([]);
  }, 600_000);
});
