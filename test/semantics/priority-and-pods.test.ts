// PriorityClass and Pod defaults through the server: the built-in system
// classes exist from the start, the reserved prefix and the one global
// default are refused with upstream's answers, and a new Pod is Pending
// with upstream's defaults, its priority resolved by the Priority plugin.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { call, causeMessages, server } from './helpers.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

const PC = '/apis/scheduling.k8s.io/v1/priorityclasses';
const PODS = '/api/v1/namespaces/default/pods';
const pc = (name: string, value: number, extra: Record<string, unknown> = {}) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra });

describe('PriorityClass', () => {
  it.each([
    ['system-node-critical', 2000001000, 'Used for system critical pods that must not be moved from their current node.'],
    ['system-cluster-critical', 2000000000, 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'],
  ])('%s exists from the start', async (name, value, description) => {
    const r = await call(s, 'GET', `${PC}/${name}`);
    expect(r.code).toBe(200);
    expect(r.body).toMatchObject({ value, description, preemptionPolicy: 'PreemptLowerPriority' });
    expect(r.body.globalDefault).toBeUndefined();
  });

  it('refuses a reserved name and a value above one billion (422), and value changes', async () => {
    const sys = await call(s, 'POST', PC, pc('system-mine', 5));
    expect(sys.code).toBe(422);
    expect(causeMessages(sys)).toEqual([
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
    ]);
    const big = await call(s, 'POST', PC, pc('big', 1_000_000_001));
    expect(big.code).toBe(422);
    expect(causeMessages(big)).toEqual(['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']);
    expect((await call(s, 'POST', PC, pc('fixed', 10))).code).toBe(201);
    const changed = await call(s, 'PATCH', `${PC}/fixed`, { value: 11 }, 'application/merge-patch+json');
    expect(changed.code).toBe(422);
    expect(causeMessages(changed)).toEqual(['value: Forbidden: may not be changed in an update.']);
  });

  it('allows one global default: a second is 403 naming the first', async () => {
    expect((await call(s, 'POST', PC, pc('dflt', 100, { globalDefault: true }))).code).toBe(201);
    const second = await call(s, 'POST', PC, pc('dflt2', 200, { globalDefault: true }));
    expect(second.code).toBe(403);
    expect(second.body).toMatchObject({
      reason: 'Forbidden',
      message: 'priorityclasses.scheduling.k8s.io "dflt2" is forbidden: PriorityClass dflt is already marked as default. Only one default can exist',
    });
    // a pod without a class now gets the default's name and value
    const pod = await call(s, 'POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'with-default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect(pod.code, JSON.stringify(pod.body)).toBe(201);
    expect(pod.body.spec).toMatchObject({ priorityClassName: 'dflt', priority: 100 });
    expect((await call(s, 'DELETE', `${PC}/dflt`)).code).toBe(200);
  });
});

describe('Pod defaults', () => {
  it('a new pod is Pending with upstream defaults and no PodScheduled condition', async () => {
    const r = await call(s, 'POST', PODS, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'defaults' },
      spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '1', memory: '1Gi' } } }] },
      status: { phase: 'Running' },
    });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' });
    expect(r.body.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      securityContext: {},
      enableServiceLinks: true,
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      serviceAccountName: 'default',
    });
    expect(r.body.spec.containers[0]).toMatchObject({
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: { requests: { cpu: '1', memory: '1Gi' } },
    });
  });

  it('a gated pod gets the PodScheduled False condition stamped with the write time, and keeps it on a read', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const r = await call(s, 'POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'gated' }, spec: { schedulingGates: [{ name: 'g' }], containers: [{ name: 'c', image: 'nginx' }] } });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    const cond = r.body.status.conditions[0];
    expect(cond).toMatchObject({ type: 'PodScheduled', status: 'False', lastProbeTime: null, reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' });
    expect(cond.lastTransitionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(cond.lastTransitionTime)).toBeGreaterThanOrEqual(before);
    expect((await call(s, 'GET', `${PODS}/gated`)).body.status.conditions).toEqual([cond]);
  });

  it('a pod naming a missing PriorityClass is 403', async () => {
    const r = await call(s, 'POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'no-class' }, spec: { priorityClassName: 'nope', containers: [{ name: 'c', image: 'nginx' }] } });
    expect(r.code).toBe(403);
    expect(r.body.message).toBe('pods "no-class" is forbidden: no PriorityClass with name nope was found');
  });

  it('a pod naming a system class gets its value', async () => {
    const r = await call(s, 'POST', PODS, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'critical' },
      spec: { priorityClassName: 'system-cluster-critical', containers: [{ name: 'c', image: 'nginx' }] },
    });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.spec.priority).toBe(2000000000);
  });
});
