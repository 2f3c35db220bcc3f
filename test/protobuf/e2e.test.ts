// End-to-end protobuf against the real server process: objects created in
// JSON read back in protobuf (and checked with protoc against upstream's
// protos), objects sent in protobuf (encoded by protoc) read back in JSON,
// lists, a protobuf watch seeing ADDED, MODIFIED and DELETED frames, Status
// errors in protobuf, 400 for a body without the prefix, 406 for kinds with no
// protobuf form. protoc checks skip when protoc or the reference data is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { loadKubeProtobuf, splitFrames, type KubeProtobuf } from '../../runtime/codec/protobuf/index.ts';
import { unwrap, wrap } from '../../runtime/codec/protobuf/envelope.ts';
import { referenceDir } from './reference.ts';
import { serverFetch } from '../support/server-fetch.ts';

const PB = 'application/vnd.kubernetes.protobuf';
const ref = referenceDir();
const hasProtoc = spawnSync('protoc', ['--version']).status === 0;
const CM = '/api/v1/namespaces/default/configmaps';

let server: ServerProcess;
let pb: KubeProtobuf;
beforeAll(async () => {
  [server, pb] = await Promise.all([startServerProcess(), loadKubeProtobuf()]);
});
afterAll(async () => {
  await server?.stop();
});

async function req(method: string, path: string, opts: { body?: Uint8Array | string; contentType?: string; accept?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.contentType) headers['content-type'] = opts.contentType;
  if (opts.accept) headers.accept = opts.accept;
  const body = typeof opts.body === 'string' || opts.body === undefined ? opts.body : Buffer.from(opts.body);
  const res = await serverFetch(server.url + path, { method, headers, body });
  let bytes = new Uint8Array(await res.arrayBuffer());
  if (res.headers.get('content-encoding') === 'gzip') bytes = new Uint8Array(gunzipSync(bytes));
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes, text: () => Buffer.from(bytes).toString() };
}

