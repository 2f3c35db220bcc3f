// Server limits through the HTTP API: in-flight limits for users outside
// system:masters (429 with Retry-After), the request deadline (504, and the
// request's own ?timeout=), the storage size limit of an object (413 for
// every writer), the caps on open watches (429), and a watch whose client
// stops reading is closed while other watchers go on. Requests are held in
// flight deterministically (a body that does not finish arriving, an
// authorizer that waits), never by timing.
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import type { Attributes } from '../../runtime/authz/attributes.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const json = { 'content-type': 'application/json' };

/** Who the request is: the `x-user` header names a user outside system:masters; without it, an admin (system:masters). */
const byHeader: RequestAuthenticator = {
  async authenticate(req) {
    const name = req.header('x-user');
    return { user: name ? { name, groups: [] } : { name: 'test-admin', groups: ['system:masters'] } };
  },
};

/** A request body that arrives only when told to (the request stays in flight meanwhile). */
function heldBody(): { body: ReadableStream<Uint8Array>; finish(text: string): void } {
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      ctl = c;
    },
  });
  return {
    body,
    finish(text) {
      ctl.enqueue(new TextEncoder().encode(text));
      ctl.close();
    },
  };
}

const cmBody = (name: string, data: Record<string, string> = { a: '1' }) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const init = (method: string, headers: Record<string, string>, body?: BodyInit) => ({ method, headers, body, duplex: 'half' }) as RequestInit;

describe('in-flight limits apply to users outside system:masters', () => {
  let s: RunningServer;
  // users named here wait in authorization (after the in-flight stage counted them) until released
  const holds = new Map<string, { arrived: Promise<void>; reached(): void; gate: Promise<void>; release(): void }>();
  const hold = (name: string) => {
    const h = {} as { arrived: Promise<void>; reached(): void; gate: Promise<void>; release(): void };
    h.arrived = new Promise((r) => {
      h.reached = r;
    });
    h.gate = new Promise((r) => {
      h.release = r;
    });
    holds.set(name, h);
    return h;
  };
  beforeAll(async () => {
    s = await startServer({
      authorizationMode: ['AlwaysAllow'],
      maxRequestsInflight: 1,
      maxMutatingRequestsInflight: 1,
      authenticators: [byHeader],
      authorizer: {
        async authorize(a: Attributes) {
          const h = holds.get(a.user.name);
          if (h) {
            h.reached();
            await h.gate;
          }
          return { decision: 'allow', reason: '' };
        },
      },
    });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('a read beyond --max-requests-inflight is 429 with Retry-After; admin and probes pass; writes have their own budget', async () => {
    const h = hold('held-read');
    const held = s.app.request('/api/v1/namespaces', { headers: { 'x-user': 'held-read' } });
    await h.arrived;

    const refused = await s.app.request('/api/v1/namespaces', { headers: { 'x-user': 'alice' } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Too many requests, please try again later.',
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 1 },
      code: 429,
    });
    expect((await s.app.request('/version', { headers: { 'x-user': 'alice' } })).status).toBe(429);
    expect((await s.app.request('/readyz', { headers: { 'x-user': 'alice' } })).status).toBe(200);
    expect((await s.app.request('/api/v1/namespaces')).status).toBe(200); // system:masters
    expect((await s.app.request(CM, init('POST', { ...json, 'x-user': 'alice' }, cmBody('inflight-write')))).status).toBe(201);

    h.release();
    expect((await held).status).toBe(200);
    expect((await s.app.request('/api/v1/namespaces', { headers: { 'x-user': 'alice' } })).status).toBe(200);
  });

  it('a write beyond --max-mutating-requests-inflight is 429 while another write is in flight', async () => {
    const h = hold('held-write');
    const first = s.app.request(CM, init('POST', { ...json, 'x-user': 'held-write' }, cmBody('inflight-held')));
    await h.arrived;
    const refused = await s.app.request(CM, init('POST', { ...json, 'x-user': 'bob' }, cmBody('inflight-bob')));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await refused.json()).reason).toBe('TooManyRequests');
    expect((await s.app.request(`${CM}/inflight-write`, init('DELETE', { 'x-user': 'carol' }))).status).toBe(429);
    expect((await s.app.request(CM, { headers: { 'x-user': 'carol' } })).status).toBe(200);
    h.release();
    expect((await first).status).toBe(201);
    expect((await s.app.request(CM, init('POST', { ...json, 'x-user': 'bob' }, cmBody('inflight-bob')))).status).toBe(201);
  });

  it('a write whose body is still arriving holds its slot', async () => {
    const { body, finish } = heldBody();
    const first = s.app.request(CM, init('POST', { ...json, 'x-user': 'dave' }, body));
    // the write is counted from the in-flight stage until its response: once it is, others wait
    await vi.waitFor(
      async () => {
        const r = await s.app.request(`${CM}/inflight-none`, init('DELETE', { 'x-user': 'erin' }));
        if (r.status !== 429) throw new Error(`got ${r.status}`);
      },
      { timeout: 10_000, interval: 10 },
    );
    finish(cmBody('inflight-body'));
    expect((await first).status).toBe(201);
    expect((await s.app.request(`${CM}/inflight-body`, init('DELETE', { 'x-user': 'erin' }))).status).toBe(200);
  });
});

