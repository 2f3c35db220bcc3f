// The audit webhook backend against a real HTTPS server of the test: events
// posted as an audit.k8s.io/v1 EventList trusting the kubeconfig's CA with
// its bearer token, batched up to the max size (the rest on flush), each
// event alone in blocking mode, a 5xx retried after the backoff (a fake
// sleep records the waits) and a batch given up after the tries.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCA, issueCertificate, type KeyPairPEM } from '../auth/pki/certs.ts';
import type { AuditEvent } from './event.ts';
import { webhookBackend, type WebhookBackendOptions } from './webhook-backend.ts';

let ca: KeyPairPEM;
let server: Server;
const posts: { auth?: string; body: { kind: string; apiVersion: string; items: { auditID: string }[] } }[] = [];
/** Status codes to answer with, in turn (200 once empty). */
const answers: number[] = [];

beforeAll(async () => {
  ca = await createCA('audit-test-ca');
  const cert = await issueCertificate(ca, { commonName: 'audit-sink', hosts: ['127.0.0.1'], usage: 'server', validityDays: 1 });
  server = createServer({ cert: cert.certPEM, key: cert.keyPEM }, (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      posts.push({ auth: req.headers.authorization, body: JSON.parse(body) as (typeof posts)[number]['body'] });
      res.statusCode = answers.shift() ?? 200;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const ev = (id: string): AuditEvent => ({
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'Metadata',
  auditID: id,
  stage: 'ResponseComplete',
  requestURI: '/api',
  verb: 'get',
  user: { username: 'u' },
  requestReceivedTimestamp: '2026-01-02T03:04:05.000000Z',
  stageTimestamp: '2026-01-02T03:04:05.000000Z',
});

function backend(more: Partial<WebhookBackendOptions>) {
  const sleeps: number[] = [];
  const warnings: string[] = [];
  const b = webhookBackend({
    config: { server: new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/audit`), ca: Buffer.from(ca.certPEM), insecureSkipTLSVerify: false, token: 'sink-token' },
    mode: 'batch',
    bufferSize: 100,
    maxBatchSize: 3,
    maxBatchWaitMs: 3_600_000,
    throttleEnable: false,
    throttleQPS: 10,
    throttleBurst: 15,
    initialBackoffMs: 10_000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    warn: (m) => warnings.push(m),
    ...more,
  });
  const send = (...ids: string[]) => ids.forEach((id) => b.process(ev(id), JSON.stringify(ev(id))));
  return { b, send, sleeps, warnings };
}

describe('the audit webhook backend', () => {
  it('posts EventLists in batches of the max size; flush sends the rest', async () => {
    posts.length = 0;
    const { b, send } = backend({});
    send('a', 'b', 'c', 'd');
    await b.flush();
    // batches are posted side by side: compared in any order
    expect(posts.map((p) => p.body.items.map((i) => i.auditID)).sort((x, y) => y.length - x.length)).toEqual([['a', 'b', 'c'], ['d']]);
    expect(posts[0].body.kind).toBe('EventList');
    expect(posts[0].body.apiVersion).toBe('audit.k8s.io/v1');
    expect(posts[0].auth).toBe('Bearer sink-token');
    await b.close();
  });

  it('blocking mode posts each event alone', async () => {
    posts.length = 0;
    const { b, send } = backend({ mode: 'blocking' });
    send('x', 'y');
    await b.close();
    expect(posts.map((p) => p.body.items.map((i) => i.auditID))).toEqual([['x'], ['y']]);
  });

  it('retries a 5xx after the initial backoff, growing 1.5 times; gives up after the tries', async () => {
    posts.length = 0;
    answers.push(503, 500);
    const first = backend({});
    first.send('r1');
    await first.b.close();
    expect(posts.map((p) => p.body.items[0].auditID)).toEqual(['r1', 'r1', 'r1']);
    expect(first.sleeps).toEqual([10_000, 15_000]);
    expect(first.warnings).toEqual([]);

    posts.length = 0;
    answers.push(500, 500, 500);
    const failing = backend({ tries: 3 });
    failing.send('f1');
    await failing.b.close();
    expect(posts).toHaveLength(3);
    expect(failing.warnings).toEqual(["Error in audit plugin 'webhook' affecting 1 audit events: the server answered 500"]);
  });

  it('a 4xx answer is not retried', async () => {
    posts.length = 0;
    answers.push(400);
    const { b, send, warnings } = backend({});
    send('bad');
    await b.close();
    expect(posts).toHaveLength(1);
    expect(warnings).toHaveLength(1);
  });
});