function protoc(args: string[], input: Uint8Array | string): string {
  const r = spawnSync('protoc', ['-I', join(ref!, 'proto'), ...args], { input });
  if (r.status !== 0) throw new Error(`protoc ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.toString();
}

describe('protobuf over HTTP', () => {
  it('serves an object created in JSON as protobuf, identical to the JSON view', async () => {
    const created = await req('POST', CM, {
      contentType: 'application/json',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-json', labels: { b: '2', a: '1' } }, data: { k: 'v' } }),
    });
    expect(created.status).toBe(201);
    const asJson = JSON.parse((await req('GET', `${CM}/from-json`, { accept: 'application/json' })).text());
    const asPb = await req('GET', `${CM}/from-json`, { accept: PB });
    expect(asPb.status).toBe(200);
    expect(asPb.type).toBe(PB);
    expect([...asPb.bytes.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    expect(pb.decode(asPb.bytes)).toEqual(asJson);
  });

  it.skipIf(!ref || !hasProtoc)('answers bytes that protoc decodes with upstream protos (skipped without protoc or reference data)', async () => {
    const r = await req('GET', `${CM}/from-json`, { accept: PB });
    const env = protoc(['--decode=k8s.io.apimachinery.pkg.runtime.Unknown', 'k8s.io/apimachinery/pkg/runtime/generated.proto'], r.bytes.subarray(4));
    expect(env).toMatch(/apiVersion: "v1"\s+kind: "ConfigMap"/);
    const text = protoc(['--decode=k8s.io.api.core.v1.ConfigMap', 'k8s.io/api/core/v1/generated.proto'], unwrap(r.bytes).raw);
    expect(text).toContain('name: "from-json"');
    expect(text).toContain('namespace: "default"');
    expect(text).toMatch(/labels \{\s+key: "a"\s+value: "1"\s+\}\s+labels \{\s+key: "b"/);
    expect(text).toMatch(/data \{\s+key: "k"\s+value: "v"\s+\}/);
    expect(text).toMatch(/creationTimestamp \{\s+seconds: \d+\s+nanos: 0\s+\}/);
  });

  it.skipIf(!ref || !hasProtoc)('accepts a body protoc encoded and answers it as JSON (skipped without protoc or reference data)', async () => {
    const raw = spawnSync('protoc', ['-I', join(ref!, 'proto'), '--encode=k8s.io.api.apps.v1.Deployment', 'k8s.io/api/apps/v1/generated.proto'], {
      input:
        'metadata { name: "from-protoc" }\nspec { replicas: 2 selector { matchLabels { key: "app" value: "x" } } template { metadata { labels { key: "app" value: "x" } } spec { containers { name: "c" image: "nginx" } } } }',
    }).stdout;
    const r = await req('POST', '/apis/apps/v1/namespaces/default/deployments', { contentType: PB, accept: 'application/json', body: wrap('apps/v1', 'Deployment', new Uint8Array(raw)) });
    expect(r.status, r.text()).toBe(201);
    const obj = JSON.parse(r.text());
    expect(obj).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'from-protoc', namespace: 'default' },
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
  });

  it('takes protobuf requests and answers protobuf, including lists and updates', async () => {
    const body = pb.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-pb' }, data: { x: '1' } });
    const created = await req('POST', CM, { contentType: PB, accept: PB, body });
    expect(created.status).toBe(201);
    const obj: any = pb.decode(created.bytes);
    expect(obj).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'from-pb', namespace: 'default' }, data: { x: '1' } });
    obj.data.x = '2';
    const updated = await req('PUT', `${CM}/from-pb`, { contentType: PB, accept: PB, body: pb.encode(obj) });
    expect(updated.status).toBe(200);
    expect(pb.decode(updated.bytes).data).toEqual({ x: '2' });
    const list = await req('GET', CM, { accept: PB });
    const decoded: any = pb.decode(list.bytes);
    expect(decoded.kind).toBe('ConfigMapList');
    expect(decoded.items.map((i: any) => i.metadata.name)).toEqual(expect.arrayContaining(['from-json', 'from-pb']));
  });

  it('streams a watch as length-prefixed WatchEvent frames', async () => {
    const ctl = new AbortController();
    const res = await serverFetch(`${server.url}${CM}?watch=1&timeoutSeconds=20`, { headers: { accept: PB }, signal: ctl.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(PB);
    const reader = res.body!.getReader();
    const events: Array<{ type: string; object: any }> = [];
    let buf = new Uint8Array(0);
    const collect = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const joined = new Uint8Array(buf.length + value.length);
        joined.set(buf);
        joined.set(value, buf.length);
        const { frames, rest } = splitFrames(joined);
        buf = new Uint8Array(rest);
        for (const f of frames) events.push(pb.decodeWatchEvent(f));
        if (events.some((e) => e.type === 'DELETED' && e.object.metadata.name === 'watched')) return;
      }
    })();
    const c = await req('POST', CM, { contentType: 'application/json', body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' }, data: { a: '1' } }) });
    expect(c.status).toBe(201);
    await req('PUT', `${CM}/watched`, { contentType: 'application/json', body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' }, data: { a: '2' } }) });
    await req('DELETE', `${CM}/watched`);
    await Promise.race([collect, new Promise((_, reject) => setTimeout(() => reject(new Error(`watch saw ${JSON.stringify(events.map((e) => e.type))}`)), 15_000))]);
    ctl.abort();
    const mine = events.filter((e) => e.object.metadata?.name === 'watched');
    expect(mine.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(mine[1].object).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '2' } });
  });

  it('answers errors as protobuf Status objects', async () => {
    const r = await req('GET', `${CM}/missing`, { accept: PB });
    expect(r.status).toBe(404);
    expect(pb.decode(r.bytes)).toMatchObject({ apiVersion: 'v1', kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
  });

  it('rejects a protobuf body without the k8s prefix with 400', async () => {
    const r = await req('POST', CM, { contentType: PB, accept: 'application/json', body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }) });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text())).toMatchObject({ kind: 'Status', code: 400 });
  });

  it('answers 406 for Table in protobuf and falls back to JSON when the client allows it', async () => {
    const table = await req('GET', CM, { accept: `${PB};as=Table;v=v1;g=meta.k8s.io` });
    expect(table.status).toBe(406);
    const fallback = await req('GET', `${CM}/from-json`, { accept: `${PB}, application/json` });
    expect(fallback.status).toBe(200);
    // ConfigMap has protobuf: the first alternative wins
    expect(fallback.type).toBe(PB);
  });

  it('creates a CustomResourceDefinition sent in protobuf', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } },
        ],
      },
    };
    const c = await req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { contentType: PB, accept: PB, body: pb.encode(crd) });
    expect(c.status, c.text()).toBe(201);
    const back = pb.decode(c.bytes);
    expect(back).toMatchObject({ kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' }, spec: crd.spec });
    const asJson = JSON.parse((await req('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', { accept: 'application/json' })).text());
    expect(asJson.spec.versions[0].schema).toEqual(crd.spec.versions[0].schema);
  });
});
