// The response headers of a GET of one object, over a real socket, field by
// field as they reach the wire (names, values and order): JSON, protobuf,
// YAML, Table and metadata-only answers, repeated reads (served from the
// cache's bytes), conditional request headers (a resource GET has no ETag
// and never answers 304), and the Status errors of a GET. Also: protobuf
// GETs of two kinds read in turn each get their own kind's bytes. Every
// answer carries its Audit-Id (a new UUID) after Content-Length.
import { request, type OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { loadKubeProtobuf } from '../../runtime/codec/protobuf/index.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const META = 'v=v1;g=meta.k8s.io';
let s: RunningServer;

interface Answer {
  status: number;
  /** The header fields as sent: [name, value] pairs in order. */
  fields: [string, string][];
  body: Buffer;
}

function send(method: string, path: string, headers: OutgoingHttpHeaders = {}, body?: string): Promise<Answer> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const fields: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) fields.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        resolve({ status: res.statusCode ?? 0, fields, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The fields but Date (its value changes), which must be there once; Audit-Id's value (a new UUID each time) as AUDIT_ID. */
function fieldsBut(a: Answer): [string, string][] {
  expect(a.fields.filter(([k]) => k === 'Date')).toHaveLength(1);
  return a.fields.filter(([k]) => k !== 'Date').map(([k, v]): [string, string] => (k === 'Audit-Id' && /^[0-9a-f-]{36}$/.test(v) ? [k, 'AUDIT_ID'] : [k, v]));
}

/** What every answer of a kept-alive connection ends with (node's own fields). */
const CONNECTION: [string, string][] = [
  ['Connection', 'keep-alive'],
  ['Keep-Alive', 'timeout=5'],
];

const answerFields = (type: string, length: number): [string, string][] => [
  ['Content-Type', type],
  ['Cache-Control', 'no-cache, private'],
  ['Content-Length', String(length)],
  ['Audit-Id', 'AUDIT_ID'],
  ...CONNECTION,
];

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
  const post = (path: string, obj: unknown) => send('POST', path, { 'content-type': 'application/json' }, JSON.stringify(obj));
  expect((await post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one', labels: { app: 'x' } }, data: { key: 'value' } })).status).toBe(201);
  const dep = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'one' },
    spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
  expect((await post(DEPLOY, dep)).status).toBe(201);
});
afterAll(() => s.stop());

describe('GET of one object: the header fields as sent', () => {
  it('JSON (no Accept, and Accept: application/json), the same fields and bytes each time', async () => {
    const first = await send('GET', `${CM}/one`, { 'user-agent': 'node' });
    expect(first.status).toBe(200);
    expect(fieldsBut(first)).toEqual(answerFields('application/json', first.body.byteLength));
    expect(first.body.at(-1)).toBe(0x0a);
    for (const headers of [{ 'user-agent': 'node' }, { 'user-agent': 'node', accept: 'application/json' }, { 'user-agent': 'node', accept: '*/*' }]) {
      const again = await send('GET', `${CM}/one`, headers);
      expect(fieldsBut(again)).toEqual(fieldsBut(first));
      expect(again.body.equals(first.body)).toBe(true);
    }
  });

  it('protobuf: the same fields, the same bytes on every read', async () => {
    const first = await send('GET', `${CM}/one`, { accept: PROTOBUF });
    expect(first.status).toBe(200);
    expect(fieldsBut(first)).toEqual(answerFields(PROTOBUF, first.body.byteLength));
    for (let i = 0; i < 3; i++) {
      const again = await send('GET', `${CM}/one`, { accept: PROTOBUF });
      expect(fieldsBut(again)).toEqual(fieldsBut(first));
      expect(again.body.equals(first.body)).toBe(true);
    }
  });

  it('YAML, Table and metadata only: their content types, the same fields otherwise', async () => {
    for (const [accept, type] of [
      ['application/yaml', 'application/yaml'],
      [`application/json;as=Table;${META}`, `application/json;as=Table;${META}`],
      [`application/json;as=PartialObjectMetadata;${META}`, `application/json;as=PartialObjectMetadata;${META}`],
    ]) {
      const r = await send('GET', `${CM}/one`, { accept });
      expect([accept, r.status]).toEqual([accept, 200]);
      expect(fieldsBut(r)).toEqual(answerFields(type, r.body.byteLength));
    }
  });

  it('conditional request headers change nothing: no ETag or Last-Modified, never 304', async () => {
    const plain = await send('GET', `${CM}/one`);
    for (const conditional of [{ 'if-none-match': '*' }, { 'if-none-match': '"x"' }, { 'if-modified-since': new Date(Date.now() + 86_400_000).toUTCString() }]) {
      for (const accept of ['application/json', PROTOBUF]) {
        const r = await send('GET', `${CM}/one`, { ...conditional, accept });
        expect(r.status).toBe(200);
        expect(r.fields.map(([k]) => k.toLowerCase())).not.toContain('etag');
        expect(r.fields.map(([k]) => k.toLowerCase())).not.toContain('last-modified');
        if (accept === 'application/json') expect(r.body.equals(plain.body)).toBe(true);
      }
    }
  });

  it('errors: a missing object is a 404 Status in JSON, or in protobuf for a client that prefers it', async () => {
    const json = await send('GET', `${CM}/missing`);
    expect(json.status).toBe(404);
    expect(fieldsBut(json)).toEqual(answerFields('application/json', json.body.byteLength));
    expect(JSON.parse(json.body.toString())).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, details: { name: 'missing', kind: 'configmaps' } });
    const pb = await send('GET', `${CM}/missing`, { accept: PROTOBUF });
    expect(pb.status).toBe(404);
    expect(fieldsBut(pb)).toEqual(answerFields(PROTOBUF, pb.body.byteLength));
    const bad = await send('GET', `${CM}/one?resourceVersion=x`);
    expect(bad.status).toBe(400);
    expect(fieldsBut(bad)).toEqual(answerFields('application/json', bad.body.byteLength));
  });
});

describe('protobuf GETs of two kinds, in turn', () => {
  it('each answer is its own kind, the same bytes as its first read', async () => {
    const codec = await loadKubeProtobuf();
    const firsts = new Map<string, Buffer>();
    for (let i = 0; i < 4; i++) {
      for (const [path, kind] of [
        [`${CM}/one`, 'ConfigMap'],
        [`${DEPLOY}/one`, 'Deployment'],
      ]) {
        const r = await send('GET', path, { accept: PROTOBUF });
        expect(r.status).toBe(200);
        const obj = codec.decode(r.body) as { kind?: string; metadata?: { name?: string } };
        expect([obj.kind, obj.metadata?.name]).toEqual([kind, 'one']);
        const first = firsts.get(path) ?? (firsts.set(path, r.body), r.body);
        expect(r.body.equals(first)).toBe(true);
      }
    }
  });
});
