// Values in etcd as kube-apiserver stores them: a built-in kind is protobuf in
// the `k8s\0` envelope, which the upstream .proto files read with protoc
// (runtime.Unknown around the kind's message); a kind without a message is
// JSON text; every reference fixture written through the storage layer reads
// back as the same object; a value stored as JSON (an older data directory)
// still reads; a watch sees the same objects a read does; an update that
// changes nothing is not written even though protobuf gives keys back in
// another order; the watch events of writes made here take the text the
// write answered with instead of decoding the protobuf again. Skipped (with a message) where no etcd binary exists; the
// protoc checks also need protoc and the reference protos.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable, startEtcd, type TestEtcd } from '../support/etcd.ts';
import { openStorage, type OpenedStorage } from '../../runtime/storage/factory.ts';
import type { EtcdKV } from '../../runtime/storage/etcd/etcd-kv.ts';
import { unwrap } from '../../runtime/codec/protobuf/envelope.ts';
import { loadKubeProtobuf } from '../../runtime/codec/protobuf/index.ts';
import { fixtureNames, referenceDir } from '../protobuf/reference.ts';
import type { Obj } from '../../runtime/storage/interface.ts';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);
const ref = referenceDir();
const protoc = spawnSync('protoc', ['--version']).status === 0;

/** protoc --decode of bytes with the reference protos. */
function protocDecode(message: string, file: string, bytes: Uint8Array): string {
  const r = spawnSync('protoc', [`--decode=${message}`, `-I${join(ref!, 'proto')}`, file], { input: bytes, encoding: 'latin1' });
  if (r.status !== 0) throw new Error(`protoc failed: ${r.stderr}`);
  return r.stdout;
}

