// The webhook POST of a clientConfig against real HTTPS servers of the
// test: the caBundle is the trust (another CA is refused), a webhook that
// never answers fails after the (injected) time limit, a query is added to
// the URL, and a `service` is called at the address its resolver gives with
// the certificate checked for <name>.<namespace>.svc; the resolver reads
// EndpointSlices, and Endpoints for a Service without slices.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCA, issueCertificate, type KeyPairPEM } from '../auth/pki/certs.ts';
import { webhookPost } from './client-config.ts';
import { serviceResolver } from './service-resolver.ts';
import type { Obj } from '../storage/interface.ts';

let ca: KeyPairPEM;
let echo: Server;
let silent: Server;
let svc: Server;
const port = (s: Server) => (s.address() as AddressInfo).port;
const b64 = (pem: string) => Buffer.from(pem).toString('base64');

beforeAll(async () => {
  ca = await createCA('test-ca');
  const ip = await issueCertificate(ca, { commonName: 'hook', hosts: ['127.0.0.1'], usage: 'server', validityDays: 1 });
  const named = await issueCertificate(ca, { commonName: 'hook', hosts: ['conv.hooks.svc'], usage: 'server', validityDays: 1 });
  const answer = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => res.end(JSON.stringify({ path: req.url, got: JSON.parse(body) as unknown })));
  };
  echo = createServer({ cert: ip.certPEM, key: ip.keyPEM }, answer);
  svc = createServer({ cert: named.certPEM, key: named.keyPEM }, answer);
  // reads the request and never answers
  silent = createServer({ cert: ip.certPEM, key: ip.keyPEM }, (req) => req.resume());
  await Promise.all([echo, silent, svc].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
});
afterAll(async () => {
  for (const s of [echo, silent, svc]) s.closeAllConnections();
  await Promise.all([echo, silent, svc].map((s) => new Promise((r) => s.close(r))));
});

describe('webhookPost', () => {
  it('posts to a url, trusting the caBundle', async () => {
    const c = webhookPost({ url: `https://127.0.0.1:${port(echo)}/convert`, caBundle: b64(ca.certPEM) }, { timeoutMs: 30_000 });
    const res = await c.post('{"x":1}');
    expect(JSON.parse(res.body.toString())).toEqual({ path: '/convert', got: { x: 1 } });
    c.close();
  });

  it('refuses a server whose certificate another CA signed', async () => {
    const other = await createCA('other-ca');
    const c = webhookPost({ url: `https://127.0.0.1:${port(echo)}/convert`, caBundle: b64(other.certPEM) }, { timeoutMs: 30_000 });
    await expect(c.post('{}')).rejects.toThrow(/certificate/);
    c.close();
  });

  it('gives up on a webhook that never answers after the time limit, saying it timed out', async () => {
    const c = webhookPost({ url: `https://127.0.0.1:${port(silent)}/`, caBundle: b64(ca.certPEM) }, { timeoutMs: 50 });
    await expect(c.post('{}')).rejects.toMatchObject({ message: 'the webhook did not answer within 50ms', timedOut: true });
    c.close();
  });

  it('adds the query to the URL it calls and names', async () => {
    const c = webhookPost({ url: `https://127.0.0.1:${port(echo)}/hook`, caBundle: b64(ca.certPEM) }, { timeoutMs: 30_000, query: 'timeout=10s' });
    expect(c.url).toBe(`https://127.0.0.1:${port(echo)}/hook?timeout=10s`);
    expect(JSON.parse((await c.post('{}')).body.toString())).toEqual({ path: '/hook?timeout=10s', got: {} });
    c.close();
  });

  it('calls a service at its resolved address, checking the certificate for name.namespace.svc', async () => {
    const seen: unknown[] = [];
    const c = webhookPost(
      { service: { namespace: 'hooks', name: 'conv', port: 443, path: '/to' }, caBundle: b64(ca.certPEM) },
      {
        timeoutMs: 30_000,
        resolveService: (ns, name, p) => {
          seen.push([ns, name, p]);
          return Promise.resolve({ host: '127.0.0.1', port: port(svc) });
        },
      },
    );
    expect(JSON.parse((await c.post('{}')).body.toString())).toEqual({ path: '/to', got: {} });
    expect(seen).toEqual([['hooks', 'conv', 443]]);
    expect(c.url).toBe('https://conv.hooks.svc:443/to');
    c.close();
  });
});

describe('serviceResolver', () => {
  const slice = (svc: string, ready: boolean | undefined, ip: string, ports: Obj[]): Obj => ({
    metadata: { labels: { 'kubernetes.io/service-name': svc } },
    endpoints: [{ addresses: [ip], conditions: ready === undefined ? {} : { ready } }],
    ports,
  });
  const objects: Record<string, Obj> = {
    'services/ns/conv': { spec: { ports: [{ name: 'https', port: 443, targetPort: 8443 }] } },
    'endpoints/ns/conv': { subsets: [{ addresses: [{ ip: '10.0.0.7' }], ports: [{ name: 'https', port: 8443 }] }] },
    'services/ns/empty': { spec: { ports: [{ port: 443 }] } },
    'endpoints/ns/empty': { subsets: [] },
    'services/ns/sliced': { spec: { ports: [{ name: 'https', port: 443 }] } },
    // the Endpoints object is not read when the Service has slices
    'endpoints/ns/sliced': { subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ name: 'https', port: 1 }] }] },
    'services/ns/unready': { spec: { ports: [{ port: 443 }] } },
  };
  const slices: Obj[] = [
    slice('sliced', false, '10.0.1.1', [{ name: 'https', port: 9443 }]),
    slice('sliced', true, '10.0.1.2', [{ name: 'https', port: 9443 }]),
    slice('unready', false, '10.0.2.1', [{ name: '', port: 9443 }]),
    slice('other', undefined, '10.0.3.1', [{ name: 'https', port: 1 }]),
  ];
  const resolve = serviceResolver({
    get: (resource, ns, name) => {
      const o = objects[`${resource}/${ns}/${name}`];
      return o ? Promise.resolve(o) : Promise.reject(new Error('not found'));
    },
    endpointSlices: () => Promise.resolve(slices),
  });
  it.each<[string, number, string | { host: string; port: number }]>([
    ['conv', 443, { host: '10.0.0.7', port: 8443 }],
    ['conv', 444, 'no service port 444 found for service "conv"'],
    ['empty', 443, 'no endpoints available for service "empty"'],
    ['missing', 443, 'service "missing" not found'],
    ['sliced', 443, { host: '10.0.1.2', port: 9443 }],
    ['unready', 443, 'no endpoints available for service "unready"'],
  ])('%s:%i', async (name, p, want) => {
    if (typeof want === 'string') await expect(resolve('ns', name, p)).rejects.toThrow(want);
    else await expect(resolve('ns', name, p)).resolves.toEqual(want);
  });
});
