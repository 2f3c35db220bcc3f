// End-to-end: the server process's /metrics with
// --show-hidden-metrics-for-version (a metric hidden in 1.31 appears only
// with it; another value stops start-up with upstream's message).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliToExit, startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { serverFetch } from '../support/server-fetch.ts';
import { parseMetrics } from '../support/metrics-text.ts';

const HIDDEN = 'apiserver_storage_db_total_size_in_bytes';

describe('metrics of the server process', () => {
  let shown: ServerProcess;
  beforeAll(async () => {
    shown = await startServerProcess(['--show-hidden-metrics-for-version=1.30']);
  });
  afterAll(async () => {
    await shown?.stop();
  });

  it('shows a hidden metric with --show-hidden-metrics-for-version=1.30', async () => {
    const res = await serverFetch(`${shown.url}/metrics`);
    expect(res.status).toBe(200);
    const fams = parseMetrics(await res.text());
    expect(fams.get(HIDDEN)).toMatchObject({ type: 'GAUGE', help: '[ALPHA] (Deprecated since 1.28.0) Total size of the storage database file physically allocated in bytes.' });
    const [sample] = fams.get(HIDDEN)!.metrics;
    expect(sample.labels?.endpoint).toMatch(/specserver\.db$/);
    expect(Number(sample.value)).toBeGreaterThan(0);
  });

  it('hides it without the flag', async () => {
    const s = await startServerProcess();
    try {
      const fams = parseMetrics(await (await serverFetch(`${s.url}/metrics`)).text());
      expect(fams.has(HIDDEN)).toBe(false);
      expect(fams.has('apiserver_request_total')).toBe(true);
    } finally {
      await s.stop();
    }
  });

  it.each(['1.29', '1.31', 'latest'])('refuses --show-hidden-metrics-for-version=%s before starting', async (value) => {
    const r = await runCliToExit(['--data-dir', ':memory:', '--secure-port', '0', `--show-hidden-metrics-for-version=${value}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: --show-hidden-metrics-for-version must be omitted or have the value '1.30'. Only the previous minor version is allowed");
    expect(r.stdout).not.toContain('listening on');
  });
});
