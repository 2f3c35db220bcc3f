// Server-side apply on a resource served in several versions of different
// shapes (one store, declared conversions): each managedFields entry keeps
// the apiVersion it was written through, and a later write is compared with
// it in that version, as upstream's field manager converts the objects to
// each manager's version. A field renamed between versions (events.k8s.io
// `note`, core `message`) is one field: applying another value through the
// other version is a 409 naming the owner's path, force takes it, and a
// plain update through the other version takes it from its owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, type Json } from '../support/app-call.ts';
import { newStyleEvent } from '../support/events.ts';

let s: RunningServer;
const call = appCaller(() => s);

const NS = 'default';
const CORE = `/api/v1/namespaces/${NS}/events`;
const EVENTS = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;
const FC = 'flowcontrol.apiserver.k8s.io';
const hpas = (v: string) => `/apis/autoscaling/${v}/namespaces/${NS}/horizontalpodautoscalers`;

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

function apply(collection: string, body: Json, manager: string, force = false) {
  const q = `fieldManager=${manager}${force ? '&force=true' : ''}`;
  return call('PATCH', `${collection}/${body.metadata.name}?${q}`, body, 'application/apply-patch+yaml');
}

/** The managedFields entries of the object: `manager/operation@apiVersion` to their fieldsV1. */
async function owners(path: string): Promise<Record<string, Json>> {
  const got = await call('GET', path);
  expect(got.status).toBe(200);
  const out: Record<string, Json> = {};
  for (const e of got.json.metadata.managedFields ?? []) out[`${e.manager}/${e.operation}@${e.apiVersion}`] = e.fieldsV1;
  return out;
}

const newStyle = (name: string, note: string): Json => newStyleEvent(name, { note });
/** The same Event in core v1's shape (a whole object: core's schema requires involvedObject) with its own message. */
function oldStyle(name: string, message: string): Json {
  const { apiVersion: _v, note: _n, regarding, reportingController, ...rest } = newStyle(name, '');
  return { apiVersion: 'v1', ...rest, involvedObject: regarding, reportingComponent: reportingController, message };
}

function conflictOf(r: { status: number; json: Json }, owner: string, field: string) {
  expect(r.status, JSON.stringify(r.json)).toBe(409);
  expect(r.json).toMatchObject({
    kind: 'Status',
    status: 'Failure',
    reason: 'Conflict',
    code: 409,
    message: `Apply failed with 1 conflict: conflict with "${owner}": ${field}`,
    details: { causes: [{ reason: 'FieldManagerConflict', message: `conflict with "${owner}"`, field }] },
  });
}

describe('Events: note (events.k8s.io/v1) and message (v1) are one field', () => {
  it('applying another message through core conflicts with the note owner, in its terms; both versions name the same owner', async () => {
    expect((await apply(EVENTS, newStyle('ev-conflict', 'from new'), 'new-style')).status).toBe(201);
    conflictOf(await apply(CORE, oldStyle('ev-conflict', 'from old'), 'old-style'), 'new-style', '.note');
    // and the other way round: the message owner is named by its core path
    expect((await apply(CORE, oldStyle('ev-conflict-2', 'from old'), 'old-style')).status).toBe(201);
    conflictOf(await apply(EVENTS, newStyle('ev-conflict-2', 'from new'), 'new-style'), 'old-style', '.message');
    // a configuration of the message alone (the rest is the other manager's) conflicts the same way
    conflictOf(await apply(CORE, { apiVersion: 'v1', kind: 'Event', metadata: { name: 'ev-conflict' }, message: 'from old' }, 'old-style'), 'new-style', '.note');
    // the object was left as it was
    expect((await call('GET', `${EVENTS}/ev-conflict`)).json.note).toBe('from new');
  });

  it('the same text through the other version is shared ownership', async () => {
    expect((await apply(EVENTS, newStyle('ev-shared', 'same'), 'new-style')).status).toBe(201);
    expect((await apply(CORE, oldStyle('ev-shared', 'same'), 'old-style')).status).toBe(200);
    const o = await owners(`${CORE}/ev-shared`);
    expect(o['new-style/Apply@events.k8s.io/v1']).toHaveProperty('f:note');
    expect(o['old-style/Apply@v1']).toHaveProperty('f:message');
  });

  it('force takes the field: the events.k8s.io entry loses f:note and keeps the rest', async () => {
    expect((await apply(EVENTS, newStyle('ev-force', 'from new'), 'new-style')).status).toBe(201);
    const forced = await apply(CORE, oldStyle('ev-force', 'from old'), 'old-style', true);
    expect(forced.status, JSON.stringify(forced.json)).toBe(200);
    expect(forced.json.message).toBe('from old');
    expect((await call('GET', `${EVENTS}/ev-force`)).json.note).toBe('from old');
    const o = await owners(`${EVENTS}/ev-force`);
    expect(o['old-style/Apply@v1']).toHaveProperty('f:message');
    const theirs = o['new-style/Apply@events.k8s.io/v1'];
    expect(theirs).not.toHaveProperty('f:note');
    expect(theirs).toHaveProperty('f:reason');
    expect(theirs).toHaveProperty('f:regarding');
  });

  it.each([
    ['a merge patch', 'PATCH', 'application/merge-patch+json'],
    ['a PUT', 'PUT', 'application/json'],
  ])('%s through core takes the message from the note owner', async (_name, method, type) => {
    const name = `ev-update-${method.toLowerCase()}`;
    expect((await apply(EVENTS, newStyle(name, 'from new'), 'new-style')).status).toBe(201);
    let body: Json = { message: 'changed' };
    if (method === 'PUT') body = { ...(await call('GET', `${CORE}/${name}`)).json, message: 'changed' };
    const r = await call(method, `${CORE}/${name}?fieldManager=editor`, body, type);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const o = await owners(`${CORE}/${name}`);
    expect(o['editor/Update@v1']).toEqual({ 'f:message': {} });
    expect(o['new-style/Apply@events.k8s.io/v1']).not.toHaveProperty('f:note');
    expect(o['new-style/Apply@events.k8s.io/v1']).toHaveProperty('f:reason');
    // the note owner applying its old text again now conflicts with the editor, named in core's terms
    const again = await apply(EVENTS, newStyle(name, 'from new'), 'new-style');
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(`Apply failed with 1 conflict: conflict with "editor" using v1: .message`);
  });
});

