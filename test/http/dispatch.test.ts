// The app's own dispatch (runtime/http/app.ts: every request to one route,
// no router): HEAD is answered as the GET it runs as, with GET's status and
// headers and no body; errors thrown at once or after a wait become Status
// answers; in-process (app.request) and over a socket alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { rawRequest } from '../support/raw-http.ts';

const CM = '/api/v1/namespaces/default/configmaps';
let s: RunningServer;

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
  const res = await s.app.request(CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd' } }) });
  expect(res.status).toBe(201);
});
afterAll(() => s?.stop());

describe('HEAD: the GET, without its body', () => {
  it.each([
    [`${CM}/d`, 200, 'application/json'],
    [`${CM}/missing`, 404, 'application/json'],
    ['/version', 200, 'application/json'],
    ['/apis/nope.example.com', 404, 'text/plain; charset=utf-8'],
  ])('HEAD %s in-process: %i, the GET headers, no body', async (path, status, type) => {
    const get = await s.app.request(path);
    const head = await s.app.request(path, { method: 'HEAD' });
    expect(get.status).toBe(status);
    expect(head.status).toBe(status);
    expect(head.headers.get('content-type')).toBe(type);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect((await get.text()).length).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
  });

  it.each([
    [`${CM}/d`, 200],
    [`${CM}/missing`, 404],
  ])('HEAD %s over a socket: %i, no body', async (path, status) => {
    const head = await rawRequest(s.url, 'HEAD', path);
    expect(head.status).toBe(status);
    expect(head.text).toBe('');
  });
});

describe('errors: a Status whether thrown at once or after a wait', () => {
  it.each([
    // the watch cache answers a consistent GET at once: the NotFound is thrown in the request's turn
    [`${CM}/missing`, 404, 'NotFound'],
    // a bad resourceVersion is reported from the storage read's promise
    [`${CM}/missing?resourceVersion=abc`, 400, 'BadRequest'],
    // a bad path is refused before any stage
    ['/api/v1/namespaces/default/configmaps/a%zz', 400, 'BadRequest'],
  ])('GET %s: %i %s', async (path, code, reason) => {
    const res = await rawRequest(s.url, 'GET', path);
    expect(res.status).toBe(code);
    expect(res.json).toMatchObject({ kind: 'Status', code, reason });
  });
});
