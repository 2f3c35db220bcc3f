// End-to-end against a real server process, for what the other kubectl
// tests leave out: boolean query parameters in upstream's spellings
// (`watch=True` watches), the field errors of ListOptions (no field repeated
// in a cause's message), the pod and node status subresources and
// ephemeral containers through kubectl (kubectl debug), and the defaults
// and rules of the resource
// reference (Endpoints port protocol, APIService port, flow-control shares,
// EndpointSlice's deprecatedTopology, Ingress pathType, RuntimeClass
// overhead, PersistentVolume node affinity, HPA targets, the Service health
// check node port, Namespace deletecollection).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kubectl, type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';
import { serverFetch } from '../support/server-fetch.ts';

let session: KubectlSession;
const k: Kubectl = (args, opts) => session.k(args, opts);
const url = (path: string) => `${session.server.url}${path}`;

beforeAll(async () => {
  session = await kubectlSession();
});
afterAll(async () => {
  await session?.stop();
});

const refused = async (args: string[], input: string, text: string) => {
  const r = await k(args, { input });
  expect(r.code, r.stdout).not.toBe(0);
  expect(r.stderr).toContain(text);
};

describe('query parameters and ListOptions', () => {
  it.each(['True', 'yes', '1', ''])('watch=%s is a watch (only false and 0 are false)', async (value) => {
    ok(await k(['create', 'configmap', `w-${value.toLowerCase() || 'empty'}`, '--from-literal=a=1']));
    const out = ok(await k(['get', '--raw', `/api/v1/namespaces/default/configmaps?watch=${value}&timeoutSeconds=1`]));
    const first = JSON.parse(out.split('\n')[0]);
    expect(first.type).toBe('ADDED');
    expect(first.object.kind).toBe('ConfigMap');
  });

  it.each(['False', '0'])('watch=%s is a list', async (value) => {
    const out = JSON.parse(ok(await k(['get', '--raw', `/api/v1/namespaces/default/configmaps?watch=${value}`])));
    expect(out.kind).toBe('ConfigMapList');
  });

  it('a ListOptions cause names its field once (in field, not again in the message)', async () => {
    const res = await serverFetch(url('/api/v1/configmaps?resourceVersionMatch=Exact'));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { message: string; details: { causes: { field: string; message: string }[] } };
    expect(body.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
    expect(body.details.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'resourceVersionMatch', message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided' }]);
  });
});

describe('status subresources and ephemeral containers through kubectl', () => {
  it('kubectl patch --subresource=status writes a pod and a node status, and only that', async () => {
    ok(await k(['run', 'st', '--image=nginx']));
    ok(await k(['patch', 'pod', 'st', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Running","podIP":"10.2.0.5"},"spec":{"activeDeadlineSeconds":5}}']));
    const pod = JSON.parse(ok(await k(['get', 'pod', 'st', '-o', 'json'])));
    expect(pod.status).toMatchObject({ phase: 'Running', podIP: '10.2.0.5' });
    expect(pod.spec.activeDeadlineSeconds).toBeUndefined();
    ok(await k(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'st-node' } }) }));
    ok(await k(['patch', 'node', 'st-node', '--subresource=status', '--type=merge', '-p', '{"status":{"addresses":[{"type":"InternalIP","address":"10.3.0.1"}]}}']));
    expect(ok(await k(['get', 'node', 'st-node', '-o', 'jsonpath={.status.addresses[0].address}']))).toBe('10.3.0.1');
  });

  it('kubectl debug adds an ephemeral container through pods/ephemeralcontainers', async () => {
    ok(await k(['run', 'dbg', '--image=nginx']));
    ok(await k(['debug', 'dbg', '--image=busybox', '--container=debugger', '--', 'sleep', '1']));
    const names = ok(await k(['get', 'pod', 'dbg', '-o', 'jsonpath={.spec.ephemeralContainers[*].name}']));
    expect(names).toBe('debugger');
  });
});

describe('defaults and rules of the resource reference', () => {
  it('Endpoints ports default to TCP; an APIService service port to 443; v1 shares stay 0 when 0', async () => {
    ok(
      await k(['apply', '-f', '-'], {
        input: JSON.stringify({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'ep' }, subsets: [{ addresses: [{ ip: '10.1.1.1' }], ports: [{ port: 80 }] }] }),
      }),
    );
    expect(ok(await k(['get', 'endpoints', 'ep', '-o', 'jsonpath={.subsets[0].ports[0].protocol}']))).toBe('TCP');
    const apiService = {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.x.example.com' },
      spec: { group: 'x.example.com', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1, service: { namespace: 'default', name: 'x' } },
    };
    ok(await k(['apply', '-f', '-'], { input: JSON.stringify(apiService) }));
    expect(ok(await k(['get', 'apiservice', 'v1.x.example.com', '-o', 'jsonpath={.spec.service.port}']))).toBe('443');
    const plc = (name: string, shares?: number) => ({
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: { name },
      spec: { type: 'Limited', limited: { ...(shares === undefined ? {} : { nominalConcurrencyShares: shares }), limitResponse: { type: 'Reject' } } },
    });
    ok(await k(['apply', '-f', '-'], { input: JSON.stringify(plc('plc-zero', 0)) }));
    ok(await k(['apply', '-f', '-'], { input: JSON.stringify(plc('plc-unset')) }));
    expect(ok(await k(['get', 'prioritylevelconfiguration', 'plc-zero', '-o', 'jsonpath={.spec.limited.nominalConcurrencyShares}']))).toBe('0');
    expect(ok(await k(['get', 'prioritylevelconfiguration', 'plc-unset', '-o', 'jsonpath={.spec.limited.nominalConcurrencyShares}']))).toBe('30');
  });

  it('EndpointSlice v1 drops deprecatedTopology', async () => {
    const slice = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'es' },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.1.1.1'], deprecatedTopology: { zone: 'a' } }],
    };
    ok(await k(['create', '-f', '-'], { input: JSON.stringify(slice) }));
    expect(JSON.parse(ok(await k(['get', 'endpointslice', 'es', '-o', 'json']))).endpoints[0]).toEqual({ addresses: ['10.1.1.1'] });
  });

  it('refuses a bad Ingress pathType, RuntimeClass overhead, empty PV nodeSelectorTerms and HPA target type', async () => {
    const ingress = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'ing' },
      spec: { rules: [{ http: { paths: [{ path: '/', pathType: 'Regex', backend: { service: { name: 's', port: { number: 80 } } } }] } }] },
    };
    await refused(['create', '-f', '-'], JSON.stringify(ingress), 'spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex"');
    const rc = { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'rc' }, handler: 'h', overhead: { podFixed: { cpu: '-1' } } };
    await refused(['create', '-f', '-'], JSON.stringify(rc), 'overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0');
    const pv = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' }, nodeAffinity: { required: { nodeSelectorTerms: [] } } },
    };
    await refused(['create', '-f', '-'], JSON.stringify(pv), 'spec.nodeAffinity.required.nodeSelectorTerms: Required value');
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'hpa' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Percent' } } }] },
    };
    await refused(['create', '-f', '-'], JSON.stringify(hpa), 'spec.metrics[0].resource.target.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue');
  });

  it('a Service health check node port may not change; Namespaces have no deletecollection (405)', async () => {
    ok(
      await k(['create', '-f', '-'], {
        input: JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] } }),
      }),
    );
    const hc = Number(ok(await k(['get', 'service', 'lb', '-o', 'jsonpath={.spec.healthCheckNodePort}'])));
    expect(hc).toBeGreaterThan(0);
    const other = hc === 30000 ? 30001 : 30000;
    const r = await k(['patch', 'service', 'lb', '--type=merge', '-p', JSON.stringify({ spec: { healthCheckNodePort: other } })]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.healthCheckNodePort');
    const res = await serverFetch(url('/api/v1/namespaces'), { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(((await res.json()) as { reason: string }).reason).toBe('MethodNotAllowed');
  });
});
