// --etcd-servers-overrides and --etcd-count-metric-poll-period on a server
// over two throw-away etcd members: core Events go to the second member (at
// kube-apiserver's key there, nothing of them in the first) and are read,
// listed and watched from it; everything else stays in the first; the stored
// object counts come from each resource's own member. A poll period of 0
// leaves apiserver_storage_objects empty. A malformed override stops the
// server at start with kube-apiserver's text. Skipped (with a message) where
// no etcd binary exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable, startEtcd, type TestEtcd } from '../support/etcd.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { parseMetrics, sampleValue } from '../support/metrics-text.ts';
import { runCliToExit } from '../support/server-process.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

/** The keys etcd holds under a prefix (its JSON gateway). */
async function etcdKeys(etcd: TestEtcd, prefix: string): Promise<string[]> {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const res = await fetch(`${etcd.url}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: b64(prefix), range_end: b64(end), keys_only: true }) });
  const body = (await res.json()) as { kvs?: { key: string }[] };
  return (body.kvs ?? []).map((kv) => Buffer.from(kv.key, 'base64').toString());
}

const json = (s: RunningServer, method: string, path: string, body?: unknown) =>
  s.app.request(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

const event = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace: 'default' },
  involvedObject: { kind: 'ConfigMap', name: 'c', namespace: 'default' },
  reason: 'Testing',
  message: 'hello',
  type: 'Normal',
});

describe.skipIf(!etcdAvailable())('etcd servers per resource', () => {
  let main: TestEtcd;
  let events: TestEtcd;
  let s: RunningServer;
  let counted = 0;
  beforeAll(async () => {
    [main, events] = await Promise.all([startEtcd(), startEtcd()]);
    s = await startServer({
      authorizationMode: ['AlwaysAllow'],
      port: 0,
      log: () => {},
      etcd: { servers: [main.url], compactionIntervalMs: 0, overrides: [{ group: '', resource: 'events', servers: [events.url] }] },
      etcdCountMetricPollPeriodMs: 50,
    });
  });
  afterAll(async () => {
    await s?.stop();
    await Promise.all([main?.stop(), events?.stop()]);
  });

  it('stores core Events in their own etcd and serves them from it', async () => {
    const watch = await json(s, 'GET', '/api/v1/namespaces/default/events?watch=1');
    const reader = watch.body!.getReader();
    expect((await json(s, 'POST', '/api/v1/namespaces/default/events', event('e1'))).status).toBe(201);
    expect((await json(s, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })).status).toBe(201);
    // (the server's own Events, such as its leader election's in kube-system, are in that etcd too)
    expect(await etcdKeys(events, '/registry/events/default/')).toEqual(['/registry/events/default/e1']);
    expect(await etcdKeys(main, '/registry/events/')).toEqual([]);
    expect(await etcdKeys(main, '/registry/configmaps/default/')).toContain('/registry/configmaps/default/c');
    expect(await etcdKeys(events, '/registry/configmaps/')).toEqual([]);
    const got = await json(s, 'GET', '/api/v1/namespaces/default/events/e1');
    expect(got.status).toBe(200);
    expect(((await got.json()) as { message: string }).message).toBe('hello');
    const list = (await (await json(s, 'GET', '/api/v1/namespaces/default/events')).json()) as { items: { metadata: { name: string } }[] };
    expect(list.items.map((i) => i.metadata.name)).toEqual(['e1']);
    let text = '';
    while (!text.includes('"e1"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain('"type":"ADDED"');
    await reader.cancel();
  });

  it('counts each resource in its own etcd for apiserver_storage_objects, polled every period', async () => {
    for (; counted < 3; counted++) expect((await json(s, 'POST', '/api/v1/namespaces/default/events', event(`n${counted}`))).status).toBe(201);
    // the gauge shows the last poll: wait for one that saw every Event in their etcd (the four made here, the server's own)
    const stored = (await etcdKeys(events, '/registry/events/')).length;
    expect(stored).toBeGreaterThanOrEqual(4);
    for (;;) {
      const fams = parseMetrics(await (await s.app.request('/metrics')).text());
      if (sampleValue(fams, 'apiserver_storage_objects', { resource: 'events' }) === stored) {
        expect(sampleValue(fams, 'apiserver_storage_objects', { resource: 'configmaps' })).toBeGreaterThanOrEqual(1);
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});

describe('--etcd-count-metric-poll-period 0', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['AlwaysAllow'], port: 0, log: () => {}, etcdCountMetricPollPeriodMs: 0 });
  });
  afterAll(async () => s?.stop());

  it('leaves apiserver_storage_objects without samples', async () => {
    const fams = parseMetrics(await (await s.app.request('/metrics')).text());
    expect(fams.get('apiserver_storage_objects')?.metrics ?? []).toEqual([]);
  });
});

describe('a malformed --etcd-servers-overrides stops the server at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'etcd-overrides-'));
  it.each([
    [
      ['--etcd-servers', 'http://127.0.0.1:1', '--etcd-servers-overrides', 'events#http://127.0.0.1:2'],
      'Error: --etcd-servers-overrides invalid, must be of format: group/resource#servers, where servers are URLs, semicolon separated',
    ],
    [['--etcd-servers-overrides', '/events#http://127.0.0.1:2'], 'Error: --etcd-servers-overrides needs --etcd-servers (without it objects are stored in SQLite)'],
  ])('%j', { timeout: 60_000 }, async (args, message) => {
    const r = await runCliToExit(['--data-dir', join(dir, 'x'), '--secure-port', '0', ...args]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(message);
  });
});