describe('request deadline (--request-timeout and ?timeout=)', () => {
  let s: RunningServer;
  let quick: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, requestTimeoutMs: 60_000 });
    quick = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, requestTimeoutMs: 50 });
  });
  afterAll(async () => {
    await s?.stop();
    await quick?.stop();
  });

  const TIMEOUT = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Timeout: request did not complete within the allotted timeout',
    reason: 'Timeout',
    details: {},
    code: 504,
  };

  it('a request still being served at the server deadline is 504', async () => {
    const { body, finish } = heldBody();
    const r = await quick.app.request(CM, init('POST', json, body));
    expect(r.status).toBe(504);
    expect(await r.json()).toEqual(TIMEOUT);
    finish(cmBody('late'));
  });

  it('?timeout= shorter than the server deadline is honoured', async () => {
    const { body, finish } = heldBody();
    const r = await s.app.request(`${CM}?timeout=20ms`, init('POST', json, body));
    expect(r.status).toBe(504);
    expect(await r.json()).toEqual(TIMEOUT);
    finish(cmBody('late-2'));
  });

  it.each([
    ['foo', 'invalid timeout specified in the request URL - time: invalid duration "foo"'],
    ['10', 'invalid timeout specified in the request URL - time: missing unit in duration "10"'],
    ['5d', 'invalid timeout specified in the request URL - time: unknown unit "d" in duration "5d"'],
  ])('?timeout=%s is 400', async (v, message) => {
    const r = await s.app.request(`${CM}?timeout=${v}`);
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });

  it('watches are long-running: not ended at the request deadline', async () => {
    const r = await quick.app.request(`${CM}?watch=1&fieldSelector=metadata.name%3Dwatched`);
    expect(r.status).toBe(200);
    const reader = r.body!.getReader();
    // longer than the deadline, then a change the watch must still deliver
    await new Promise((res) => setTimeout(res, 200));
    const created = await quick.app.request(CM, init('POST', json, cmBody('watched')));
    expect(created.status).toBe(201);
    let text = '';
    while (!text.includes('\n')) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      text += new TextDecoder().decode(value);
    }
    expect(JSON.parse(text.split('\n')[0])).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'watched' } } });
    await reader.cancel();
  });
});

