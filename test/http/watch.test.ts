// WATCH through app.request(): event streams, resourceVersion starts,
// timeoutSeconds, bookmarks and initial-events-end, 410 as an ERROR event,
// selectors entering and leaving, Table events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

let s: RunningServer;
beforeAll(async () => {
  // sendInitialEvents needs WatchList, alpha (off) in 1.31
  s = await startServer({ authorizationMode: ['AlwaysAllow'], historyWindowMs: 60_000, featureGates: { WatchList: true } });
});
afterAll(async () => {
  await s?.stop();
});

const CM = '/api/v1/namespaces/default/configmaps';
const post = async (path: string, body: unknown, method = 'POST', ct = 'application/json') => {
  const r = await s.app.request(path, { method, headers: { 'content-type': ct }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
};

/** Reads events from a watch response until `count` arrived or `ms` passed. */
async function collect(res: Response, count: number, ms = 3000): Promise<any[]> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  const events: any[] = [];
  const deadline = Date.now() + ms;
  while (events.length < count && Date.now() < deadline) {
    const r = await Promise.race([
      reader.read(),
      new Promise<{ done: true; value: undefined }>((res2) => setTimeout(() => res2({ done: true, value: undefined }), Math.max(1, deadline - Date.now()))),
    ]);
    if (r.done) break;
    buf += dec.decode(r.value, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      events.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  }
  await reader.cancel().catch(() => {});
  return events;
}

describe('watch', () => {
  it('unset resourceVersion: synthetic ADDED for current state, then changes', async () => {
    await post(CM, { metadata: { name: 'w-existing', labels: { w: 'a' } } });
    const res = await s.app.request(`${CM}?watch=1&labelSelector=w`);
    expect(res.headers.get('content-type')).toBe('application/json');
    const p = collect(res, 3);
    await new Promise((r) => setTimeout(r, 50));
    await post(CM, { metadata: { name: 'w-new', labels: { w: 'b' } } });
    await s.app.request(`${CM}/w-new`, { method: 'DELETE' });
    const events = await p;
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED w-existing', 'ADDED w-new', 'DELETED w-new']);
  });

  it('from a resourceVersion: only changes after it', async () => {
    const c = await post(CM, { metadata: { name: 'w-rv' } });
    const rv = c.json.metadata.resourceVersion;
    await post(`${CM}/w-rv`, { data: { a: '1' } }, 'PATCH', 'application/merge-patch+json');
    const events = await collect(await s.app.request(`${CM}?watch=true&resourceVersion=${rv}&fieldSelector=metadata.name%3Dw-rv`), 1);
    expect(events[0].type).toBe('MODIFIED');
    expect(events[0].object.data).toEqual({ a: '1' });
  });

  it('an object leaving the selector is DELETED, entering it is ADDED', async () => {
    await post(CM, { metadata: { name: 'w-sel', labels: { team: 'x' } } });
    const res = await s.app.request(`${CM}?watch=1&labelSelector=team%3Dy`);
    const p = collect(res, 2);
    await new Promise((r) => setTimeout(r, 50));
    await post(`${CM}/w-sel`, { metadata: { labels: { team: 'y' } } }, 'PATCH', 'application/merge-patch+json');
    await post(`${CM}/w-sel`, { metadata: { labels: { team: 'z' } } }, 'PATCH', 'application/merge-patch+json');
    expect((await p).map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
  });

  it('sendInitialEvents ends the initial state with an annotated BOOKMARK', async () => {
    await post(CM, { metadata: { name: 'w-init', labels: { init: 'yes' } } });
    const res = await s.app.request(`${CM}?watch=1&labelSelector=init&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`);
    const events = await collect(res, 2);
    expect(events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'w-init' } } });
    expect(events[1].type).toBe('BOOKMARK');
    expect(events[1].object.metadata.annotations['k8s.io/initial-events-end']).toBe('true');
    expect(events[1].object.metadata.resourceVersion).toMatch(/^\d+$/);
  });

  it('invalid watch options are 422', async () => {
    const r = await s.app.request(`${CM}?watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1`);
    expect(r.status).toBe(422);
    expect((await r.json()).message).toContain('resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
  });

  it('timeoutSeconds ends the stream', async () => {
    const t0 = Date.now();
    const res = await s.app.request(`${CM}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dnone`);
    const text = await res.text();
    expect(text).toBe('');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  });

  it('Table events for kubectl get -w', async () => {
    const res = await s.app.request(`${CM}?watch=1&fieldSelector=metadata.name%3Dw-existing`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    const [ev] = await collect(res, 1);
    expect(ev.type).toBe('ADDED');
    expect(ev.object.kind).toBe('Table');
    expect(ev.object.rows[0].cells[0]).toBe('w-existing');
  });
});

describe('watch from a compacted revision', () => {
  it('is an ERROR event carrying a 410 Expired Status', async () => {
    const small = await startServer({ authorizationMode: ['AlwaysAllow'], historyWindowMs: 1 });
    try {
      const mk = (name: string) => small.app.request(CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name } }) });
      await mk('a');
      for (let i = 0; i < 50; i++) await mk(`b${i}`);
      // history beyond the 1 ms window is compacted in the background; wait for it
      let events: any[] = [];
      for (let attempt = 0; attempt < 50; attempt++) {
        await new Promise((r) => setTimeout(r, 100));
        events = await collect(await small.app.request(`${CM}?watch=1&resourceVersion=2`), 1, 500);
        if (events[0]?.type === 'ERROR') break;
      }
      expect(events[0].type).toBe('ERROR');
      expect(events[0].object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    } finally {
      await small.stop();
    }
  });
});

describe('watch of one object', () => {
  it('by name (field selector, or in the legacy /watch/ path) sees only that object', async () => {
    await post(CM, { metadata: { name: 'one-a' } });
    await post(CM, { metadata: { name: 'one-b' } });
    // (a GET of the object path with ?watch=1 is a plain get, as upstream: test/http/paths.test.ts)
    for (const path of [`${CM}?watch=1&fieldSelector=metadata.name%3Done-a`, '/api/v1/watch/namespaces/default/configmaps/one-a']) {
      const events = await collect(await s.app.request(path), 2, 800);
      expect(events.map((e) => e.object.metadata.name)).toEqual(['one-a']);
    }
  });
});
