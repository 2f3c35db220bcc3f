// Warning headers of writes with fieldValidation=Warn (the default): unknown
// fields with non-Latin-1, non-ASCII, control-character and very long names
// are stored and answered 201 with valid Warning headers (UTF-8 on the wire,
// as kube-apiserver sends them), in-process and over a real socket; a write
// is never answered with an error once it is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

/** Reads back a Warning header value as a client that decodes UTF-8 sees it. */
const fromWire = (value: string): string => Buffer.from(value, 'latin1').toString('utf8');

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
});
afterAll(async () => {
  await s?.stop();
});

const CM = '/api/v1/namespaces/default/configmaps';
const body = (name: string, extra: Record<string, unknown>) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' }, ...extra });

/** The Warning values as a UTF-8 client reads them. */
const warningsOf = (res: Response): string => fromWire(res.headers.get('warning') ?? '');

const CASES: [string, string, string][] = [
  // field name, what the warning says (Go's %q of the name)
  ['latin1', 'ñ', 'unknown field \\"ñ\\"'],
  ['CJK', '中', 'unknown field \\"中\\"'],
  // U+00AD (soft hyphen) is not printable: Go's %q escapes it
  ['mojibake of CJK', 'ä¸\u00ad', 'unknown field \\"ä¸\\\\u00ad\\"'],
  ['emoji', '😀', 'unknown field \\"😀\\"'],
  ['control character', 'a\u0001b', 'unknown field \\"a\\\\x01b\\"'],
  ['newline', 'a\nb', 'unknown field \\"a\\\\nb\\"'],
  ['quote and backslash', 'a"\\b', 'unknown field \\"a\\\\\\"\\\\\\\\b\\"'],
];

describe('unknown fields with odd names (fieldValidation=Warn)', () => {
  it.each(CASES)('%s: stored, 201, and warned about', async (_n, field, said) => {
    const name = `w-${Buffer.from(field).toString('hex').slice(0, 40)}`;
    const res = await s.app.request(CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(name, { [field]: 1 }) });
    expect(res.status).toBe(201);
    expect((await res.json()).metadata.name).toBe(name);
    expect(warningsOf(res)).toBe(`299 - "${said}"`);
    expect((await s.app.request(`${CM}/${name}`)).status).toBe(200);
  });

  it('a very long name is warned about cut to 256 characters', async () => {
    const long = 'x'.repeat(20_000);
    const res = await s.app.request(CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body('w-long', { [long]: 1 }) });
    expect(res.status).toBe(201);
    const w = warningsOf(res);
    expect(w.startsWith('299 - "unknown field \\"xxx')).toBe(true);
    // 256 characters of text, plus the backslash escaping the quote before the name
    expect(w.length).toBe('299 - ""'.length + 256 + 1);
  });

  it('many unknown fields: several headers, limited in total', async () => {
    const extra: Record<string, number> = {};
    for (let i = 0; i < 500; i++) extra[`field-${i}-${'é'.repeat(20)}`] = i;
    const res = await s.app.request(CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body('w-many', extra) });
    expect(res.status).toBe(201);
    const w = warningsOf(res);
    expect(w).toContain('unknown field \\"field-0-');
    expect(w.length).toBeLessThan(4096 * 2);
  });

  it('over a real socket: 201 with the JSON object, not a plain-text error', async () => {
    for (const [, field, said] of CASES) {
      const name = `ws-${Buffer.from(field).toString('hex').slice(0, 40)}`;
      const res = await fetch(`${s.url}${CM}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(name, { [field]: 1 }) });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect((await res.json()).metadata.name).toBe(name);
      expect(warningsOf(res)).toBe(`299 - "${said}"`);
    }
  });

  it('update and patch warn the same way', async () => {
    await s.app.request(CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body('w-6e', {}) });
    const put = await s.app.request(`${CM}/w-6e`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: body('w-6e', { 中: 2 }) });
    expect([200, 201]).toContain(put.status);
    expect(warningsOf(put)).toBe('299 - "unknown field \\"中\\""');
    const patch = await fetch(`${s.url}${CM}/w-6e`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ '😀': 1 }) });
    expect(patch.status).toBe(200);
    expect(warningsOf(patch)).toBe('299 - "unknown field \\"😀\\""');
  });
});

describe('the response of a write', () => {
  it('an unacceptable Accept on PUT is 406 before anything is written', async () => {
    await s.app.request(CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body('w-accept', {}) });
    const res = await s.app.request(`${CM}/w-accept`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', accept: 'image/png' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w-accept' }, data: { a: 'changed' } }),
    });
    expect(res.status).toBe(406);
    expect((await (await s.app.request(`${CM}/w-accept`)).json()).data).toEqual({ a: '1' });
  });
});
