// One write measured against quotas: which quotas apply, the refusals with
// upstream's texts, what is charged (updates: only what grows).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/errors.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { AdmissionAttributes } from '../../chain.ts';
import { checkRequest } from './check.ts';
import type { LimitedResource } from './config.ts';
import { evaluatorFor } from './evaluators.ts';

const quota = (name: string, hard: Record<string, string>, used: Record<string, string> | undefined, spec: Obj = {}): Obj => ({
  metadata: { name, namespace: 'ns', resourceVersion: '7' },
  spec: { hard, ...spec },
  status: used ? { hard, used } : { hard },
});
const attrs = (resource: string, object: Obj, extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: '',
  resource,
  subresource: '',
  namespace: 'ns',
  name: object.metadata?.name ?? '',
  object,
  oldObject: null,
  dryRun: false,
  user: { name: 'u', groups: [] },
  ...extra,
});
const podWith = (name: string, requests?: Obj): Obj => ({ metadata: { name }, spec: { containers: [{ name: 'c', ...(requests ? { resources: { requests } } : {}) }] } });
const run = (quotas: Obj[], a: AdmissionAttributes) => checkRequest(quotas, a, evaluatorFor(a.group, a.resource), 0);
const refusal = (quotas: Obj[], a: AdmissionAttributes): string => {
  try {
    run(quotas, a);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(403);
    return (err as ApiError).message;
  }
  throw new Error('admitted');
};

describe('checkRequest', () => {
  it('charges every matching quota and leaves the others', () => {
    const qs = [quota('a', { pods: '3' }, { pods: '1' }), quota('b', { 'count/configmaps': '1' }, { 'count/configmaps': '0' }), quota('c', { 'requests.cpu': '2' }, { 'requests.cpu': '500m' })];
    const r = run(qs, attrs('pods', podWith('p', { cpu: '250m' })));
    expect(r.changed).toEqual([0, 2]);
    expect(r.quotas[0].status.used).toEqual({ pods: '2' });
    expect(r.quotas[1]).toBe(qs[1]);
    expect(r.quotas[2].status.used).toEqual({ 'requests.cpu': '750m' });
  });

  it.each([
    ['over one name', [quota('q', { pods: '1' }, { pods: '1' })], podWith('p'), 'pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1'],
    [
      'over several names, sorted',
      [quota('q', { pods: '1', 'requests.cpu': '1', 'count/pods': '9' }, { pods: '1', 'requests.cpu': '900m', 'count/pods': '1' })],
      podWith('p', { cpu: '200m' }),
      'pods "p" is forbidden: exceeded quota: q, requested: pods=1,requests.cpu=200m, used: pods=1,requests.cpu=900m, limited: pods=1,requests.cpu=1',
    ],
    [
      'usage not known yet',
      [quota('q', { pods: '1', 'requests.memory': '1Gi' }, { pods: '0' })],
      podWith('p', { memory: '1Mi' }),
      'pods "p" is forbidden: status unknown for quota: q, resources: pods,requests.memory',
    ],
    ['a required request missing', [quota('q', { 'requests.cpu': '1' }, { 'requests.cpu': '0' })], podWith('p'), 'pods "p" is forbidden: failed quota: q: must specify requests.cpu for: c'],
  ] as [string, Obj[], Obj, string][])('refuses %s', (_n, qs, obj, message) => {
    expect(refusal(qs, attrs('pods', obj))).toBe(message);
  });

  it('names the generateName when the object has no name yet', () => {
    const obj = { metadata: { generateName: 'web-' }, spec: { containers: [{ name: 'c' }] } };
    expect(refusal([quota('q', { pods: '0' }, { pods: '0' })], attrs('pods', obj, { name: '' }))).toBe('pods "web-" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0');
  });

  it('a quota without status.hard (not synced yet) does not apply', () => {
    const q = { metadata: { name: 'q' }, spec: { hard: { pods: '0' } } };
    expect(run([q], attrs('pods', podWith('p'))).changed).toEqual([]);
  });

  it('scopes select the quotas', () => {
    const qs = [quota('be', { pods: '0' }, { pods: '0' }, { scopes: ['BestEffort'] }), quota('nbe', { pods: '5' }, { pods: '0' }, { scopes: ['NotBestEffort'] })];
    const r = run(qs, attrs('pods', podWith('p', { cpu: '1' })));
    expect(r.changed).toEqual([1]);
    expect(refusal(qs, attrs('pods', podWith('p')))).toBe('pods "p" is forbidden: exceeded quota: be, requested: pods=1, used: pods=0, limited: pods=0');
  });

  it('an update charges only what grows', () => {
    const q = [quota('q', { 'requests.storage': '10Gi' }, { 'requests.storage': '5Gi' })];
    const claim = (size: string) => ({ metadata: { name: 'c', resourceVersion: '3' }, spec: { resources: { requests: { storage: size } } } });
    const grow = run(q, attrs('persistentvolumeclaims', claim('8Gi'), { operation: 'UPDATE', oldObject: claim('5Gi') }));
    expect(grow.quotas[0].status.used).toEqual({ 'requests.storage': '8Gi' });
    const shrink = run(q, attrs('persistentvolumeclaims', claim('1Gi'), { operation: 'UPDATE', oldObject: claim('5Gi') }));
    expect(shrink.changed).toEqual([]);
  });

  it('what the evaluator does not handle is never charged', () => {
    const q = [quota('q', { configmaps: '0' }, { configmaps: '0' })];
    expect(run(q, attrs('configmaps', { metadata: { name: 'x', resourceVersion: '1' } }, { operation: 'UPDATE', oldObject: { metadata: { name: 'x', resourceVersion: '1' } } })).changed).toEqual([]);
  });
});

