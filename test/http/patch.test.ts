// PATCH through app.request(): every patch type, preconditions, dry-run,
// subresources (status, scale), and bad input leaving the object unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

const D = '/apis/apps/v1/namespaces/default/deployments';
const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';
const JSONP = 'application/json-patch+json';

async function req(method: string, path: string, body?: unknown, ct = 'application/json') {
  const res = await s.app.request(path, { method, headers: { 'content-type': ct }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

const deployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx', env: [{ name: 'A', value: '1' }] }] } },
  },
});

describe('PATCH', () => {
  beforeAll(async () => {
    await req('POST', D, deployment('p'));
  });

  it('strategic merge merges containers by name and env by name', async () => {
    const r = await req('PATCH', `${D}/p`, { spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: '2' }] }] } } } }, SMP);
    expect(r.status).toBe(200);
    // upstream order: items new to the list come first unless $setElementOrder says otherwise
    expect(r.json.spec.template.spec.containers[0].env).toEqual([
      { name: 'B', value: '2' },
      { name: 'A', value: '1' },
    ]);
  });
  it('merge patch replaces lists and deletes with null', async () => {
    const r = await req('PATCH', `${D}/p`, { metadata: { labels: { x: '1' } }, spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } } } }, MERGE);
    // the list is replaced whole (env is gone); the server then adds the container defaults
    expect(r.json.spec.template.spec.containers).toHaveLength(1);
    expect(r.json.spec.template.spec.containers[0]).toMatchObject({ name: 'web', image: 'nginx:2', imagePullPolicy: 'IfNotPresent' });
    expect(r.json.spec.template.spec.containers[0].env).toBeUndefined();
    const r2 = await req('PATCH', `${D}/p`, { metadata: { labels: { x: null } } }, MERGE);
    expect(r2.json.metadata.labels?.x).toBeUndefined();
  });
  it('JSON patch', async () => {
    const r = await req(
      'PATCH',
      `${D}/p`,
      [
        { op: 'replace', path: '/spec/replicas', value: 4 },
        { op: 'test', path: '/spec/replicas', value: 4 },
      ],
      JSONP,
    );
    expect(r.status).toBe(200);
    expect(r.json.spec.replicas).toBe(4);
  });
  it('a resourceVersion in the patch is a precondition', async () => {
    const r = await req('PATCH', `${D}/p`, { metadata: { resourceVersion: '1' }, spec: { replicas: 9 } }, MERGE);
    expect(r.status).toBe(409);
    expect(r.json.reason).toBe('Conflict');
  });
  it('dryRun does not write', async () => {
    const before = await req('GET', `${D}/p`);
    const r = await req('PATCH', `${D}/p?dryRun=All`, { spec: { replicas: 7 } }, MERGE);
    expect(r.json.spec.replicas).toBe(7);
    const after = await req('GET', `${D}/p`);
    expect(after.json.spec.replicas).toBe(before.json.spec.replicas);
    expect(after.json.metadata.resourceVersion).toBe(before.json.metadata.resourceVersion);
  });
  it('force on a non-apply patch is refused', async () => {
    expect((await req('PATCH', `${D}/p?force=true`, {}, MERGE)).status).toBe(422);
  });
  it('404 on a missing object', async () => {
    const r = await req('PATCH', `${D}/missing`, { spec: { replicas: 1 } }, MERGE);
    expect(r.status).toBe(404);
  });
  it('415 for an unknown patch type and for strategic merge on nothing', async () => {
    expect((await req('PATCH', `${D}/p`, {}, 'application/xml')).status).toBe(415);
  });

  describe('bad input leaves the object unchanged', () => {
    let rv: string;
    beforeAll(async () => {
      rv = (await req('GET', `${D}/p`)).json.metadata.resourceVersion;
    });
    const cases: [string, unknown, string, number][] = [
      ['malformed JSON', '{"spec": ', MERGE, 400],
      ['a failed test operation', [{ op: 'test', path: '/spec/replicas', value: 1000 }], JSONP, 422],
      ['a bad JSON patch path', [{ op: 'remove', path: '/spec/nothing/here' }], JSONP, 422],
      ['a JSON patch that is not a list', { op: 'add' }, JSONP, 400],
      ['an unknown $patch directive', { spec: { template: { spec: { containers: [{ name: 'web', $patch: 'explode' }] } } } }, SMP, 400],
      ['a wrong type in the result', { spec: { replicas: 'many' } }, MERGE, 400],
    ];
    it.each(cases)('%s', async (_name, body, ct, code) => {
      const r = await req('PATCH', `${D}/p`, body, ct);
      expect(r.status).toBe(code);
      expect(r.json.kind).toBe('Status');
      expect((await req('GET', `${D}/p`)).json.metadata.resourceVersion).toBe(rv);
    });
    it('an invalid result is 422 with causes', async () => {
      const r = await req('PATCH', `${D}/p`, { metadata: { labels: { 'bad key!': 'x' } } }, MERGE);
      expect(r.status).toBe(422);
      expect(r.json.details.causes[0].field).toBe('metadata.labels');
      expect((await req('GET', `${D}/p`)).json.metadata.resourceVersion).toBe(rv);
    });
  });

  it('status subresource: only status changes', async () => {
    const r = await req('PATCH', `${D}/p/status`, { status: { replicas: 4, readyReplicas: 2 }, spec: { replicas: 99 } }, MERGE);
    expect(r.status).toBe(200);
    expect(r.json.status).toMatchObject({ replicas: 4, readyReplicas: 2 });
    expect(r.json.spec.replicas).not.toBe(99);
    // and the main resource ignores status
    const m = await req('PATCH', `${D}/p`, { status: { replicas: 0 } }, MERGE);
    expect(m.json.status.replicas).toBe(4);
  });

  it('scale subresource: GET, PUT and PATCH', async () => {
    const g = await req('GET', `${D}/p/scale`);
    expect(g.json).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', status: { replicas: 4, selector: 'app=p' } });
    const p = await req('PATCH', `${D}/p/scale`, { spec: { replicas: 6 } }, MERGE);
    expect(p.json.spec.replicas).toBe(6);
    const u = await req('PUT', `${D}/p/scale`, { ...p.json, spec: { replicas: 2 } });
    expect(u.json.spec.replicas).toBe(2);
    const stale = await req('PUT', `${D}/p/scale`, { ...p.json, spec: { replicas: 3 } });
    expect(stale.status).toBe(409);
    expect((await req('GET', `${D}/p`)).json.spec.replicas).toBe(2);
    expect((await req('PATCH', `${D}/p/scale`, { spec: { replicas: -1 } }, MERGE)).status).toBe(422);
  });
});