describe.skipIf(!etcdAvailable())('values in etcd', () => {
  let etcd: TestEtcd;
  let s: OpenedStorage;
  let kv: EtcdKV;
  const PREFIX = '/values';
  const raw = async (etcdKey: string): Promise<Buffer | null> => kv.client.get(`${PREFIX}${etcdKey}`).buffer();

  beforeAll(async () => {
    etcd = await startEtcd();
    s = await openStorage({ etcd: { servers: [etcd.url], prefix: PREFIX, compactionIntervalMs: 0 } });
    kv = s.kv as EtcdKV;
  });
  afterAll(async () => {
    await s?.close();
    await etcd?.stop();
  });

  const configMap = {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name: 'x', namespace: 'default', uid: '6b3e0e8e-5b6c-4f5e-9c1a-3f2d1e0c9b8a', creationTimestamp: '2024-01-02T03:04:05Z' },
    data: { a: '1' },
  };

  it('a ConfigMap is enveloped protobuf at kube-apiserver\u2019s key, and reads back as written', async () => {
    const created = await s.base.create('/registry/core/configmaps/default/x', configMap);
    const bytes = await raw('/configmaps/default/x');
    expect(bytes).not.toBeNull();
    expect([...bytes!.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
    const env = unwrap(bytes!);
    expect(env).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', contentEncoding: '', contentType: '' });
    const got = await s.base.get('/registry/core/configmaps/default/x');
    expect(got).toEqual(created);
    expect(got).toEqual({ ...configMap, metadata: { ...configMap.metadata, resourceVersion: created.metadata.resourceVersion } });
  });

  it.skipIf(!ref || !protoc)('protoc reads the stored bytes with the upstream .proto files', async () => {
    const bytes = (await raw('/configmaps/default/x'))!;
    const unknown = protocDecode('k8s.io.apimachinery.pkg.runtime.Unknown', 'k8s.io/apimachinery/pkg/runtime/generated.proto', bytes.subarray(4));
    expect(unknown).toMatch(/typeMeta \{\s*apiVersion: "v1"\s*kind: "ConfigMap"\s*\}/);
    const cm = protocDecode('k8s.io.api.core.v1.ConfigMap', 'k8s.io/api/core/v1/generated.proto', unwrap(bytes).raw);
    expect(cm).toMatch(/name: "x"/);
    expect(cm).toMatch(/namespace: "default"/);
    expect(cm).toMatch(/uid: "6b3e0e8e-5b6c-4f5e-9c1a-3f2d1e0c9b8a"/);
    expect(cm).toMatch(/data \{\s*key: "a"\s*value: "1"\s*\}/);
    // kube-apiserver clears resourceVersion before storing (Go writes the empty string)
    expect(cm).toMatch(/resourceVersion: ""/);
  });

  it('a kind without a protobuf message (a custom resource) is JSON text', async () => {
    const w = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: { size: 3 } };
    await s.base.create('/registry/example.com/widgets/default/w', w);
    const bytes = (await raw('/example.com/widgets/default/w'))!;
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(w);
  });

  it('a value stored as JSON text (an older data directory) still reads', async () => {
    const old = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'old', namespace: 'default' }, data: { b: '2' } };
    await kv.client.put(`${PREFIX}/configmaps/default/old`).value(JSON.stringify(old));
    expect(await s.base.get('/registry/core/configmaps/default/old')).toMatchObject(old);
  });

  it.skipIf(!ref)('every reference fixture of a stored kind reads back as the same object', async () => {
    const codec = await loadKubeProtobuf();
    let checked = 0;
    for (const name of fixtureNames(ref!)) {
      const obj = JSON.parse(readFileSync(join(ref!, 'fixtures', `${name}.json`), 'utf8')) as Obj;
      if (!obj.metadata?.name || !codec.supports(obj.apiVersion, obj.kind) || obj.kind.endsWith('List')) continue;
      const { resourceVersion: _rv, ...metadata } = obj.metadata;
      const want = { ...obj, metadata };
      const key = `/registry/fixtures/${name.toLowerCase()}/${checked}`;
      const created = await s.base.create(key, want);
      expect([...(await raw(`/fixtures/${name.toLowerCase()}/${checked}`))!.subarray(0, 4)], name).toEqual([0x6b, 0x38, 0x73, 0x00]);
      const got = await s.base.get(key);
      expect(got, name).toEqual({ ...want, metadata: { ...metadata, resourceVersion: created.metadata.resourceVersion } });
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('a watch sees the objects a read gives; an update that changes nothing is not written', async () => {
    const key = '/registry/core/configmaps/default/w';
    const created = await s.base.create(key, { ...configMap, metadata: { ...configMap.metadata, name: 'w', labels: { z: '1', a: '2' } } });
    const w = await s.base.watch(key, { recursive: false, resourceVersion: String(Number(created.metadata.resourceVersion) - 1) });
    const it = w[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value.object).toEqual(created);
    // the same object with its keys in another order
    const reordered = { data: { a: '1' }, metadata: { labels: { a: '2', z: '1' }, ...created.metadata }, apiVersion: 'v1', kind: 'ConfigMap' };
    const same = await s.base.guaranteedUpdate(key, { tryUpdate: () => reordered });
    expect(same.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    const changed = await s.base.guaranteedUpdate(key, { tryUpdate: (cur) => ({ ...cur!, data: { a: '3' } }) });
    const second = await it.next();
    expect(second.value.object).toEqual(changed);
    w.stop();
  });

  it('the watch events of writes made here are not decoded again', async () => {
    const key = '/registry/core/configmaps/default/d';
    const decode = vi.spyOn(kv.values, 'decode');
    try {
      const created = await s.base.create(key, { ...configMap, metadata: { ...configMap.metadata, name: 'd' } });
      const changed = await s.base.guaranteedUpdate(key, { tryUpdate: (cur) => ({ ...cur!, data: { a: '4' } }) });
      // the update's read of the live value, and the text each write answers with
      const byWrites = decode.mock.calls.length;
      const w = await s.base.watch(key, { recursive: false, resourceVersion: String(Number(created.metadata.resourceVersion) - 1) });
      const it = w[Symbol.asyncIterator]();
      expect((await it.next()).value.object).toEqual(created);
      expect((await it.next()).value.object).toEqual(changed);
      w.stop();
      // the ADDED event, the MODIFIED one and its previous value: none decoded
      expect(decode.mock.calls.length).toBe(byWrites);
    } finally {
      decode.mockRestore();
    }
  });
});
