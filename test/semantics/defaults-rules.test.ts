// Defaults and rules of kube-apiserver 1.31 that several kinds share the
// shape of, one row each: v1 defaulters (Endpoints port protocol, APIService
// port, PriorityLevelConfiguration shares), EndpointSlice deprecatedTopology,
// Service healthCheckNodePort, Ingress pathType, HPA target types,
// PersistentVolume node affinity terms, RuntimeClass overhead and node
// selector, APIService condition statuses, CSIDriver podInfoOnMount
// (mutable since 1.29) and Namespace deletecollection (not served).

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

let n = 0;
const uniq = (p: string) => `${p}-${++n}`;

function expect422(r: { code: number; body: any }, line: string) {
  expect(r.code, JSON.stringify(r.body)).toBe(422);
  expect(r.body.reason).toBe('Invalid');
  expect(
    causeMessages(r).some((m) => m.startsWith(line)),
    causeMessages(r).join('\n'),
  ).toBe(true);
}

describe('v1 defaults', () => {
  it('Endpoints ports default to TCP', async () => {
    const r = await call(s, 'POST', '/api/v1/namespaces/default/endpoints', { metadata: { name: uniq('ep') }, subsets: [{ addresses: [{ ip: '10.1.1.1' }], ports: [{ port: 80 }] }] });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.subsets[0].ports[0]).toEqual({ port: 80, protocol: 'TCP' });
  });

  it('APIService service port defaults to 443', async () => {
    const r = await call(s, 'POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      metadata: { name: 'v1.defaults.example.com' },
      spec: { group: 'defaults.example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: 'default', name: 'x' } },
    });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.spec.service.port).toBe(443);
  });

  it.each([
    ['v1 unset', 'v1', {}, 30],
    ['v1 explicit 0', 'v1', { nominalConcurrencyShares: 0 }, 0],
    ['v1beta3 0', 'v1beta3', { nominalConcurrencyShares: 0 }, 30],
  ])('PriorityLevelConfiguration nominalConcurrencyShares: %s', async (_name, version, limited, want) => {
    const r = await call(s, 'POST', `/apis/flowcontrol.apiserver.k8s.io/${version}/prioritylevelconfigurations`, {
      metadata: { name: uniq('plc') },
      spec: { type: 'Limited', limited: { ...limited, limitResponse: { type: 'Reject' } } },
    });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.spec.limited.nominalConcurrencyShares).toBe(want);
  });
});

describe('EndpointSlice deprecatedTopology', () => {
  it('is dropped by writes through v1', async () => {
    const name = uniq('eps');
    const path = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
    const r = await call(s, 'POST', path, { metadata: { name }, addressType: 'IPv4', endpoints: [{ addresses: ['10.1.1.1'], deprecatedTopology: { 'kubernetes.io/hostname': 'n1' } }] });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.endpoints[0].deprecatedTopology).toBeUndefined();
    const u = await call(s, 'PUT', `${path}/${name}`, { ...r.body, endpoints: [{ addresses: ['10.1.1.2'], deprecatedTopology: { zone: 'a' } }] });
    expect(u.code, JSON.stringify(u.body)).toBe(200);
    expect(u.body.endpoints[0]).toEqual({ addresses: ['10.1.1.2'] });
  });
});

describe('Service healthCheckNodePort', () => {
  it('may not change while the Service needs one; carried over when left out', async () => {
    const name = uniq('svc');
    const path = '/api/v1/namespaces/default/services';
    const r = await call(s, 'POST', path, { metadata: { name }, spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] } });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    const hc = r.body.spec.healthCheckNodePort;
    expect(hc).toBeGreaterThan(0);
    const other = hc === 32000 ? 32001 : 32000;
    expect422(
      await call(s, 'PUT', `${path}/${name}`, { ...r.body, spec: { ...r.body.spec, healthCheckNodePort: other } }),
      'spec.healthCheckNodePort: Invalid value: ' + other + ': cannot change healthCheckNodePort on loadBalancer service with externalTraffic=Local during update',
    );
    const { healthCheckNodePort: _drop, ...spec } = r.body.spec;
    const same = await call(s, 'PUT', `${path}/${name}`, { ...r.body, spec });
    expect(same.code, JSON.stringify(same.body)).toBe(200);
    expect(same.body.spec.healthCheckNodePort).toBe(hc);
  });
});

