// Namespace lifecycle: initial namespaces, Active then Terminating, the
// namespace controller deleting content, the finalize subresource, 403 for
// content in a terminating namespace, 404 for a missing one, immortal
// namespaces, spec.finalizers and status.phase rules.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { call, causeMessages, server, until } from './helpers.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

const ns = (name: string, extra: object = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, ...extra });
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });

describe('namespace lifecycle', () => {
  it.each(['default', 'kube-system', 'kube-public', 'kube-node-lease'])('%s exists from the first start and is Active', async (name) => {
    const r = await call(s, 'GET', `/api/v1/namespaces/${name}`);
    expect(r.code).toBe(200);
    expect(r.body.status.phase).toBe('Active');
    expect(r.body.spec.finalizers).toEqual(['kubernetes']);
    expect(r.body.metadata.labels['kubernetes.io/metadata.name']).toBe(name);
  });

  it.each(['default', 'kube-system', 'kube-public'])('%s may not be deleted (403)', async (name) => {
    const r = await call(s, 'DELETE', `/api/v1/namespaces/${name}`);
    expect(r.code).toBe(403);
    expect(r.body.message).toBe(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
  });

  it.each(['default', 'kube-system', 'kube-public'])('%s may not be deleted once spec.finalizers is emptied either (403)', async (name) => {
    const live = (await call(s, 'GET', `/api/v1/namespaces/${name}`)).body;
    const fin = await call(s, 'PUT', `/api/v1/namespaces/${name}/finalize`, { ...live, spec: { finalizers: [] } });
    expect(fin.code, JSON.stringify(fin.body)).toBe(200);
    expect(fin.body.spec.finalizers ?? []).toEqual([]);
    for (const q of ['', '?dryRun=All']) {
      const r = await call(s, 'DELETE', `/api/v1/namespaces/${name}${q}`);
      expect(r.code).toBe(403);
      expect(r.body.reason).toBe('Forbidden');
      expect(r.body.message).toBe(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
    expect((await call(s, 'GET', `/api/v1/namespaces/${name}`)).code).toBe(200);
  });

  it('creating in a missing namespace is 404', async () => {
    const r = await call(s, 'POST', '/api/v1/namespaces/nope/configmaps', cm('x'));
    expect(r.code).toBe(404);
    expect(r.body.message).toBe('namespaces "nope" not found');
  });

  it('goes Terminating on delete, its content is deleted, then it disappears', async () => {
    expect((await call(s, 'POST', '/api/v1/namespaces', ns('doomed'))).code).toBe(201);
    for (let i = 0; i < 3; i++) expect((await call(s, 'POST', '/api/v1/namespaces/doomed/configmaps', cm(`c${i}`))).code).toBe(201);
    // an object with a finalizer holds the namespace until the finalizer goes
    const held = { ...cm('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } };
    expect((await call(s, 'POST', '/api/v1/namespaces/doomed/configmaps', held)).code).toBe(201);
    const del = await call(s, 'DELETE', '/api/v1/namespaces/doomed');
    // upstream answers 200 here; the delete handler (not this module) answers 202 for any pending deletion
    expect([200, 202]).toContain(del.code);
    expect(del.body.status.phase).toBe('Terminating');
    expect(del.body.metadata.deletionTimestamp).toBeTruthy();
    // new content is refused while terminating
    const refused = await call(s, 'POST', '/api/v1/namespaces/doomed/configmaps', cm('late'));
    expect(refused.code).toBe(403);
    expect(refused.body.reason).toBe('Forbidden');
    expect(refused.body.message).toBe('configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated');
    expect(refused.body.details.causes[0].reason).toBe('NamespaceTerminating');
    const applied = await s.app.request('/api/v1/namespaces/doomed/configmaps/late?fieldManager=t', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: late\n',
    });
    expect(applied.status).toBe(403);
    // a PUT that would create is refused the same way (admission is told CREATE)
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'late' }, spec: {} };
    const put = await call(s, 'PUT', '/apis/coordination.k8s.io/v1/namespaces/doomed/leases/late', lease);
    expect(put.code).toBe(403);
    expect(put.body.message).toBe('leases.coordination.k8s.io "late" is forbidden: unable to create new content in namespace doomed because it is being terminated');
    // a second delete is a conflict
    const again = await call(s, 'DELETE', '/api/v1/namespaces/doomed');
    expect(again.code).toBe(409);
    await until(async () => (await call(s, 'GET', '/api/v1/namespaces/doomed/configmaps')).body.items.length === 1);
    const terminating = (await call(s, 'GET', '/api/v1/namespaces/doomed')).body;
    expect(terminating.status.phase).toBe('Terminating');
    await until(async () => ((await call(s, 'GET', '/api/v1/namespaces/doomed')).body.status.conditions ?? []).length === 5);
    const conds = (await call(s, 'GET', '/api/v1/namespaces/doomed')).body.status.conditions;
    const byType = Object.fromEntries(conds.map((c: any) => [c.type, c]));
    expect(byType.NamespaceContentRemaining).toMatchObject({ status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances' });
    expect(byType.NamespaceFinalizersRemaining).toMatchObject({ status: 'True', message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances' });
    expect(byType.NamespaceDeletionContentFailure.status).toBe('False');
    expect(byType.NamespaceContentRemaining.lastTransitionTime).toBeTruthy();
    // release the held object: everything goes
    const patched = await s.app.request('/api/v1/namespaces/doomed/configmaps/held', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { finalizers: null } }),
    });
    expect(patched.status).toBe(200);
    await until(async () => (await call(s, 'GET', '/api/v1/namespaces/doomed')).code === 404);
  });

  it('finalize subresource: only spec.finalizers changes; emptying it on a deleting namespace removes it', async () => {
    await call(s, 'POST', '/api/v1/namespaces', ns('fin', { spec: { finalizers: ['kubernetes', 'example.com/mine'] } }));
    const live = (await call(s, 'GET', '/api/v1/namespaces/fin')).body;
    const body = { ...live, metadata: { ...live.metadata, labels: { x: 'y' } }, spec: { finalizers: ['kubernetes'] } };
    const r = await call(s, 'PUT', '/api/v1/namespaces/fin/finalize', body);
    expect(r.code).toBe(200);
    expect(r.body.spec.finalizers).toEqual(['kubernetes']);
    expect(r.body.metadata.labels.x).toBeUndefined();
    expect((await call(s, 'POST', '/api/v1/namespaces/fin/finalize', body)).code).toBe(405);
    await call(s, 'DELETE', '/api/v1/namespaces/fin');
    await until(async () => (await call(s, 'GET', '/api/v1/namespaces/fin')).code === 404);
  });

  it('the main resource keeps spec.finalizers and status', async () => {
    await call(s, 'POST', '/api/v1/namespaces', ns('keep'));
    const live = (await call(s, 'GET', '/api/v1/namespaces/keep')).body;
    const r = await call(s, 'PUT', '/api/v1/namespaces/keep', { ...live, spec: { finalizers: [] }, status: { phase: 'Terminating' } });
    expect(r.code).toBe(200);
    expect(r.body.spec.finalizers).toEqual(['kubernetes']);
    expect(r.body.status.phase).toBe('Active');
  });

  it.each([
    ['status phase Terminating without deletionTimestamp', { status: { phase: 'Terminating' } }, 'status.phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty'],
  ])('status: %s is 422', async (_n, patch, msg) => {
    await call(s, 'POST', '/api/v1/namespaces', ns('st'));
    const live = (await call(s, 'GET', '/api/v1/namespaces/st')).body;
    const r = await call(s, 'PUT', '/api/v1/namespaces/st/status', { ...live, ...patch });
    expect(r.code).toBe(422);
    expect(causeMessages(r)).toContain(msg);
  });

  it.each([
    ['unqualified spec finalizer', { spec: { finalizers: ['mine'] } }, 'spec.finalizers: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified'],
    ['name not a DNS label', { metadata: { name: 'a.b' } }, 'metadata.name: Invalid value: "a.b"'],
  ])('create: %s is 422', async (_n, extra, msg) => {
    const r = await call(s, 'POST', '/api/v1/namespaces', { ...ns('bad-one'), ...extra });
    expect(r.code).toBe(422);
    expect(causeMessages(r).some((m) => m.startsWith(msg))).toBe(true);
  });
});
