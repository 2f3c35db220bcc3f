// Admission webhooks matched through matchPolicy Equivalent get the objects
// in the version they registered for, as upstream's dispatchers convert
// them: a webhook for events.k8s.io/v1 events sees a core/v1 Event write as
// an events.k8s.io/v1 Event (note, regarding), with request.kind and
// request.resource the matched ones and requestKind and requestResource the
// client's; its JSON patch of `note` lands in the stored core Event's
// `message`. The same for HorizontalPodAutoscalers: a webhook for
// autoscaling/v2 sees a v1 write with v2's metrics (from v1's field and
// annotation), and its patch of a v2-only field comes back to the v1 client
// in the annotation. A validating webhook gets oldObject converted too, and
// a webhook registered for the request's own version gets it as sent. A
// ValidatingAdmissionPolicy for events.k8s.io/v1 reads a core Event's
// message as `object.note`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';
import { startTlsWebhook, type TlsWebhook } from '../support/tls-webhook.ts';

let s: RunningServer;
const call = appCaller(() => s);
let hook: TlsWebhook | undefined;
let port = 0;
let caBundle = '';
/** Requests received, by path. */
const received = new Map<string, Json[]>();

const NS = 'default';
const review = (req: Json, response: Json) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: req.uid, allowed: true, ...response } });
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const patch = (req: Json, ops: unknown[]) => review(req, { patchType: 'JSONPatch', patch: b64(ops) });
const pods = { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } };

/** The webhook's answer by path: patches only objects of the test (named `eq-*`), in the shape it registered for. */
function answer(path: string, req: Json): unknown {
  const obj: Json | null = req.object ?? null;
  if (!String(obj?.metadata?.name ?? req.oldObject?.metadata?.name ?? '').startsWith('eq-')) return review(req, {});
  switch (path) {
    case '/event-note':
      return typeof obj?.note === 'string' && !obj.note.endsWith('(seen)') ? patch(req, [{ op: 'replace', path: '/note', value: `${obj.note} (seen)` }]) : review(req, {});
    case '/hpa-metrics':
      return Array.isArray(obj?.spec?.metrics) && obj.spec.metrics.length === 1 ? patch(req, [{ op: 'add', path: '/spec/metrics/-', value: pods }]) : review(req, {});
    default:
      return review(req, {});
  }
}

function serve(req: IncomingMessage, res: ServerResponse) {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const path = (req.url ?? '').split('?')[0];
    const r = (JSON.parse(body) as Json).request as Json;
    received.set(path, [...(received.get(path) ?? []), r]);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(answer(path, r)));
  });
}

beforeAll(async () => {
  hook = await startTlsWebhook(serve, { caName: 'equivalent-webhook-ca' });
  caBundle = hook.caBundle;
  port = hook.port;
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
  await hook?.close();
});

const GROUP = '/apis/admissionregistration.k8s.io/v1';

