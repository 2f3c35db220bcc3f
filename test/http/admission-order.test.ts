// The place of admission in the registry's write pipeline, as in
// kube-apiserver: mutating admission runs, then the strategy prepares and
// validates the object (so what a mutating plugin sets is validated and an
// invalid value is refused with 422), then validating admission sees the
// object as it will be stored. Checked for create, update (PUT), patch and
// an apply that creates. A PUT or apply that creates is a CREATE to both
// halves of admission (upstream's create-on-update), without an old object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import type { AdmissionAttributes } from '../../runtime/admission/chain.ts';

/** What a ConfigMap's `mutate` annotation asks the test plugin to set as the label `set-by-admission`. */
const MUTATE = 'test/mutate';
const seenByValidate: { operation: string; name: string; label: unknown; status: unknown }[] = [];
const seenByAdmit: { operation: string; name: string; old: boolean }[] = [];

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({
    authorizationMode: ['AlwaysAllow'],
    admissionPlugins: [
      {
        name: 'TestMutator',
        admit(attrs: AdmissionAttributes) {
          const want = attrs.object?.metadata?.annotations?.[MUTATE];
          if (want === undefined) return;
          seenByAdmit.push({ operation: attrs.operation, name: attrs.object!.metadata.name, old: attrs.oldObject !== null });
          attrs.object!.metadata.labels = { ...attrs.object!.metadata.labels, 'set-by-admission': want };
          // a field the Deployment strategy clears on create: prepare runs after admission
          if (attrs.resource === 'deployments') attrs.object!.status = { replicas: 7 };
        },
        validate(attrs: AdmissionAttributes) {
          if (attrs.object?.metadata?.annotations?.[MUTATE] === undefined) return;
          seenByValidate.push({
            operation: attrs.operation,
            name: attrs.object.metadata.name,
            label: attrs.object.metadata.labels?.['set-by-admission'],
            status: attrs.object.status,
          });
        },
      },
    ],
  });
});
afterAll(async () => {
  await s?.stop();
});

const CM = '/api/v1/namespaces/default/configmaps';
const JSON_CT = { 'content-type': 'application/json' };
const cm = (name: string, mutate: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, annotations: { [MUTATE]: mutate }, ...extra },
  data: { a: '1' },
});
const post = (obj: unknown) => s.app.request(CM, { method: 'POST', headers: JSON_CT, body: JSON.stringify(obj) });
const put = (name: string, obj: unknown) => s.app.request(`${CM}/${name}`, { method: 'PUT', headers: JSON_CT, body: JSON.stringify(obj) });
const mergePatch = (name: string, patch: unknown) => s.app.request(`${CM}/${name}`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify(patch) });

/** A label value kube-apiserver refuses (not a valid label value). */
const INVALID = 'not a label value!';

async function expectInvalidLabel(res: Response, name: string) {
  expect(res.status).toBe(422);
  const status = await res.json();
  expect(status).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, details: { name, kind: 'ConfigMap' } });
  expect(status.details.causes.map((c: { field: string }) => c.field)).toContain('metadata.labels');
}

