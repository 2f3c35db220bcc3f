// The fields each endpoint's strategy resets (and so never lets a writer
// own through it) are declared by the strategies: the main resource of a
// kind with a status subresource resets status, its status subresource
// resets spec and metadata (so does a CertificateSigningRequest's approval),
// scale and a namespace's finalize reset nothing.
// Checked for every served resource against that rule, and through the
// field manager: a status write does not own spec, a main write does not
// own status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGeneratedApi } from '../../runtime/server/generated-api.ts';
import { buildApiIndex } from '../../runtime/registry/served.ts';
import type { Storage } from '../../runtime/storage/interface.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';

describe('resetFields declared by the strategies', () => {
  it('every served resource: status reset on the main resource, spec and metadata on /status, status on pods/ephemeralcontainers, nothing elsewhere', async () => {
    const generated = await loadGeneratedApi();
    const api = buildApiIndex(generated.resources, () => ({}) as Storage, new Map());
    expect(api.served.length).toBeGreaterThan(40);
    for (const res of api.served) {
      const withStatus = res.storageDef.subresources.some((s) => s.name === 'status');
      const want: Record<string, string[]> = withStatus ? { '': ['status'], status: ['spec', 'metadata'] } : {};
      // the ephemeral containers strategy is the pod strategy's, which resets status
      if (res.def.group === '' && res.def.resource === 'pods') want.ephemeralcontainers = ['status'];
      // a CertificateSigningRequest's approval writes status conditions only, as /status does
      if (res.def.kind === 'CertificateSigningRequest') want.approval = ['spec', 'metadata'];
      expect({ resource: res.def.resource, reset: res.store.resetFields }).toEqual({ resource: res.def.resource, reset: want });
    }
  });
});

describe('reset fields and field ownership', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  });
  afterAll(async () => {
    await s?.stop();
  });
  const DEP = '/apis/apps/v1/namespaces/default/deployments';
  const send = async (method: string, path: string, body: unknown, ct = 'application/json') => {
    const r = await s.app.request(path, { method, headers: { 'content-type': ct }, body: JSON.stringify(body) });
    return { status: r.status, json: await r.json() };
  };

  it('a status write owns status only; a main-resource write owns no status', async () => {
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'rf' },
      spec: { selector: { matchLabels: { app: 'rf' } }, template: { metadata: { labels: { app: 'rf' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      status: { replicas: 3 },
    };
    const created = await send('POST', `${DEP}?fieldManager=main`, dep);
    expect(created.status).toBe(201);
    const mainEntry = created.json.metadata.managedFields.find((e: { manager: string }) => e.manager === 'main');
    expect(mainEntry.fieldsV1['f:spec']).toBeDefined();
    expect(mainEntry.fieldsV1['f:status']).toBeUndefined();
    const statusWrite = { ...created.json, spec: { ...created.json.spec, replicas: 9 }, status: { replicas: 2 } };
    const updated = await send('PUT', `${DEP}/rf/status?fieldManager=statuser`, statusWrite);
    expect(updated.status).toBe(200);
    expect(updated.json.spec.replicas).toBe(created.json.spec.replicas);
    const statusEntry = updated.json.metadata.managedFields.find((e: { manager: string }) => e.manager === 'statuser');
    expect(statusEntry).toMatchObject({ subresource: 'status', operation: 'Update' });
    expect(statusEntry.fieldsV1['f:status']).toBeDefined();
    expect(statusEntry.fieldsV1['f:spec']).toBeUndefined();
  });
});