async function configure(kind: 'mutating' | 'validating', name: string, path: string, rule: Json, matchPolicy = 'Equivalent') {
  const res = await call('POST', `${GROUP}/${kind}webhookconfigurations`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: kind === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
    metadata: { name },
    webhooks: [{ name: `${name}.example.com`, clientConfig: { url: `https://127.0.0.1:${port}${path}`, caBundle }, rules: [rule], matchPolicy, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
}

/** The last request the webhook at `path` got for the object `name`. */
const lastFor = (path: string, name: string) => [...(received.get(path) ?? [])].reverse().find((r) => (r.object ?? r.oldObject)?.metadata?.name === name);

const coreEvent = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', name: 'p1', namespace: NS, apiVersion: 'v1' },
  reason: 'Pulled',
  message: 'pulled the image',
  type: 'Normal',
});

describe('webhooks matched through matchPolicy Equivalent', () => {
  it('a mutating webhook for events.k8s.io/v1 sees a core/v1 Event converted; its patch of note is the core message', async () => {
    await configure('mutating', 'event-note', '/event-note', { operations: ['CREATE', 'UPDATE'], apiGroups: ['events.k8s.io'], apiVersions: ['v1'], resources: ['events'] });
    // in effect once a dry-run create comes back patched
    await eventually(async () => {
      const r = await call('POST', `/api/v1/namespaces/${NS}/events?dryRun=All`, coreEvent('eq-probe'));
      return r.json.message === 'pulled the image (seen)' ? r : undefined;
    }, 'the event webhook in effect');
    const created = await call('POST', `/api/v1/namespaces/${NS}/events`, coreEvent('eq-event'));
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json).toMatchObject({ apiVersion: 'v1', message: 'pulled the image (seen)', involvedObject: { name: 'p1' } });
    expect(created.json.note).toBeUndefined();
    const stored = await s.storage.base.get(`/registry/core/events/${NS}/eq-event`);
    expect(stored).toMatchObject({ apiVersion: 'v1', message: 'pulled the image (seen)' });
    const req = lastFor('/event-note', 'eq-event')!;
    expect(req.kind).toEqual({ group: 'events.k8s.io', version: 'v1', kind: 'Event' });
    expect(req.resource).toEqual({ group: 'events.k8s.io', version: 'v1', resource: 'events' });
    expect(req.requestKind).toEqual({ group: '', version: 'v1', kind: 'Event' });
    expect(req.requestResource).toEqual({ group: '', version: 'v1', resource: 'events' });
    expect(req.object).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'Event', note: 'pulled the image', regarding: { kind: 'Pod', name: 'p1' } });
    expect(req.object.message).toBeUndefined();
    expect(req.object.involvedObject).toBeUndefined();
  });

  it('a validating webhook for events.k8s.io/v1 gets object and oldObject of a core/v1 update converted', async () => {
    await configure('validating', 'event-record', '/event-record', { operations: ['UPDATE'], apiGroups: ['events.k8s.io'], apiVersions: ['v1'], resources: ['events'] });
    const path = `/api/v1/namespaces/${NS}/events/eq-event`;
    const req = await eventually(async () => {
      const r = await call('PATCH', path, { reason: `Again${Date.now()}` }, 'application/merge-patch+json');
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      return lastFor('/event-record', 'eq-event');
    }, 'the validating webhook in effect');
    expect(req.kind).toEqual({ group: 'events.k8s.io', version: 'v1', kind: 'Event' });
    expect(req.requestKind).toEqual({ group: '', version: 'v1', kind: 'Event' });
    expect(req.object).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'pulled the image (seen)' });
    expect(req.oldObject).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'pulled the image (seen)', reason: 'Pulled' });
  });

  it('a webhook for the request own version gets the object as sent', async () => {
    await configure('validating', 'event-core', '/event-core', { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['events'] });
    const req = await eventually(async () => {
      await call('POST', `/api/v1/namespaces/${NS}/events?dryRun=All`, coreEvent('eq-core'));
      return lastFor('/event-core', 'eq-core');
    }, 'the core webhook in effect');
    expect(req.kind).toEqual({ group: '', version: 'v1', kind: 'Event' });
    expect(req.object).toMatchObject({ apiVersion: 'v1', message: 'pulled the image (seen)' });
  });

  it('a mutating webhook for autoscaling/v2 sees a v1 HPA in v2; its added metric comes back to v1 in the annotation', async () => {
    await configure('mutating', 'hpa-metrics', '/hpa-metrics', { operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers'] });
    const hpa = (name: string) => ({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 50 },
    });
    const base = `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`;
    await eventually(async () => {
      const r = await call('POST', `${base}?dryRun=All`, hpa('eq-probe'));
      return r.json.metadata?.annotations?.['autoscaling.alpha.kubernetes.io/metrics'] ? r : undefined;
    }, 'the HPA webhook in effect');
    const created = await call('POST', base, hpa('eq-hpa'));
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json.apiVersion).toBe('autoscaling/v1');
    expect(created.json.spec.targetCPUUtilizationPercentage).toBe(50);
    expect(JSON.parse(created.json.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'])).toEqual([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]);
    const v2 = await call('GET', `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers/eq-hpa`);
    // stored from the v1 object: the annotation's metrics first, then v1's CPU target (upstream's conversion order)
    expect(v2.json.spec.metrics).toEqual([pods, { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
    const req = lastFor('/hpa-metrics', 'eq-hpa')!;
    expect(req.kind).toEqual({ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' });
    expect(req.requestKind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' });
    expect(req.object.apiVersion).toBe('autoscaling/v2');
    expect(req.object.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
    expect(req.object.spec.targetCPUUtilizationPercentage).toBeUndefined();
  });
});

describe('policies matched through matchPolicy Equivalent', () => {
  it('a ValidatingAdmissionPolicy for events.k8s.io/v1 reads a core/v1 Event in that version', async () => {
    const ns = 'eq-vap';
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns, labels: { 'eq-vap': 'yes' } } })).status).toBe(201);
    const p = await call('POST', `${GROUP}/validatingadmissionpolicies`, {
      metadata: { name: 'eq-note' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          matchPolicy: 'Equivalent',
          namespaceSelector: { matchLabels: { 'eq-vap': 'yes' } },
          resourceRules: [{ apiGroups: ['events.k8s.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['events'] }],
        },
        validations: [{ expression: "object.note != 'forbidden note' && object.regarding.name == 'p1'", message: 'note is forbidden' }],
      },
    });
    expect(p.status, JSON.stringify(p.json)).toBe(201);
    const b = await call('POST', `${GROUP}/validatingadmissionpolicybindings`, { metadata: { name: 'eq-note' }, spec: { policyName: 'eq-note', validationActions: ['Deny'] } });
    expect(b.status, JSON.stringify(b.json)).toBe(201);
    const ev = (name: string, message: string) => ({ ...coreEvent(name), metadata: { name, namespace: ns }, involvedObject: { kind: 'Pod', name: 'p1', namespace: ns }, message });
    const denied = await eventually(async () => {
      const r = await call('POST', `/api/v1/namespaces/${ns}/events?dryRun=All`, ev('vap-probe', 'forbidden note'));
      return r.status === 201 ? undefined : r;
    }, 'the policy in effect');
    expect(denied.json.message).toBe(`events "vap-probe" is forbidden: ValidatingAdmissionPolicy 'eq-note' with binding 'eq-note' denied request: note is forbidden`);
    const allowed = await call('POST', `/api/v1/namespaces/${ns}/events`, ev('vap-fine', 'a fine note'));
    expect(allowed.status, JSON.stringify(allowed.json)).toBe(201);
  });
});
