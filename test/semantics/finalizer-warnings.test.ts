// The Warning header for finalizer names without a domain, on create and on
// an update that adds one; none for qualified or standard names.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { server } from './helpers.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

const CM = '/api/v1/namespaces/default/configmaps';
const TEXT = (n: string) => `299 - "metadata.finalizers: \\"${n}\\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"`;

async function send(method: string, path: string, body: unknown) {
  const res = await s.app.request(path, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { code: res.status, warning: res.headers.get('warning'), body: (await res.json()) as any };
}

describe('finalizer name warnings', () => {
  it.each([
    ['plain name', ['cleanup'], TEXT('cleanup')],
    ['qualified name', ['example.com/cleanup'], null],
    ['standard name', ['orphan'], null],
  ])('create with %s', async (_n, finalizers, warning) => {
    const r = await send('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'fw-', finalizers } });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.warning).toBe(warning);
  });

  it('update warns only for a finalizer it adds', async () => {
    const c = await send('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fw-upd', finalizers: ['keep'] } });
    expect(c.warning).toBe(TEXT('keep'));
    const same = await send('PUT', `${CM}/fw-upd`, { ...c.body, data: { a: 'b' } });
    expect(same.code).toBe(200);
    expect(same.warning).toBeNull();
    const added = await send('PUT', `${CM}/fw-upd`, { ...same.body, metadata: { ...same.body.metadata, finalizers: ['keep', 'extra'] } });
    expect(added.code).toBe(200);
    expect(added.warning).toBe(TEXT('extra'));
    const clear = await send('PUT', `${CM}/fw-upd`, { ...added.body, metadata: { ...added.body.metadata, finalizers: [] } });
    expect(clear.code).toBe(200);
  });
});
