// /openapi/v2 and /openapi/v3 over a real socket, as kube-openapi serves
// them. v2: JSON or the gnostic protobuf form by Accept (406 with no body
// and no Content-Type otherwise), one ETag for both forms (the quoted
// SHA-512 of the JSON document, upper-case hex), Last-Modified,
// `Vary: Accept-Encoding` and `Vary: Accept`, and 304 with neither body nor
// Content-Type on If-None-Match or If-Modified-Since; gzipped (either form)
// for an Accept-Encoding that takes gzip, with the same ETag. v3: the same ETag rule for the index
// and each document; with the current ?hash= the immutable caching headers,
// with another a 301 to the current one.
import { request, type OutgoingHttpHeaders } from 'node:http';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { encodeGnosticV2 } from '../../runtime/http/openapi/gnostic.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
});
afterAll(() => s?.stop());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(headers: OutgoingHttpHeaders = {}, path = '/openapi/v2'): Promise<Answer> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: 'GET', path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const PROTO = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const PROTO_OLD = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

describe('/openapi/v2', () => {
  it('JSON by default, with the ETag of its bytes, Last-Modified and Vary', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers.vary).toBe('Accept-Encoding, Accept');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-cache, private');
    expect(res.headers.etag).toBe(`"${createHash('sha512').update(res.body).digest('hex').toUpperCase()}"`);
    expect(Date.parse(res.headers['last-modified'] as string)).not.toBeNaN();
    expect(JSON.parse(res.body.toString()).swagger).toBe('2.0');
  });

  it.each([PROTO, PROTO_OLD, `${PROTO_OLD}, application/json`, `application/json;q=0.9, ${PROTO}`])('protobuf for %s: the same document, the same ETag', async (accept) => {
    const json = await get();
    const res = await get({ accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(PROTO);
    expect(res.headers.etag).toBe(json.headers.etag);
    expect(res.body.equals(await encodeGnosticV2(JSON.parse(json.body.toString())))).toBe(true);
  });

  it.each(['application/yaml', 'application/vnd.kubernetes.protobuf', 'text/html'])('406 with no body for %s', async (accept) => {
    const res = await get({ accept });
    expect(res.status).toBe(406);
    expect(res.body.length).toBe(0);
    expect(res.headers['content-type']).toBeUndefined();
  });

  it('304 without a body for a matching If-None-Match (either form), 200 for another tag', async () => {
    const etag = (await get()).headers.etag as string;
    for (const accept of ['application/json', PROTO_OLD]) {
      const res = await get({ accept, 'if-none-match': etag });
      expect(res.status).toBe(304);
      expect(res.body.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers.vary).toBe('Accept-Encoding, Accept');
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['last-modified']).toBeUndefined();
    }
    expect((await get({ 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await get({ 'if-none-match': `"other", ${etag}` })).status).toBe(304);
    expect((await get({ 'if-none-match': '"other"' })).status).toBe(200);
  });

  it.each([
    ['application/json', 'gzip'],
    ['application/json', 'deflate, gzip;q=0.5'],
    [PROTO, 'gzip'],
  ])('%s with Accept-Encoding %j: gzipped, the same ETag and bytes once inflated', async (accept, encoding) => {
    const plain = await get({ accept });
    const res = await get({ accept, 'accept-encoding': encoding });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept-Encoding, Accept');
    expect(res.headers['content-type']).toBe(plain.headers['content-type']);
    expect(res.headers.etag).toBe(plain.headers.etag);
    expect(res.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(res.body).equals(plain.body)).toBe(true);
  });

  it.each(['gzip;q=0', 'identity', 'br'])('not gzipped for Accept-Encoding %j', async (encoding) => {
    const res = await get({ 'accept-encoding': encoding });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString()).swagger).toBe('2.0');
  });

  it('a 304 and a 406 are not gzipped and vary on Accept-Encoding', async () => {
    const etag = (await get()).headers.etag as string;
    const nm = await get({ 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(nm.status).toBe(304);
    expect(nm.headers['content-encoding']).toBeUndefined();
    expect(nm.body.length).toBe(0);
    const na = await get({ 'accept-encoding': 'gzip', accept: 'text/html' });
    expect(na.status).toBe(406);
    expect(na.headers['content-encoding']).toBeUndefined();
    expect(na.headers.vary).toBe('Accept-Encoding, Accept');
  });

  it('304 for If-Modified-Since at or after Last-Modified', async () => {
    const lastModified = (await get()).headers['last-modified'] as string;
    expect((await get({ 'if-modified-since': lastModified })).status).toBe(304);
    expect((await get({ 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).status).toBe(200);
  });
});

const sha = (b: Buffer) => createHash('sha512').update(b).digest('hex').toUpperCase();

describe('/openapi/v3', () => {
  it('is never gzipped (kube-openapi compresses only v2)', async () => {
    const index = await get({ 'accept-encoding': 'gzip' }, '/openapi/v3');
    expect(index.headers['content-encoding']).toBeUndefined();
    const url = JSON.parse(index.body.toString()).paths['api/v1'].serverRelativeURL as string;
    const doc = await get({ 'accept-encoding': 'gzip' }, url);
    expect(doc.status).toBe(200);
    expect(doc.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(doc.body.toString()).openapi).toMatch(/^3\./);
  });

  it('the index has the ETag of its bytes and answers 304 to it', async () => {
    const index = await get({}, '/openapi/v3');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('application/json');
    expect(index.headers.etag).toBe(`"${sha(index.body)}"`);
    const again = await get({ 'if-none-match': index.headers.etag as string }, '/openapi/v3');
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('a document at its current hash: immutable, with its ETag; 304 on If-None-Match', async () => {
    const url = JSON.parse((await get({}, '/openapi/v3')).body.toString()).paths['apis/apps/v1'].serverRelativeURL as string;
    const doc = await get({}, url);
    expect(doc.status).toBe(200);
    expect(doc.headers['content-type']).toBe('application/json');
    expect(doc.headers['cache-control']).toBe('public, immutable');
    expect(Date.parse(doc.headers.expires as string)).toBeGreaterThan(Date.now() + 300 * 86400_000);
    expect(doc.headers.vary).toBe('Accept');
    expect(url).toBe(`/openapi/v3/apis/apps/v1?hash=${sha(doc.body)}`);
    expect(doc.headers.etag).toBe(`"${sha(doc.body)}"`);
    const again = await get({ 'if-none-match': doc.headers.etag as string }, url);
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['content-type']).toBeUndefined();
  });

  it('without a hash: not cached; with another hash: 301 to the current one', async () => {
    const url = JSON.parse((await get({}, '/openapi/v3')).body.toString()).paths['api/v1'].serverRelativeURL as string;
    const plain = await get({}, '/openapi/v3/api/v1');
    expect(plain.status).toBe(200);
    expect(plain.headers['cache-control']).toBe('no-cache, private');
    expect(plain.headers.expires).toBeUndefined();
    const stale = await get({}, '/openapi/v3/api/v1?hash=0123');
    expect(stale.status).toBe(301);
    expect(stale.headers.location).toBe(url);
    expect(stale.body.length).toBe(0);
  });

  it('406 when JSON is not acceptable', async () => {
    const res = await get({ accept: 'application/yaml' }, '/openapi/v3/api/v1');
    expect(res.status).toBe(406);
    expect(res.body.length).toBe(0);
    expect((await get({ accept: 'application/json;q=0.5, text/plain' }, '/openapi/v3/api/v1')).status).toBe(200);
  });
});
