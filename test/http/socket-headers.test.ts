// Request headers and response framing over a real socket: repeated request
// fields are read as kube-apiserver's Go server reads them (Header.Get: the
// first field, not node's comma-joined value), Accept-Encoding is matched by
// token as upstream's negotiateContentEncoding does, and answers go out with
// a Content-Length (no chunked encoding) in the negotiated Content-Type.
import { request, type OutgoingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
let s: RunningServer;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request; a header given as an array is sent as that many separate fields, in order. */
function send(method: string, path: string, headers: OutgoingHttpHeaders = {}, body?: string): Promise<Answer> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
  const put = (name: string, value: string) =>
    send('POST', CM, { 'content-type': 'application/json' }, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: value } }));
  expect((await put('small', 'x')).status).toBe(201);
  expect((await put('big', 'y'.repeat(200 * 1024))).status).toBe(201);
});
afterAll(() => s.stop());

describe('repeated request fields: the first one counts (Go Header.Get)', () => {
  it('Accept: the first field decides the encoding', async () => {
    const yamlFirst = await send('GET', `${CM}/small`, { accept: ['application/yaml', 'application/json'] });
    expect(yamlFirst.status).toBe(200);
    expect(yamlFirst.headers['content-type']).toBe('application/yaml');
    const jsonFirst = await send('GET', `${CM}/small`, { accept: ['application/json', 'application/yaml'] });
    expect(jsonFirst.headers['content-type']).toBe('application/json');
  });

  it('Accept: a later field does not rescue an unacceptable first one', async () => {
    const alone = await send('GET', `${CM}/small`, { accept: 'text/html' });
    const twice = await send('GET', `${CM}/small`, { accept: ['text/html', 'application/yaml'] });
    expect(alone.status).toBe(406);
    expect(twice.status).toBe(alone.status);
    expect(twice.headers['content-type']).toBe(alone.headers['content-type']);
    expect(JSON.parse(twice.body.toString()).reason).toBe('NotAcceptable');
  });

  it('Accept-Encoding: only the first field is read', async () => {
    const plain = await send('GET', `${CM}/big`, { 'accept-encoding': ['identity', 'gzip'] });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString()).data.v).toHaveLength(200 * 1024);
    const gz = await send('GET', `${CM}/big`, { 'accept-encoding': ['gzip', 'identity'] });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString()).data.v).toHaveLength(200 * 1024);
  });

  it('Accept-Encoding: tokens as upstream matches them', async () => {
    const rows: [string, boolean][] = [
      ['gzip', true],
      ['deflate, gzip', true],
      ['br ,  gzip ', true],
      ['x-gzip', false],
      ['gzip;q=1', false],
      ['identity', false],
    ];
    for (const [header, gzipped] of rows) {
      const r = await send('GET', `${CM}/big`, { 'accept-encoding': header });
      expect([header, r.headers['content-encoding']]).toEqual([header, gzipped ? 'gzip' : undefined]);
    }
  });

  it('header names match without regard to case', async () => {
    const r = await send('GET', `${CM}/small`, { ACCEPT: 'application/yaml' });
    expect(r.headers['content-type']).toBe('application/yaml');
  });
});

describe('response framing', () => {
  const framed = (r: Answer) => {
    expect(r.headers['transfer-encoding']).toBeUndefined();
    expect(Number(r.headers['content-length'])).toBe(r.body.byteLength);
  };

  it('a JSON object: Content-Length, no chunked encoding', async () => {
    const r = await send('GET', `${CM}/small`, { accept: 'application/json' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['cache-control']).toBe('no-cache, private');
    framed(r);
    expect(JSON.parse(r.body.toString()).metadata.name).toBe('small');
  });

  it('a protobuf object: Content-Length, no chunked encoding, the envelope magic', async () => {
    const r = await send('GET', `${CM}/small`, { accept: PROTOBUF });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(PROTOBUF);
    framed(r);
    expect([...r.body.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
  });

  it('a Status error and a gzipped body are framed the same way', async () => {
    const missing = await send('GET', `${CM}/nope`);
    expect(missing.status).toBe(404);
    framed(missing);
    expect(JSON.parse(missing.body.toString()).reason).toBe('NotFound');
    const gz = await send('GET', `${CM}/big`, { 'accept-encoding': 'gzip' });
    framed(gz);
  });

  it('?pretty: the indented object with a newline, framed', async () => {
    const r = await send('GET', `${CM}/small?pretty=true`);
    expect(r.status).toBe(200);
    framed(r);
    const text = r.body.toString();
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  });

  it('Accept variants: protobuf, a Table, metadata only, a protobuf Table falling back to JSON, and 406', async () => {
    const rows: [string, number, string][] = [
      [`${PROTOBUF}, application/json`, 200, PROTOBUF],
      ['application/json;as=Table;v=v1;g=meta.k8s.io, application/json', 200, 'application/json;as=Table;v=v1;g=meta.k8s.io'],
      ['application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io', 200, 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io'],
      [`${PROTOBUF};as=Table;v=v1;g=meta.k8s.io, application/json`, 200, 'application/json'],
      ['application/yaml', 200, 'application/yaml'],
      ['text/html', 406, 'application/json'],
    ];
    for (const [accept, status, type] of rows) {
      const r = await send('GET', `${CM}/small`, { accept });
      expect([accept, r.status, r.headers['content-type']]).toEqual([accept, status, type]);
      framed(r);
    }
  });

  it('a client preferring protobuf gets its Status in protobuf, framed', async () => {
    const r = await send('GET', `${CM}/nope`, { accept: PROTOBUF });
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe(PROTOBUF);
    framed(r);
    expect([...r.body.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
  });

  it('a GET right after an acknowledged write sees it, in JSON and in protobuf (the same bytes again until the next write)', async () => {
    for (let i = 0; i < 20; i++) {
      const put = await send('PUT', `${CM}/small`, { 'content-type': 'application/json' }, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'small' }, data: { v: `n${i}` } }));
      expect(put.status).toBe(200);
      const json = await send('GET', `${CM}/small`);
      expect(JSON.parse(json.body.toString()).data.v).toBe(`n${i}`);
      const pb = await send('GET', `${CM}/small`, { accept: PROTOBUF });
      const again = await send('GET', `${CM}/small`, { accept: PROTOBUF });
      expect(pb.body.includes(Buffer.from(`n${i}`))).toBe(true);
      expect(again.body.equals(pb.body)).toBe(true);
    }
  });

  it('HEAD answers as GET would, without a body', async () => {
    const r = await send('HEAD', `${CM}/small`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body.byteLength).toBe(0);
  });
});
