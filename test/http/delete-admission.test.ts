// Deletes pass through admission as in kube-apiserver: both halves see a
// DELETE with the object being deleted as oldObject (object null), the
// requesting user and dryRun, and a plugin's error refuses the delete with
// its own status (nothing is deleted, no deletionTimestamp is set).
// Deletecollection runs admission for each object, with an empty name as
// upstream's collection attributes. The server's own deletes (garbage
// collector, namespace controller, token cleaner) reach admission with their
// identities.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import type { AdmissionAttributes } from '../../runtime/admission/chain.ts';
import { ApiError, errors } from '../../runtime/api/errors.ts';

/** A ConfigMap carrying this annotation is refused deletion with the status its value names. */
const REFUSE = 'test/refuse-delete';
type Seen = { half: string; user: string; name: string; namespace: string; old: string | undefined; object: unknown; dryRun: boolean };
const seen: Seen[] = [];
const record = (half: string, a: AdmissionAttributes) => {
  if (a.operation !== 'DELETE') return;
  seen.push({ half, user: a.user.name, name: a.name, namespace: a.namespace, old: a.oldObject?.metadata?.name, object: a.object, dryRun: a.dryRun });
};

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({
    authorizationMode: ['AlwaysAllow'],
    controllers: ['*', 'tokencleaner'],
    admissionPlugins: [
      {
        name: 'DeleteGuard',
        admit(a: AdmissionAttributes) {
          record('admit', a);
        },
        validate(a: AdmissionAttributes) {
          record('validate', a);
          if (a.operation !== 'DELETE') return;
          const how = a.oldObject?.metadata?.annotations?.[REFUSE];
          if (how === 'forbidden') throw errors.forbidden({ group: '', resource: a.resource }, a.oldObject!.metadata.name, 'deletion is guarded');
          if (how === 'conflict') throw new ApiError(409, 'Conflict', 'not now', {});
        },
      },
    ],
  });
});
afterAll(async () => {
  await s?.stop();
});
beforeEach(() => {
  seen.length = 0;
});

const CM = '/api/v1/namespaces/default/configmaps';
const send = async (method: string, path: string, body?: unknown) => {
  const r = await s.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
};
const create = async (name: string, metadata: Record<string, unknown> = {}) => {
  expect((await send('POST', CM, { metadata: { name, ...metadata } })).status).toBe(201);
};

async function eventually(check: () => Promise<boolean>, ms = 20000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('admission of DELETE', () => {
  it('both halves see the object being deleted as oldObject, no object, the user and the name', async () => {
    await create('del-seen', { labels: { app: 'x' } });
    expect((await send('DELETE', `${CM}/del-seen`)).status).toBe(200);
    const want = { user: 'system:anonymous', name: 'del-seen', namespace: 'default', old: 'del-seen', object: null, dryRun: false };
    expect(seen).toEqual([
      { half: 'admit', ...want },
      { half: 'validate', ...want },
    ]);
  });

  it.each([
    ['forbidden', 403, 'Forbidden', 'configmaps "del-refused-forbidden" is forbidden: deletion is guarded'],
    ['conflict', 409, 'Conflict', 'not now'],
  ])('a plugin refusing (%s) answers its status and nothing is deleted', async (how, code, reason, message) => {
    const name = `del-refused-${how}`;
    await create(name, { annotations: { [REFUSE]: how } });
    const res = await send('DELETE', `${CM}/${name}`);
    expect(res.status).toBe(code);
    expect(res.json).toMatchObject({ kind: 'Status', code, reason, message });
    expect((await send('GET', `${CM}/${name}`)).status).toBe(200);
  });

  it('an object held by finalizers: a refusal sets no deletionTimestamp', async () => {
    await create('del-held', { annotations: { [REFUSE]: 'forbidden' }, finalizers: ['example.com/hold'] });
    expect((await send('DELETE', `${CM}/del-held`)).status).toBe(403);
    const live = await send('GET', `${CM}/del-held`);
    expect(live.json.metadata.deletionTimestamp).toBeUndefined();
    // let it go: drop the guard and the finalizer
    expect((await send('PUT', `${CM}/del-held`, { ...live.json, metadata: { ...live.json.metadata, annotations: {}, finalizers: [] } })).status).toBe(200);
    expect((await send('DELETE', `${CM}/del-held`)).status).toBe(200);
    expect((await send('GET', `${CM}/del-held`)).status).toBe(404);
  });

  it('a dry run is admitted as one (dryRun true) and refused like a real delete', async () => {
    await create('del-dry');
    expect((await send('DELETE', `${CM}/del-dry?dryRun=All`)).status).toBe(200);
    expect(seen.find((v) => v.half === 'validate')).toMatchObject({ name: 'del-dry', dryRun: true });
    await create('del-dry-refused', { annotations: { [REFUSE]: 'forbidden' } });
    expect((await send('DELETE', `${CM}/del-dry-refused?dryRun=All`)).status).toBe(403);
  });
});

describe('admission of deletecollection', () => {
  it("runs for each object, with the collection's empty name and each object as oldObject", async () => {
    for (const n of ['coll-a', 'coll-b']) await create(n, { labels: { set: 'coll' } });
    const res = await send('DELETE', `${CM}?labelSelector=set%3Dcoll`);
    expect(res.status).toBe(200);
    expect(res.json.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort()).toEqual(['coll-a', 'coll-b']);
    const validated = seen.filter((v) => v.half === 'validate');
    expect(validated.map((v) => v.old).sort()).toEqual(['coll-a', 'coll-b']);
    for (const v of validated) expect(v).toMatchObject({ name: '', user: 'system:anonymous', namespace: 'default', object: null });
  });

  it("a refused object answers the plugin's status and stays", async () => {
    await create('coll-guarded', { labels: { set: 'guarded' }, annotations: { [REFUSE]: 'forbidden' } });
    const res = await send('DELETE', `${CM}?labelSelector=set%3Dguarded`);
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'Forbidden' });
    expect((await send('GET', `${CM}/coll-guarded`)).status).toBe(200);
  });
});

