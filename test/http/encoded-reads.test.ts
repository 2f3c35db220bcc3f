// GET and LIST answered from the objects' served JSON (the watch cache's
// strings, or the stored text for paged lists) give byte for byte the body the
// parsed-object path gives: `?pretty=true` still takes the parsed path, and
// its body re-serialized compactly is what that path answers without pretty,
// and the protobuf answers are the codec's encoding of that same object.
// A list too big for one buffer is streamed with the same bytes, in JSON and
// in protobuf. Also: a
// write acknowledged to a client is seen by every GET and LIST made
// after it, across many connections at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { Agent, fetch as undiciFetch } from 'undici';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { loadKubeProtobuf } from '../../runtime/codec/protobuf/index.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  const post = (path: string, body: unknown) => s.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  for (const ns of ['enc-a', 'enc-b']) expect((await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status).toBe(201);
  const rows: [string, Record<string, unknown>][] = [
    ['plain', { data: { k: 'v' } }],
    ['unicode', { data: { k: 'é😀 "quoted" \\ \n\u2028' }, metadata: { annotations: { 'a/b': 'ü' } } }],
    ['no-data', {}],
    ['numbers-in-keys', { data: { '10': 'x', '2': 'y', b: 'z' }, metadata: { labels: { tier: 'front', '1': 'one' } } }],
    ['binary', { binaryData: { bin: Buffer.from([0, 255, 10]).toString('base64') }, metadata: { labels: { tier: 'back' } } }],
  ];
  for (const ns of ['enc-a', 'enc-b']) {
    for (const [name, extra] of rows) {
      const { metadata, ...rest } = extra as { metadata?: Record<string, unknown> };
      const r = await post(`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...metadata }, ...rest });
      expect(r.status).toBe(201);
    }
  }
  const dep = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', labels: { app: 'd' } },
    spec: { replicas: 2, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
  expect((await post('/apis/apps/v1/namespaces/enc-a/deployments', dep)).status).toBe(201);
  // one object changed after it was made, and one deleted
  await s.app.request('/api/v1/namespaces/enc-a/configmaps/plain', { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { k: 'changed' } }) });
  await s.app.request('/api/v1/namespaces/enc-b/configmaps/no-data', { method: 'DELETE' });
});
afterAll(async () => {
  await s?.stop();
});

async function text(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; type: string | null }> {
  const res = await s.app.request(path, { headers });
  const raw = Buffer.from(await res.arrayBuffer());
  const body = res.headers.get('content-encoding') === 'gzip' ? gunzipSync(raw).toString() : raw.toString();
  return { status: res.status, body, type: res.headers.get('content-type') };
}

describe('reads from served JSON are byte for byte the parsed-object answers', () => {
  const paths = [
    '/api/v1/namespaces/enc-a/configmaps/plain',
    '/api/v1/namespaces/enc-a/configmaps/unicode',
    '/api/v1/namespaces/enc-a/configmaps/numbers-in-keys',
    '/api/v1/namespaces/enc-b/configmaps/binary?resourceVersion=0',
    '/api/v1/namespaces/enc-a/configmaps',
    '/api/v1/namespaces/enc-b/configmaps',
    '/api/v1/configmaps',
    '/api/v1/configmaps?resourceVersion=0',
    '/api/v1/configmaps?labelSelector=tier',
    '/api/v1/configmaps?labelSelector=tier%3Dfront',
    '/api/v1/configmaps?fieldSelector=metadata.name%3Dunicode',
    '/api/v1/configmaps?fieldSelector=metadata.namespace!%3Denc-a&labelSelector=tier!%3Dfront',
    '/api/v1/configmaps?limit=2',
    '/api/v1/namespaces/enc-a/configmaps?limit=3',
    '/api/v1/configmaps?limit=2&labelSelector=tier',
    '/api/v1/configmaps?limit=1&resourceVersion=0',
    '/apis/apps/v1/namespaces/enc-a/deployments',
    '/apis/apps/v1/namespaces/enc-a/deployments/d',
    '/apis/apps/v1/deployments?labelSelector=app%3Dd',
    '/api/v1/namespaces/enc-a/configmaps?labelSelector=none%3Dmatch',
  ];
  it.each(paths)('%s', async (path) => {
    const compact = await text(path);
    expect(compact.status).toBe(200);
    const pretty = await text(`${path}${path.includes('?') ? '&' : '?'}pretty=true`);
    expect(pretty.body).not.toBe(compact.body);
    expect(compact.body).toBe(`${JSON.stringify(JSON.parse(pretty.body))}\n`);
    expect(compact.type).toBe(pretty.type);
  });

  it.each(paths)('protobuf %s', async (path) => {
    const codec = await loadKubeProtobuf();
    const res = await s.app.request(path, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    const bytes = Buffer.from(await res.arrayBuffer());
    // the parsed-object path encodes the object the JSON answer shows
    const pretty = await text(`${path}${path.includes('?') ? '&' : '?'}pretty=true`);
    expect(bytes.toString('hex')).toBe(Buffer.from(codec.encode(JSON.parse(pretty.body))).toString('hex'));
    // twice: the second time from the message bytes kept for each object
    const again = Buffer.from(await (await s.app.request(path, { headers: { accept: 'application/vnd.kubernetes.protobuf' } })).arrayBuffer());
    expect(again.equals(bytes)).toBe(true);
  });

  it('follows continue tokens page by page with the same bodies', async () => {
    let cont = '';
    let pages = 0;
    do {
      const path = `/api/v1/configmaps?limit=3${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`;
      const compact = await text(path);
      const pretty = await text(`${path}&pretty=true`);
      expect(compact.body).toBe(`${JSON.stringify(JSON.parse(pretty.body))}\n`);
      cont = JSON.parse(compact.body).metadata.continue ?? '';
      pages++;
    } while (cont);
    expect(pages).toBeGreaterThan(2);
  });

  it('gzips a large list the same way', async () => {
    const ns = 'enc-big';
    await s.app.request('/api/v1/namespaces', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
    });
    for (let i = 0; i < 200; i++) {
      await s.app.request(`/api/v1/namespaces/${ns}/configmaps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` }, data: { v: 'x'.repeat(1000) } }),
      });
    }
    const res = await s.app.request(`/api/v1/namespaces/${ns}/configmaps`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const body = gunzipSync(Buffer.from(await res.arrayBuffer())).toString();
    const pretty = await text(`/api/v1/namespaces/${ns}/configmaps?pretty=true`);
    expect(body).toBe(`${JSON.stringify(JSON.parse(pretty.body))}\n`);
  });

  it('still answers Table, metadata-only, YAML and errors', async () => {
    const table = await text('/api/v1/namespaces/enc-a/configmaps', { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(JSON.parse(table.body).kind).toBe('Table');
    const meta = await text('/api/v1/namespaces/enc-a/configmaps/plain', { accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' });
    expect(JSON.parse(meta.body)).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'plain' } });
    expect(JSON.parse(meta.body).data).toBeUndefined();
    const yaml = await text('/api/v1/namespaces/enc-a/configmaps/plain', { accept: 'application/yaml' });
    expect(yaml.body).toContain('k: changed');
    const missing = await text('/api/v1/namespaces/enc-a/configmaps/none');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).message).toBe('configmaps "none" not found');
    const gone = await text('/api/v1/namespaces/enc-b/configmaps/no-data');
    expect(gone.status).toBe(404);
    const badRV = await text('/api/v1/namespaces/enc-a/configmaps/plain?resourceVersion=abc');
    expect(badRV.status).toBe(400);
  });
});

describe('big lists are streamed', () => {
  it('over a socket: chunked, no Content-Length, the bytes of the parsed-object answer, gzipped when asked', async () => {
    const srv = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        httpGet(`${srv.url}${path}`, { headers }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (b: Buffer) => parts.push(b));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
          res.on('error', reject);
        }).on('error', reject);
      });
    try {
      const post = (body: unknown) => srv.app.request('/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      for (let i = 0; i < 300; i++) expect((await post({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}` }, data: { v: 'é'.repeat(i) + 'x'.repeat(1000) } })).status).toBe(201);
      const path = '/api/v1/namespaces/default/configmaps';
      const pretty = await get(`${path}?pretty=true`);
      const want = `${JSON.stringify(JSON.parse(pretty.body.toString()))}\n`;
      const plain = await get(path);
      expect(plain.headers['transfer-encoding']).toBe('chunked');
      expect(plain.headers['content-length']).toBeUndefined();
      expect(plain.headers['content-type']).toBe('application/json');
      expect(plain.body.toString()).toBe(want);
      const zipped = await get(path, { 'accept-encoding': 'gzip' });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['transfer-encoding']).toBe('chunked');
      expect(gunzipSync(zipped.body).toString()).toBe(want);
      // a page of it is small: one buffer with its length
      const page = await get(`${path}?limit=3`);
      expect(page.headers['content-length']).toBe(String(page.body.length));
      // protobuf too: chunked, the codec's encoding of the same list, the same gzipped; twice (the items then kept)
      const codec = await loadKubeProtobuf();
      const PB = 'application/vnd.kubernetes.protobuf';
      for (const q of ['', '?labelSelector=missing!%3Dx', '?fieldSelector=metadata.name!%3Dbig-7']) {
        const wantPB = Buffer.from(codec.encode(JSON.parse((await get(`${path}${q}${q ? '&' : '?'}pretty=true`)).body.toString())));
        for (let round = 0; round < 2; round++) {
          const pb = await get(`${path}${q}`, { accept: PB });
          expect(pb.headers['content-type']).toBe(PB);
          expect(pb.headers['transfer-encoding']).toBe('chunked');
          expect(pb.headers['content-length']).toBeUndefined();
          expect(pb.body.toString('hex')).toBe(wantPB.toString('hex'));
        }
        const pbZipped = await get(`${path}${q}`, { accept: PB, 'accept-encoding': 'gzip' });
        expect(pbZipped.headers['content-encoding']).toBe('gzip');
        expect(gunzipSync(pbZipped.body).equals(wantPB)).toBe(true);
      }
    } finally {
      await srv.stop();
    }
  });
});

