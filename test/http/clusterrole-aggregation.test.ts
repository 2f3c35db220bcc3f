// The clusterrole-aggregation controller in a real server: an aggregated
// ClusterRole picks up the rules of a labelled role, loses them when it goes,
// writes as its service account and only when its rules change. Progress is
// observed on a watch of the aggregate, never by sleeping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

const CR = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
const json = { 'content-type': 'application/json' };
type Obj = Record<string, any>;

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Obj }> {
  const r = await s.app.request(path, { method, headers: json, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as Obj };
}

const clusterRole = (name: string, labels: Record<string, string>, rules: Obj[], extra: Obj = {}) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, labels },
  rules,
  ...extra,
});
const get = (resource: string) => ({ verbs: ['get'], apiGroups: [''], resources: [resource] });

/** Events of the named ClusterRole from `rv` on, until one whose object satisfies `done` (the test's own timeout bounds the wait). */
async function watchUntil(name: string, rv: string, done: (o: Obj) => boolean): Promise<Obj[]> {
  const res = await s.app.request(`${CR}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3D${name}`);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  const events: Obj[] = [];
  let buf = '';
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) throw new Error(`watch ended before the condition held: ${JSON.stringify(events)}`);
      buf += dec.decode(r.value, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const ev = JSON.parse(buf.slice(0, nl)) as Obj;
        buf = buf.slice(nl + 1);
        events.push(ev);
        if (done(ev.object)) return events;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

const resources = (o: Obj) => ((o.rules ?? []) as Obj[]).map((r) => r.resources[0]);

describe('clusterrole aggregation', () => {
  it('gathers the rules of labelled roles, drops them when they go, and writes only on a change', async () => {
    const agg = await call('POST', CR, clusterRole('agg-viewer', {}, [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-viewer': 'true' } }] } }));
    expect(agg.status).toBe(201);
    const rv0 = agg.body.metadata.resourceVersion as string;

    expect((await call('POST', CR, clusterRole('viewer-pods', { 'example.com/aggregate-to-viewer': 'true' }, [get('pods'), get('services')]))).status).toBe(201);
    let events = await watchUntil('agg-viewer', rv0, (o) => resources(o).length === 2);
    const picked = events[events.length - 1].object;
    expect(picked.rules).toEqual([get('pods'), get('services')]);
    // written by the controller, as its field manager
    expect((picked.metadata.managedFields as Obj[]).map((m) => m.manager)).toContain('clusterrole-aggregation-controller');

    // a role the selector does not match changes nothing; one it matches adds its rules (once each)
    const rv1 = picked.metadata.resourceVersion as string;
    expect((await call('POST', CR, clusterRole('unrelated', { other: 'x' }, [get('nodes')]))).status).toBe(201);
    expect((await call('POST', CR, clusterRole('viewer-secrets', { 'example.com/aggregate-to-viewer': 'true' }, [get('secrets'), get('pods')]))).status).toBe(201);
    events = await watchUntil('agg-viewer', rv1, (o) => resources(o).length === 3);
    expect(events.map((e) => e.type)).toEqual(['MODIFIED']);
    expect(resources(events[0].object)).toEqual(['pods', 'services', 'secrets']);

    // the role goes: so do its rules
    const rv2 = events[0].object.metadata.resourceVersion as string;
    expect((await call('DELETE', `${CR}/viewer-pods`)).status).toBe(200);
    events = await watchUntil('agg-viewer', rv2, (o) => !resources(o).includes('services'));
    expect(events.map((e) => e.type)).toEqual(['MODIFIED']);
    expect(resources(events[0].object)).toEqual(['secrets', 'pods']);

    // rules written into an aggregate by hand are put back
    const rv3 = events[0].object.metadata.resourceVersion as string;
    const current = (await call('GET', `${CR}/agg-viewer`)).body;
    expect((await call('PUT', `${CR}/agg-viewer`, { ...current, rules: [get('everything')] })).status).toBe(200);
    events = await watchUntil('agg-viewer', rv3, (o) => resources(o).join() === 'secrets,pods');
    expect(events.map((e) => resources(e.object).join())).toEqual(['everything', 'secrets,pods']);
  });
});