describe('deletes of the server itself reach admission with their identity', () => {
  it('the garbage collector deletes a dependent as its service account', async () => {
    await create('gc-owner');
    const owner = await send('GET', `${CM}/gc-owner`);
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'gc-owner', uid: owner.json.metadata.uid };
    await create('gc-dep', { ownerReferences: [ref] });
    expect((await send('DELETE', `${CM}/gc-owner`)).status).toBe(200);
    await eventually(async () => (await send('GET', `${CM}/gc-dep`)).status === 404);
    expect(seen).toContainEqual({
      half: 'validate',
      user: 'system:serviceaccount:kube-system:generic-garbage-collector',
      name: 'gc-dep',
      namespace: 'default',
      old: 'gc-dep',
      object: null,
      dryRun: false,
    });
  });

  it('the token cleaner deletes an expired bootstrap-token Secret as its service account', async () => {
    const past = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'bootstrap.kubernetes.io/token',
      metadata: { name: 'bootstrap-token-expird' },
      stringData: { 'token-id': 'expird', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', expiration: past },
    };
    expect((await send('POST', '/api/v1/namespaces/kube-system/secrets', secret)).status).toBe(201);
    await eventually(async () => (await send('GET', '/api/v1/namespaces/kube-system/secrets/bootstrap-token-expird')).status === 404);
    expect(seen).toContainEqual({
      half: 'validate',
      user: 'system:serviceaccount:kube-system:token-cleaner',
      name: 'bootstrap-token-expird',
      namespace: 'kube-system',
      old: 'bootstrap-token-expird',
      object: null,
      dryRun: false,
    });
  });

  it('the namespace controller deletes the content of a namespace as its service account', async () => {
    expect((await send('POST', '/api/v1/namespaces', { metadata: { name: 'del-ns' } })).status).toBe(201);
    expect((await send('POST', '/api/v1/namespaces/del-ns/configmaps', { metadata: { name: 'content' } })).status).toBe(201);
    expect((await send('DELETE', '/api/v1/namespaces/del-ns')).status).toBe(200);
    await eventually(async () => (await send('GET', '/api/v1/namespaces/del-ns')).status === 404);
    expect(seen).toContainEqual({
      half: 'validate',
      user: 'system:serviceaccount:kube-system:namespace-controller',
      name: 'content',
      namespace: 'del-ns',
      old: 'content',
      object: null,
      dryRun: false,
    });
  });
});