describe('reads see every acknowledged write', () => {
  it('a GET and a LIST after a write, in tight loops over many connections, see that write', async () => {
    const srv = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
    const agent = new Agent({ connections: 32 });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await undiciFetch(`${srv.url}${path}`, {
        method,
        dispatcher: agent,
        headers: body === undefined ? {} : { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as any };
    };
    try {
      const NS = '/api/v1/namespaces/default/configmaps';
      let checked = 0;
      const loop = async (n: number) => {
        const name = `rw-${n}`;
        for (let round = 0; round < 15; round++) {
          const w =
            round === 0
              ? await call('POST', NS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { loop: String(n) } }, data: { round: '0' } })
              : await call('PATCH', `${NS}/${name}`, { data: { round: String(round) } });
          expect(w.status).toBe(round === 0 ? 201 : 200);
          const got = await call('GET', `${NS}/${name}`);
          expect(got.json.data.round).toBe(String(round));
          expect(got.json.metadata.resourceVersion).toBe(w.json.metadata.resourceVersion);
          const listed = await call('GET', `${NS}?labelSelector=loop%3D${n}`);
          expect(listed.json.items.map((o: any) => o.data.round)).toEqual([String(round)]);
          expect(Number(listed.json.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(w.json.metadata.resourceVersion));
          checked++;
        }
        await call('DELETE', `${NS}/${name}`);
        expect((await call('GET', `${NS}/${name}`)).status).toBe(404);
        expect((await call('GET', `${NS}?labelSelector=loop%3D${n}`)).json.items).toEqual([]);
      };
      await Promise.all(Array.from({ length: 24 }, (_, n) => loop(n)));
      expect(checked).toBe(24 * 15);
    } finally {
      await agent.close();
      await srv.stop();
    }
  });
});
