// What DELETE answers, kind by kind, as kube-apiserver 1.31: a Status
// (Success; details name, group, resource as kind, uid) once the object is
// gone, the deleted object for the stores built with ReturnDeletedObject,
// and the object itself while its deletion is pending. Through
// app.request() with one valid object per stored kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { storedKinds, collectionPath, type FuzzKind } from '../fuzz/kinds.ts';
import { validObject } from '../fuzz/objects.ts';
import { loadKubeProtobuf } from '../../runtime/codec/protobuf/index.ts';

let s: RunningServer;
const NS = 'del';
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
});
afterAll(async () => {
  await s?.stop();
});

type Json = Record<string, any>;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json; contentType: string | null }> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await s.app.request(path, init);
  const contentType = res.headers.get('content-type');
  const json = contentType?.startsWith('application/json') ? ((await res.json()) as Json) : {};
  return { status: res.status, json, contentType };
}

/** Upstream's stores with ReturnDeletedObject: true (pkg/registry/*\/*\/storage/storage.go, 1.31). */
const RETURNS_OBJECT = new Set([
  '/Namespace',
  '/PersistentVolume',
  '/PersistentVolumeClaim',
  '/Pod',
  '/ResourceQuota',
  '/Service',
  '/ServiceAccount',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/VolumeAttachment',
]);
/**
 * Kinds whose delete is always pending at first: the namespace turns
 * Terminating; a CRD gets the customresourcecleanup finalizer and the
 * Terminating condition (upstream's CRD REST), answered as the object.
 */
const PENDING_AT_FIRST = new Set(['/Namespace', 'apiextensions.k8s.io/CustomResourceDefinition']);

const kinds = storedKinds.filter((k) => k.def.verbs.includes('delete'));
const key = (k: FuzzKind): string => `${k.def.group}/${k.def.kind}`;

describe('DELETE of each kind', () => {
  it.each(kinds.map((k, i) => [`${k.apiVersion} ${k.def.kind}`, k, i] as const))('%s', async (_label, k, i) => {
    const created = await call('POST', collectionPath(k, NS), validObject(k, `del-${i}`, NS));
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const name = created.json.metadata.name;
    const r = await call('DELETE', `${collectionPath(k, NS)}/${name}`);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    if (RETURNS_OBJECT.has(key(k)) || PENDING_AT_FIRST.has(key(k))) {
      expect(r.json).toMatchObject({ kind: k.def.kind, apiVersion: k.apiVersion, metadata: { name, uid: created.json.metadata.uid } });
      if (PENDING_AT_FIRST.has(key(k))) expect(r.json.metadata.deletionTimestamp).toBeTruthy();
      return;
    }
    const details: Json = k.def.group ? { name, group: k.def.group, kind: k.def.resource, uid: created.json.metadata.uid } : { name, kind: k.def.resource, uid: created.json.metadata.uid };
    expect(r.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details });
    // the keys in upstream's order (Go's field order of Status and StatusDetails)
    expect(Object.keys(r.json)).toEqual(['kind', 'apiVersion', 'metadata', 'status', 'details']);
    expect(Object.keys(r.json.details)).toEqual(Object.keys(details));
  });
});

describe('pending deletes and the forms of the answer', () => {
  const CM = `/api/v1/namespaces/${NS}/configmaps`;
  const cm = (name: string, finalizers?: string[]) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(finalizers ? { finalizers } : {}) } });

  it('a delete held by a finalizer answers the object (200), 202 with orphanDependents=false', async () => {
    await call('POST', CM, cm('held', ['example.com/keep']));
    const r = await call('DELETE', `${CM}/held`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/keep'] } });
    expect(r.json.metadata.deletionTimestamp).toBeTruthy();
    await call('POST', CM, cm('held2', ['example.com/keep']));
    const orphanFalse = await call('DELETE', `${CM}/held2`, { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: false });
    expect(orphanFalse.status).toBe(202);
    expect(orphanFalse.json.kind).toBe('ConfigMap');
  });

  it('Foreground propagation is pending on its finalizer: the object', async () => {
    await call('POST', CM, cm('fg'));
    const r = await call('DELETE', `${CM}/fg`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' });
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('ConfigMap');
    expect(r.json.metadata.finalizers).toContain('foregroundDeletion');
  });

  it('a dry-run delete answers the same Status', async () => {
    const c = await call('POST', CM, cm('dry'));
    const r = await call('DELETE', `${CM}/dry?dryRun=All`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'dry', kind: 'configmaps', uid: c.json.metadata.uid } });
    expect((await call('GET', `${CM}/dry`)).status).toBe(200);
  });

  it('a client asking for a Table gets the Status as it is', async () => {
    await call('POST', CM, cm('tbl'));
    const r = await call('DELETE', `${CM}/tbl`, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('application/json');
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'tbl', kind: 'configmaps' } });
  });

  it('a protobuf client gets the Status in protobuf', async () => {
    await call('POST', CM, cm('pb'));
    const res = await s.app.request(`${CM}/pb`, { method: 'DELETE', headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    const decoded = (await loadKubeProtobuf()).decode(new Uint8Array(await res.arrayBuffer()));
    expect(decoded).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Success', details: { name: 'pb', kind: 'configmaps' } });
  });

  it('a Pod (ReturnDeletedObject) answers the deleted object even in a dry run', async () => {
    const pods = storedKinds.find((k) => k.def.kind === 'Pod')!;
    await call('POST', collectionPath(pods, NS), validObject(pods, 'dry-pod', NS));
    const r = await call('DELETE', `${collectionPath(pods, NS)}/dry-pod?dryRun=All`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ kind: 'Pod', metadata: { name: 'dry-pod' } });
  });
});