describe('field rules', () => {
  const backend = { service: { name: 'x', port: { number: 80 } } };
  const ingress = (paths: object[]) => ({ metadata: { name: uniq('ing') }, spec: { rules: [{ http: { paths } }] } });
  const hpa = (target: object) => ({
    metadata: { name: uniq('hpa') },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target } }] },
  });
  const pv = (nodeAffinity: object) => ({
    metadata: { name: uniq('pv') },
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/x' }, nodeAffinity },
  });
  const runtimeClass = (extra: object) => ({ metadata: { name: uniq('rc') }, handler: 'runc', ...extra });
  it.each([
    [
      'RuntimeClass overhead negative',
      '/apis/node.k8s.io/v1/runtimeclasses',
      runtimeClass({ overhead: { podFixed: { cpu: '-1' } } }),
      'overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
    ],
    [
      'RuntimeClass overhead resource',
      '/apis/node.k8s.io/v1/runtimeclasses',
      runtimeClass({ overhead: { podFixed: { pods: '1' } } }),
      'overhead.limits[pods]: Invalid value: "pods": must be a standard resource for containers',
    ],
    [
      'RuntimeClass nodeSelector key',
      '/apis/node.k8s.io/v1/runtimeclasses',
      runtimeClass({ scheduling: { nodeSelector: { 'bad key': 'v' } } }),
      'scheduling.nodeSelector: Invalid value: "bad key": name part must consist of alphanumeric characters',
    ],
    [
      'RuntimeClass nodeSelector value',
      '/apis/node.k8s.io/v1/runtimeclasses',
      runtimeClass({ scheduling: { nodeSelector: { zone: 'a b' } } }),
      'scheduling.nodeSelector: Invalid value: "a b": a valid label must be',
    ],
    ['Ingress pathType missing', '/apis/networking.k8s.io/v1/namespaces/default/ingresses', ingress([{ path: '/', backend }]), 'spec.rules[0].http.paths[0].pathType: Required value'],
    [
      'Ingress pathType value',
      '/apis/networking.k8s.io/v1/namespaces/default/ingresses',
      ingress([{ path: '/', pathType: 'Regex', backend }]),
      'spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex"',
    ],
    [
      'Ingress Prefix path relative',
      '/apis/networking.k8s.io/v1/namespaces/default/ingresses',
      ingress([{ path: 'a', pathType: 'Prefix', backend }]),
      'spec.rules[0].http.paths[0].path: Invalid value: "a": must be an absolute path',
    ],
    [
      'HPA target type',
      '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers',
      hpa({ type: 'Percent' }),
      'spec.metrics[0].resource.target.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue',
    ],
    [
      'HPA averageUtilization',
      '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers',
      hpa({ type: 'Utilization', averageUtilization: 0 }),
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    ],
    [
      'PV empty nodeSelectorTerms',
      '/api/v1/persistentvolumes',
      pv({ required: { nodeSelectorTerms: [] } }),
      'spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term',
    ],
    ['PV node affinity without required', '/api/v1/persistentvolumes', pv({}), 'spec.nodeAffinity.required: Required value: must specify required node constraints'],
  ])('%s', async (_name, path, body, line) => {
    expect422(await call(s, 'POST', path, body), line);
  });
});

describe('status conditions', () => {
  it('APIService condition status is True, False or Unknown', async () => {
    const name = 'v1.conditions.example.com';
    const r = await call(s, 'POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      metadata: { name },
      spec: { group: 'conditions.example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: 'default', name: 'x' } },
    });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    const path = `/apis/apiregistration.k8s.io/v1/apiservices/${name}/status`;
    expect422(
      await call(s, 'PUT', path, { ...r.body, status: { conditions: [{ type: 'Available', status: 'Maybe' }] } }),
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
    );
    const good = await call(s, 'PUT', path, { ...r.body, status: { conditions: [{ type: 'Available', status: 'False', reason: 'Down' }] } });
    expect(good.code, JSON.stringify(good.body)).toBe(200);
  });
});

describe('upstream facts kept', () => {
  it('CSIDriver podInfoOnMount may change (mutable since 1.29)', async () => {
    const name = `${uniq('csi')}.example.com`;
    const r = await call(s, 'POST', '/apis/storage.k8s.io/v1/csidrivers', { metadata: { name }, spec: { podInfoOnMount: false } });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    const u = await call(s, 'PUT', `/apis/storage.k8s.io/v1/csidrivers/${name}`, { ...r.body, spec: { ...r.body.spec, podInfoOnMount: true } });
    expect(u.code, JSON.stringify(u.body)).toBe(200);
  });

  it('Namespaces have no deletecollection: 405', async () => {
    const r = await call(s, 'DELETE', '/api/v1/namespaces');
    expect(r.code).toBe(405);
    expect(r.body.reason).toBe('MethodNotAllowed');
  });
});
