// RequestDrain's refusal while draining (upstream's WithWaitGroup answer:
// 503 ServiceUnavailable "apiserver is shutting down", Retry-After: 1; watches
// still start) and its bookkeeping of requests in flight, on a real node
// HTTP server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestDrain } from './drain.ts';

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections();
});

async function serverWith(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ drain: RequestDrain; port: number }> {
  const server = http.createServer(handler);
  servers.push(server);
  const drain = new RequestDrain(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { drain, port: (server.address() as AddressInfo).port };
}

describe('RequestDrain', () => {
  it.each([
    ['GET', '/api/v1/namespaces/default/configmaps', true],
    ['POST', '/api/v1/namespaces/default/configmaps', true],
    ['GET', '/readyz', true],
    ['GET', '/api/v1/namespaces/default/configmaps?watch=true', false],
    ['GET', '/api/v1/watch/namespaces/default/configmaps', false],
    ['GET', '/apis/apps/v1/deployments?watch=1&resourceVersion=5', false],
    ['POST', '/api/v1/namespaces/default/pods/p/exec?command=sh', false],
    ['GET', '/api/v1/namespaces/default/pods/p/log', false],
    ['GET', '/api/v1/namespaces/default/services/s/proxy/a', false],
    ['GET', '/api/v1/namespaces/default/pods/log', true],
    ['GET', '/api/v1/namespaces/default/configmaps/proxy', true],
  ])('while draining, %s %s is refused: %s', async (method, target, refused) => {
    const { drain } = await serverWith(() => {});
    const req = new Request(`http://127.0.0.1${target}`, { method });
    expect(drain.refusal(req)).toBeNull(); // not draining yet
    void drain.begin();
    const r = drain.refusal(req);
    if (!refused) {
      expect(r).toBeNull();
      return;
    }
    expect(r!.status).toBe(503);
    expect(r!.headers.get('retry-after')).toBe('1');
    expect(r!.headers.get('audit-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await r!.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'apiserver is shutting down',
      reason: 'ServiceUnavailable',
      code: 503,
    });
  });

  it("echoes the client's Audit-ID on the 503", async () => {
    const { drain } = await serverWith(() => {});
    void drain.begin();
    const r = drain.refusal(new Request('http://127.0.0.1/api/v1/pods', { headers: { 'Audit-ID': 'from-the-client' } }));
    expect(r!.headers.get('audit-id')).toBe('from-the-client');
  });

  it('counts short requests and watches in flight and waits for the short ones', async () => {
    const pending = new Map<string, http.ServerResponse>();
    const { drain, port } = await serverWith((req, res) => {
      pending.set(req.url!, res);
    });
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          })
          .on('error', reject);
      });
    const a = get('/api/v1/namespaces');
    const w = get('/api/v1/namespaces?watch=true');
    while (pending.size < 2) await new Promise((r) => setTimeout(r, 5));
    expect(drain.counts()).toEqual({ short: 1, watches: 1 });
    const closed = drain.begin();
    const short = drain.shortDone(30_000);
    pending.get('/api/v1/namespaces')!.end('done');
    expect(await short).toBe(true);
    expect(await a).toBe(200);
    expect(drain.counts()).toEqual({ short: 0, watches: 1 });
    expect(await drain.allDone(10)).toBe(false); // the watch is still open
    pending.get('/api/v1/namespaces?watch=true')!.end();
    expect(await drain.allDone(30_000)).toBe(true);
    expect(await w).toBe(200);
    drain.closeConnections(false);
    await closed;
  });

  it('forgets responses whose client went away and reuses their places for later requests', async () => {
    const pending = new Map<string, http.ServerResponse>();
    const { drain, port } = await serverWith((req, res) => {
      pending.set(req.url!.replace(/.*[/=]/, ''), res);
    });
    const send = (name: string) => {
      const path = name.startsWith('w') ? `/api/v1/namespaces/default/configmaps?watch=true&w=${name}` : `/api/v1/namespaces/default/configmaps/${name}`;
      const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => res.resume());
      req.on('error', () => {});
      return req;
    };
    const until = async (cond: () => boolean) => {
      while (!cond()) await new Promise((r) => setTimeout(r, 5));
    };
    const first = ['a', 'b', 'c', 'w1'].map(send);
    await until(() => pending.size === 4);
    expect(drain.counts()).toEqual({ short: 3, watches: 1 });
    first[1].destroy(); // the client of b goes away: its response closes unanswered
    await until(() => drain.counts().short === 2);
    pending.get('a')!.end();
    const next = ['e', 'w2', 'g'].map(send);
    await until(() => pending.size === 7);
    await until(() => drain.counts().short + drain.counts().watches === 5);
    expect(drain.counts()).toEqual({ short: 3, watches: 2 });
    const closed = drain.begin();
    for (const path of ['c', 'e', 'g']) pending.get(path)!.end();
    expect(await drain.shortDone(30_000)).toBe(true);
    expect(await drain.allDone(10)).toBe(false);
    for (const path of ['w1', 'w2']) pending.get(path)!.end();
    expect(await drain.allDone(30_000)).toBe(true);
    expect(drain.counts()).toEqual({ short: 0, watches: 0 });
    for (const r of [...first, ...next]) r.destroy();
    drain.closeConnections(true);
    await closed;
  });
});
