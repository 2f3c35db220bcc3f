// End-to-end: the server process's /metrics with
// --show-hidden-metrics-for-version (a metric hidden in 1.31 appears only
// with it; another value stops start-up with upstream's message), and its
// log with --logging-format=json -v=3 (every line a JSON object, a request
// line per request) or klog text lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliToExit, startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { serverFetch } from '../support/server-fetch.ts';
import { parseMetrics } from '../support/metrics-text.ts';

/** Waits until `check` holds (the log line of a request is written after its response); bounded for a hung test. */
async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

const HIDDEN = 'apiserver_storage_db_total_size_in_bytes';

describe('metrics of the server process', () => {
  let shown: ServerProcess;
  beforeAll(async () => {
    shown = await startServerProcess(['--show-hidden-metrics-for-version=1.30', '--logging-format=json', '-v=3']);
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

  it('logs JSON objects, one per request at -v=3, with the request log fields', async () => {
    const res = await serverFetch(`${shown.url}/api/v1/namespaces/default?pretty=true`, { headers: { 'Audit-ID': 'e2e-audit-1', 'User-Agent': 'e2e-agent/1.0' } });
    expect(res.status).toBe(200);
    await eventually(() => shown.output().includes('e2e-audit-1'));
    const banner = /^(admin kubeconfig: |try: kubectl |specserver listening on )/;
    const lines = shown
      .output()
      .split('\n')
      .filter((l) => l && !banner.test(l));
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const e of entries) {
      expect(typeof e.ts).toBe('number');
      expect(e.caller).toMatch(/^[\w.-]+\.(ts|js):\d+$/);
      expect(typeof e.msg).toBe('string');
    }
    const line = entries.find((e) => e['audit-ID'] === 'e2e-audit-1')!;
    expect(line).toMatchObject({ msg: 'HTTP', v: 3, verb: 'GET', URI: '/api/v1/namespaces/default?pretty=true', userAgent: 'e2e-agent/1.0', resp: 200 });
    expect(line.latency).toMatch(/^\d+(\.\d+)?(ns|µs|ms|s)$/);
    expect(line.srcIP).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('hides it without the flag, and logs klog text lines', async () => {
    const s = await startServerProcess(['-v=3']);
    try {
      const fams = parseMetrics(await (await serverFetch(`${s.url}/metrics`, { headers: { 'Audit-ID': 'e2e-audit-2' } })).text());
      expect(fams.has(HIDDEN)).toBe(false);
      expect(fams.has('apiserver_request_total')).toBe(true);
      await eventually(() => s.output().includes('e2e-audit-2'));
      const line = s
        .output()
        .split('\n')
        .find((l) => l.includes('e2e-audit-2'))!;
      expect(line).toMatch(
        /^I\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ [\w.-]+\.(ts|js):\d+\] "HTTP" verb="GET" URI="\/metrics" latency="[^"]+" userAgent="[^"]*" audit-ID="e2e-audit-2" srcIP="127\.0\.0\.1:\d+" resp=200$/,
      );
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

  it('refuses a --logging-format other than text and json', async () => {
    const r = await runCliToExit(['--data-dir', ':memory:', '--secure-port', '0', '--logging-format=xml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: format: Invalid value: "xml": Unsupported log format');
  });
});