describe("object size limit of storage (etcd's 1.5 MiB request limit)", () => {
  // ControllerRevision.data takes any JSON, with no size rule of its own (a ConfigMap stops at 1 MiB)
  const CR = '/apis/apps/v1/namespaces/default/controllerrevisions';
  const cr = (name: string, data: Record<string, string>) => JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, revision: 1, data });
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
  });
  afterAll(async () => {
    await s?.stop();
  });

  const MiB = 1024 * 1024;
  const TOO_LARGE = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcdserver: request is too large', reason: 'RequestEntityTooLarge', code: 413 };
  const big = (n: number) => 'x'.repeat(n);

  it('a create over the limit is 413 and stores nothing; a dry run never reaches storage', async () => {
    const r = await s.app.request(CR, init('POST', json, cr('big', { a: big(1.6 * MiB) })));
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual(TOO_LARGE);
    expect((await s.app.request(`${CR}/big`)).status).toBe(404);
    expect((await s.app.request(`${CR}?dryRun=All`, init('POST', json, cr('big', { a: big(1.6 * MiB) })))).status).toBe(201);
  });

  it('updates, patches and applies that grow an object over the limit are 413 and change nothing', async () => {
    const created = await s.app.request(CR, init('POST', json, cr('grow', { a: big(MiB) })));
    expect(created.status).toBe(201);
    const rv = (await created.json()).metadata.resourceVersion;
    const attempts: [string, string, string, string][] = [
      ['PUT', `${CR}/grow`, 'application/json', cr('grow', { a: big(MiB), b: big(0.6 * MiB) })],
      ['PATCH', `${CR}/grow`, 'application/merge-patch+json', JSON.stringify({ data: { b: big(0.6 * MiB) } })],
      ['PATCH', `${CR}/grow`, 'application/json-patch+json', JSON.stringify([{ op: 'add', path: '/data/b', value: big(0.6 * MiB) }])],
      ['PATCH', `${CR}/grow`, 'application/strategic-merge-patch+json', JSON.stringify({ data: { b: big(0.6 * MiB) } })],
      ['PATCH', `${CR}/grow?fieldManager=t&force=true`, 'application/apply-patch+yaml', cr('grow', { a: big(MiB), b: big(0.6 * MiB) })],
    ];
    for (const [method, path, ct, body] of attempts) {
      const r = await s.app.request(path, init(method, { 'content-type': ct }, body));
      expect(r.status, `${method} ${ct}`).toBe(413);
      expect(await r.json()).toEqual(TOO_LARGE);
    }
    const now = await (await s.app.request(`${CR}/grow`)).json();
    expect(now.metadata.resourceVersion).toBe(rv);
    expect(Object.keys(now.data)).toEqual(['a']);
    // growing within the limit still works
    const small = await s.app.request(`${CR}/grow`, init('PATCH', { 'content-type': 'application/merge-patch+json' }, JSON.stringify({ data: { b: 'small' } })));
    expect(small.status).toBe(200);
  });

  it('server-side apply creating an object over the limit is 413', async () => {
    const r = await s.app.request(`${CR}/applied?fieldManager=t`, init('PATCH', { 'content-type': 'application/apply-patch+yaml' }, cr('applied', { a: big(1.6 * MiB) })));
    expect(r.status).toBe(413);
    expect((await s.app.request(`${CR}/applied`)).status).toBe(404);
  });
});

describe('caps on open watches (--max-watches, --max-watches-per-user)', () => {
  let s: RunningServer;
  const open: ReadableStreamDefaultReader<Uint8Array>[] = [];
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, maxWatches: 3, maxWatchesPerUser: 2, authenticators: [byHeader] });
  });
  afterAll(async () => {
    for (const r of open) await r.cancel().catch(() => {});
    await s?.stop();
  });
  const watch = async (user?: string) => {
    const r = await s.app.request(`${CM}?watch=1`, { headers: user ? { 'x-user': user } : {} });
    if (r.status === 200) open.push(r.body!.getReader());
    return r;
  };

  it('refuses a user over the per-user cap, then everyone over the total cap, with 429', async () => {
    expect((await watch('alice')).status).toBe(200);
    expect((await watch('alice')).status).toBe(200);
    const mine = await watch('alice');
    expect(mine.status).toBe(429);
    expect(mine.headers.get('retry-after')).toBe('1');
    expect(await mine.json()).toMatchObject({ code: 429, reason: 'TooManyRequests', message: 'too many watches: user "alice" may have 2 open watches' });
    expect((await watch('bob')).status).toBe(200);
    const total = await watch(); // the admin too
    expect(total.status).toBe(429);
    expect((await total.json()).message).toBe('too many watches: the server allows 3 open watches');
    // lists are not watches
    expect((await s.app.request(CM, { headers: { 'x-user': 'alice' } })).status).toBe(200);
  });

  it('a watch that ends gives its slot back', async () => {
    await open.shift()!.cancel();
    expect((await watch('alice')).status).toBe(200);
    // a watch that ended on its own (timeoutSeconds) gives it back too
    await open.shift()!.cancel();
    const short = await s.app.request(`${CM}?watch=1&timeoutSeconds=-1`, { headers: { 'x-user': 'alice' } });
    expect(short.status).toBe(200);
    await short.text();
    expect((await watch('alice')).status).toBe(200);
  });
});