describe('flowcontrol: v1 and v1beta3', () => {
  const plc = (v: string, name: string, shares: number): Json => ({
    apiVersion: `${FC}/${v}`,
    kind: 'PriorityLevelConfiguration',
    metadata: { name },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: shares, limitResponse: { type: 'Reject' } } },
  });
  const fs = (v: string, name: string, precedence: number): Json => ({
    apiVersion: `${FC}/${v}`,
    kind: 'FlowSchema',
    metadata: { name },
    spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: precedence },
  });

  it.each([
    ['PriorityLevelConfiguration', 'prioritylevelconfigurations', plc, 10, 20, '.spec.limited.nominalConcurrencyShares'],
    ['FlowSchema', 'flowschemas', fs, 500, 600, '.spec.matchingPrecedence'],
  ])('%s: a field applied through v1 conflicts when applied with another value through v1beta3', async (_kind, resource, make, a, b, field) => {
    const name = `x-${resource}`;
    expect((await apply(`/apis/${FC}/v1/${resource}`, make('v1', name, a), 'first')).status).toBe(201);
    conflictOf(await apply(`/apis/${FC}/v1beta3/${resource}`, make('v1beta3', name, b), 'second'), 'first', field);
    const forced = await apply(`/apis/${FC}/v1beta3/${resource}`, make('v1beta3', name, b), 'second', true);
    expect(forced.status, JSON.stringify(forced.json)).toBe(200);
    const o = await owners(`/apis/${FC}/v1/${resource}/${name}`);
    expect(JSON.stringify(o[`first/Apply@${FC}/v1`])).not.toContain(field.split('.').pop());
    expect(JSON.stringify(o[`second/Apply@${FC}/v1beta3`])).toContain(field.split('.').pop());
  });
});

describe('HorizontalPodAutoscaler: v1 targetCPUUtilizationPercentage is v2 metrics', () => {
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
  const cpu = (n: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } } });
  const v1 = (name: string, target: number): Json => ({
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name },
    spec: { scaleTargetRef: ref, maxReplicas: 5, targetCPUUtilizationPercentage: target },
  });
  const v2 = (name: string, target: number): Json => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name },
    spec: { scaleTargetRef: ref, maxReplicas: 5, metrics: [cpu(target)] },
  });

  it('another CPU target through v1 conflicts with the v2 owner of the (atomic) metrics list', async () => {
    expect((await apply(hpas('v2'), v2('hpa-a', 50), 'v2-owner')).status).toBe(201);
    conflictOf(await apply(hpas('v1'), v1('hpa-a', 70), 'v1-owner'), 'v2-owner', '.spec.metrics');
  });

  it('another metrics list through v2 conflicts with the v1 owner of the CPU target', async () => {
    expect((await apply(hpas('v1'), v1('hpa-b', 50), 'v1-owner')).status).toBe(201);
    conflictOf(await apply(hpas('v2'), v2('hpa-b', 70), 'v2-owner'), 'v1-owner', '.spec.targetCPUUtilizationPercentage');
    const forced = await apply(hpas('v2'), v2('hpa-b', 70), 'v2-owner', true);
    expect(forced.status, JSON.stringify(forced.json)).toBe(200);
    const o = await owners(`${hpas('v1')}/hpa-b`);
    expect(o['v1-owner/Apply@autoscaling/v1']['f:spec']).not.toHaveProperty('f:targetCPUUtilizationPercentage');
    expect(o['v2-owner/Apply@autoscaling/v2']['f:spec']).toHaveProperty('f:metrics');
    expect((await call('GET', `${hpas('v1')}/hpa-b`)).json.spec.targetCPUUtilizationPercentage).toBe(70);
  });
});