describe('mutating admission runs before validation', () => {
  it('create: an invalid value set by a mutating plugin is refused with 422 and nothing is stored', async () => {
    await expectInvalidLabel(await post(cm('adm-bad-create', INVALID)), 'adm-bad-create');
    expect((await s.app.request(`${CM}/adm-bad-create`)).status).toBe(404);
  });

  it('create: a valid value set by a mutating plugin is stored, and validating admission saw it', async () => {
    const res = await post(cm('adm-good-create', 'yes'));
    expect(res.status).toBe(201);
    expect((await res.json()).metadata.labels).toEqual({ 'set-by-admission': 'yes' });
    const stored = await (await s.app.request(`${CM}/adm-good-create`)).json();
    expect(stored.metadata.labels).toEqual({ 'set-by-admission': 'yes' });
    expect(seenByValidate).toContainEqual({ operation: 'CREATE', name: 'adm-good-create', label: 'yes', status: undefined });
  });

  it('update (PUT): an invalid value set by a mutating plugin is refused with 422; the live object is unchanged', async () => {
    const created = await (await post(cm('adm-put', 'first'))).json();
    const next = { ...created, metadata: { ...created.metadata, annotations: { [MUTATE]: INVALID } } };
    await expectInvalidLabel(await put('adm-put', next), 'adm-put');
    const live = await (await s.app.request(`${CM}/adm-put`)).json();
    expect(live.metadata.labels).toEqual({ 'set-by-admission': 'first' });
    expect(live.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('update (PUT): a valid value set by a mutating plugin is stored, and validating admission saw it', async () => {
    const created = await (await post(cm('adm-put-ok', 'first'))).json();
    const next = { ...created, metadata: { ...created.metadata, annotations: { [MUTATE]: 'second' } } };
    const res = await put('adm-put-ok', next);
    expect(res.status).toBe(200);
    expect((await res.json()).metadata.labels).toEqual({ 'set-by-admission': 'second' });
    expect(seenByValidate).toContainEqual({ operation: 'UPDATE', name: 'adm-put-ok', label: 'second', status: undefined });
  });

  it('patch: an invalid value set by a mutating plugin is refused with 422', async () => {
    expect((await post(cm('adm-patch', 'first'))).status).toBe(201);
    await expectInvalidLabel(await mergePatch('adm-patch', { metadata: { annotations: { [MUTATE]: INVALID } } }), 'adm-patch');
    expect((await mergePatch('adm-patch', { metadata: { annotations: { [MUTATE]: 'third' } } })).status).toBe(200);
    expect((await (await s.app.request(`${CM}/adm-patch`)).json()).metadata.labels).toEqual({ 'set-by-admission': 'third' });
  });

  it('an apply that creates runs the create order: an invalid value set by a mutating plugin is refused with 422', async () => {
    const apply = (obj: unknown) =>
      s.app.request(`${CM}/adm-apply-create?fieldManager=tester`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: JSON.stringify(obj),
      });
    await expectInvalidLabel(await apply(cm('adm-apply-create', INVALID)), 'adm-apply-create');
    expect((await s.app.request(`${CM}/adm-apply-create`)).status).toBe(404);
    expect((await apply(cm('adm-apply-create', 'made'))).status).toBe(201);
    expect((await (await s.app.request(`${CM}/adm-apply-create`)).json()).metadata.labels).toEqual({ 'set-by-admission': 'made' });
    expect(seenByValidate).toContainEqual({ operation: 'CREATE', name: 'adm-apply-create', label: 'made', status: undefined });
    expect(seenByAdmit).toContainEqual({ operation: 'CREATE', name: 'adm-apply-create', old: false });
    expect(seenByAdmit.filter((v) => v.name === 'adm-apply-create').every((v) => v.operation === 'CREATE')).toBe(true);
  });

  it('a PUT that creates is a CREATE to both halves of admission; a PUT of the live object is an UPDATE', async () => {
    // Leases may be created by a PUT (ConfigMaps may not)
    const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const lease = (mutate: string, extra: Record<string, unknown> = {}) => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'adm-put-create', annotations: { [MUTATE]: mutate }, ...extra },
      spec: { holderIdentity: 'x' },
    });
    const putLease = (obj: unknown) => s.app.request(`${LEASES}/adm-put-create`, { method: 'PUT', headers: JSON_CT, body: JSON.stringify(obj) });
    expect((await putLease(lease('made'))).status).toBe(201);
    expect(seenByAdmit).toContainEqual({ operation: 'CREATE', name: 'adm-put-create', old: false });
    expect(seenByValidate).toContainEqual({ operation: 'CREATE', name: 'adm-put-create', label: 'made', status: undefined });
    const live = await (await s.app.request(`${LEASES}/adm-put-create`)).json();
    expect((await putLease(lease('again', { resourceVersion: live.metadata.resourceVersion }))).status).toBe(200);
    expect(seenByAdmit).toContainEqual({ operation: 'UPDATE', name: 'adm-put-create', old: true });
    expect(seenByValidate).toContainEqual({ operation: 'UPDATE', name: 'adm-put-create', label: 'again', status: undefined });
  });

  it('an apply of an existing object is an UPDATE with the live object as oldObject', async () => {
    const apply = (mutate: string) =>
      s.app.request(`${CM}/adm-apply-update?fieldManager=tester`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/apply-patch+yaml' },
        body: JSON.stringify(cm('adm-apply-update', mutate)),
      });
    expect((await apply('one')).status).toBe(201);
    expect((await apply('two')).status).toBe(200);
    expect(seenByAdmit).toContainEqual({ operation: 'CREATE', name: 'adm-apply-update', old: false });
    expect(seenByAdmit).toContainEqual({ operation: 'UPDATE', name: 'adm-apply-update', old: true });
    expect(seenByValidate).toContainEqual({ operation: 'UPDATE', name: 'adm-apply-update', label: 'two', status: undefined });
  });

  it('the strategy prepares what a mutating plugin set: a Deployment status set by admission is cleared on create', async () => {
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'adm-dep', annotations: { [MUTATE]: 'dep' } },
      spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    const res = await s.app.request('/apis/apps/v1/namespaces/default/deployments', { method: 'POST', headers: JSON_CT, body: JSON.stringify(dep) });
    expect(res.status).toBe(201);
    const out = await res.json();
    expect(out.metadata.labels).toEqual({ 'set-by-admission': 'dep' });
    expect(out.status?.replicas).toBeUndefined();
    const seen = seenByValidate.find((v) => v.name === 'adm-dep');
    expect(seen).toBeDefined();
    expect((seen!.status as { replicas?: number } | undefined)?.replicas).toBeUndefined();
  });
});