describe('a watch whose client stops reading', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, watchStallTimeoutMs: 2000 });
  });
  afterAll(async () => {
    await s?.stop();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is closed after the stall timeout while another watcher keeps receiving', async () => {
    // the server's log (klog lines on standard error) says when it ended the stalled watch
    const warn = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stalledEnded = () => warn.mock.calls.some((c) => String(c[0]).includes('its client took no data'));
    const port = new URL(s.url).port;

    // the healthy watcher reads everything
    const healthy = await fetch(`${s.url}${CM}?watch=1&labelSelector=stall`);
    const reader = healthy.body!.getReader();
    const seen: string[] = [];
    let buf = '';
    const reading = (async () => {
      const dec = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += dec.decode(value, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          seen.push(JSON.parse(buf.slice(0, nl)).object.metadata.name);
          buf = buf.slice(nl + 1);
        }
      }
    })();

    // the stalled one: a raw socket that reads the response head, then nothing more
    const sock = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((res) => sock.once('connect', () => res()));
    sock.write(`GET ${CM}?watch=1&labelSelector=stall HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const head = await new Promise<string>((res) => sock.once('data', (d) => res(d.toString('latin1'))));
    expect(head.startsWith('HTTP/1.1 200')).toBe(true);
    sock.pause();
    let closed = false;
    const done = new Promise<void>((res) =>
      sock.on('close', () => {
        closed = true;
        res();
      }),
    );
    sock.on('error', () => {});

    // produce events until the stalled socket's buffers are full and the server gives up on it
    const value = 'v'.repeat(512 * 1024);
    let made = 0;
    while (!stalledEnded() && made < 400) {
      const r = await s.app.request(CM, init('POST', json, JSON.stringify({ metadata: { name: `stall-${made}`, labels: { stall: 'y' } }, data: { v: value } })));
      expect(r.status).toBe(201);
      made++;
      if (made % 8 === 0) await new Promise((res) => setTimeout(res, 50));
    }
    await vi.waitFor(
      () => {
        if (!stalledEnded()) throw new Error('not yet');
      },
      { timeout: 20_000, interval: 50 },
    );

    // the stalled client, reading again, finds its stream cut short: the connection ends
    // without the last chunk of a complete chunked response
    let tail = '';
    sock.on('data', (d) => {
      tail = (tail + d.toString('latin1')).slice(-16);
    });
    sock.resume();
    await done;
    expect(closed).toBe(true);
    expect(tail.endsWith('0\r\n\r\n')).toBe(false);

    // the healthy watcher got every event and still gets new ones
    await s.app.request(CM, init('POST', json, JSON.stringify({ metadata: { name: 'stall-after', labels: { stall: 'y' } } })));
    await vi.waitFor(
      () => {
        if (!seen.includes('stall-after')) throw new Error('not yet');
      },
      { timeout: 20_000, interval: 20 },
    );
    expect(seen.filter((n) => n.startsWith('stall-') && n !== 'stall-after')).toHaveLength(made);
    await reader.cancel();
    await reading.catch(() => {});
  }, 90_000);
});