describe('limitedResources (the plugin configuration)', () => {
  const cpuPods: LimitedResource = { apiGroup: '', resource: 'pods', matchContains: ['requests.cpu'], matchScopes: [] };
  const limitedRun = (quotas: Obj[], a: AdmissionAttributes, limited: LimitedResource[] = [cpuPods]) => checkRequest(quotas, a, evaluatorFor(a.group, a.resource), 0, limited);
  const refused = (quotas: Obj[], a: AdmissionAttributes, limited: LimitedResource[] = [cpuPods]): ApiError => {
    try {
      limitedRun(quotas, a, limited);
    } catch (err) {
      return err as ApiError;
    }
    throw new Error('admitted');
  };

  it('refuses consuming a limited resource without a quota covering it, with upstream text', () => {
    const e = refused([], attrs('pods', podWith('p', { cpu: '100m' })));
    expect([e.code, e.message]).toEqual([403, 'pods "p" is forbidden: insufficient quota to consume: requests.cpu']);
    // a quota on something else does not cover it
    expect(refused([quota('q', { pods: '5' }, { pods: '0' })], attrs('pods', podWith('p', { cpu: '100m' }))).message).toBe('pods "p" is forbidden: insufficient quota to consume: requests.cpu');
  });

  it('admits when a matching quota restricts it, or when nothing limited is consumed', () => {
    const r = limitedRun([quota('q', { 'requests.cpu': '1' }, { 'requests.cpu': '0' })], attrs('pods', podWith('p', { cpu: '100m' })));
    expect(r.changed).toEqual([0]);
    expect(limitedRun([], attrs('pods', podWith('p'))).changed).toEqual([]);
    // another resource is not limited
    expect(limitedRun([], attrs('configmaps', { metadata: { name: 'c' } })).changed).toEqual([]);
  });

  it('matchContains matches substrings of the usage names, several sorted and joined', () => {
    const e = refused([], attrs('pods', podWith('p', { cpu: '100m', memory: '1Mi' })), [{ ...cpuPods, matchContains: ['cpu', 'memory'] }]);
    expect(e.message).toBe('pods "p" is forbidden: insufficient quota to consume: cpu,memory,requests.cpu,requests.memory');
  });

  it('matchScopes: an object in a limited scope needs a quota selecting that scope (a 500 with upstream text)', () => {
    const scoped = { apiGroup: '', resource: 'pods', matchContains: [], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high', 'top'] }] };
    const high = { metadata: { name: 'p' }, spec: { priorityClassName: 'high', containers: [{ name: 'c' }] } };
    const e = refused([], attrs('pods', high), [scoped]);
    expect([e.code, e.reason, e.message]).toEqual([500, '', 'insufficient quota to match these scopes: [{PriorityClass In [high top]}]']);
    const covering = quota('q', { pods: '9' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } });
    expect(limitedRun([covering], attrs('pods', high), [scoped]).changed).toEqual([0]);
    // a pod outside the limited scope is not concerned
    expect(limitedRun([], attrs('pods', podWith('p')), [scoped]).changed).toEqual([]);
  });
});
