// Service semantics: defaults, field rules (one row each), ClusterIP and
// NodePort allocation (requested, out of range, taken, headless, dry-run,
// failed writes, release on delete), type-change erasures, dual-stack,
// IPAddress objects, the `kubernetes` Service, and 200 concurrent creates.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { call, causeMessages, server } from './helpers.ts';

const SVC = '/api/v1/namespaces/default/services';
let n = 0;
const uniq = () => `svc-${++n}`;
const svc = (spec: Record<string, unknown>, name = uniq()) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
const port80 = [{ port: 80 }];

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

describe('the kubernetes Service', () => {
  it('exists in default with the first address of the range', async () => {
    const r = await call(s, 'GET', `${SVC}/kubernetes`);
    expect(r.code).toBe(200);
    expect(r.body.spec.clusterIP).toBe('10.0.0.1');
    expect(r.body.spec.ports[0]).toMatchObject({ name: 'https', port: 443, protocol: 'TCP' });
  });
});

describe('defaults', () => {
  it('ClusterIP service', async () => {
    const r = await call(s, 'POST', SVC, svc({ ports: [{ port: 80 }], selector: { app: 'a' } }));
    expect(r.code).toBe(201);
    const sp = r.body.spec;
    expect(sp).toMatchObject({ type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    expect(sp.ports[0]).toEqual({ port: 80, protocol: 'TCP', targetPort: 80 });
    expect(sp.clusterIP).toMatch(/^10\.0\.0\.\d+$/);
    expect(sp.clusterIPs).toEqual([sp.clusterIP]);
  });
  it('LoadBalancer service', async () => {
    const r = await call(s, 'POST', SVC, svc({ type: 'LoadBalancer', ports: port80 }));
    expect(r.code).toBe(201);
    expect(r.body.spec).toMatchObject({ externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true });
    expect(r.body.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(r.body.spec.healthCheckNodePort).toBeUndefined();
  });
  it('ClientIP affinity timeout', async () => {
    const r = await call(s, 'POST', SVC, svc({ ports: port80, sessionAffinity: 'ClientIP' }));
    expect(r.body.spec.sessionAffinityConfig.clientIP.timeoutSeconds).toBe(10800);
  });
});

type Row = [string, Record<string, unknown>, string, string?];
const invalid: Row[] = [
  ['name not DNS-1035', { ports: port80, __name: '1abc' }, 'metadata.name', 'Invalid value: "1abc": a DNS-1035 label'],
  ['ports required', {}, 'spec.ports', 'Required value'],
  ['port 0', { ports: [{ port: 0 }] }, 'spec.ports[0].port', 'Invalid value: 0: must be between 1 and 65535, inclusive'],
  ['port too big', { ports: [{ port: 70000 }] }, 'spec.ports[0].port', 'Invalid value: 70000: must be between 1 and 65535, inclusive'],
  ['name required with two ports', { ports: [{ port: 80, name: 'a' }, { port: 81 }] }, 'spec.ports[1].name', 'Required value'],
  [
    'duplicate port name',
    {
      ports: [
        { port: 80, name: 'a' },
        { port: 81, name: 'a' },
      ],
    },
    'spec.ports[1].name',
    'Duplicate value: "a"',
  ],
  ['port name syntax', { ports: [{ port: 80, name: 'A_b' }] }, 'spec.ports[0].name', 'Invalid value: "A_b"'],
  ['protocol', { ports: [{ port: 80, protocol: 'ICMP' }] }, 'spec.ports[0].protocol', 'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'],
  [
    'duplicate port and protocol',
    {
      ports: [
        { port: 80, name: 'a' },
        { port: 80, name: 'b' },
      ],
    },
    'spec.ports[1]',
    'Duplicate value',
  ],
  ['targetPort name', { ports: [{ port: 80, targetPort: 'http--x' }] }, 'spec.ports[0].targetPort', 'Invalid value: "http--x": must not contain consecutive hyphens'],
  ['targetPort digits as string', { ports: [{ port: 80, targetPort: '8080' }] }, 'spec.ports[0].targetPort', 'Invalid value: "8080": must contain at least one letter (a-z)'],
  ['targetPort number', { ports: [{ port: 80, targetPort: 70000 }] }, 'spec.ports[0].targetPort', 'Invalid value: 70000: must be between 1 and 65535, inclusive'],
  ['appProtocol', { ports: [{ port: 80, appProtocol: 'a/b/c' }] }, 'spec.ports[0].appProtocol', 'Invalid value: "a/b/c"'],
  ['nodePort on ClusterIP', { ports: [{ port: 80, nodePort: 30001 }] }, 'spec.ports[0].nodePort', "Forbidden: may not be used when `type` is 'ClusterIP'"],
  ['type', { type: 'Magic', ports: port80 }, 'spec.type', 'Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"'],
  ['externalName required', { type: 'ExternalName' }, 'spec.externalName', 'Required value'],
  ['externalName syntax', { type: 'ExternalName', externalName: 'Not_A_Host' }, 'spec.externalName', 'Invalid value: "Not_A_Host"'],
  ['clusterIP on ExternalName', { type: 'ExternalName', externalName: 'example.com', clusterIP: '10.0.0.9' }, 'spec.clusterIP', 'Forbidden: may not be set for ExternalName services'],
  ['clusterIP syntax', { ports: port80, clusterIP: '10.0.0.300' }, 'spec.clusterIPs[0]', 'Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
  [
    'clusterIP out of range',
    { ports: port80, clusterIP: '10.1.0.5' },
    'spec.clusterIPs',
    'Invalid value: []string{"10.1.0.5"}: failed to allocate IP 10.1.0.5: the provided IP (10.1.0.5) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
  ],
  ['clusterIP taken', { ports: port80, clusterIP: '10.0.0.1' }, 'spec.clusterIPs', 'Invalid value: []string{"10.0.0.1"}: failed to allocate IP 10.0.0.1: provided IP is already allocated'],
  [
    'clusterIP and clusterIPs disagree',
    { ports: port80, clusterIP: '10.0.0.40', clusterIPs: ['10.0.0.41'] },
    'spec.clusterIPs',
    'Invalid value: []string{"10.0.0.41"}: first value must match `clusterIP`',
  ],
  ['IPv6 family not configured', { ports: port80, ipFamilies: ['IPv6'] }, 'spec.ipFamilies[0]', 'Invalid value: "IPv6": not configured on this cluster'],
  ['unknown family', { ports: port80, ipFamilies: ['IPv5'] }, 'spec.ipFamilies[0]', 'Unsupported value: "IPv5"'],
  [
    'RequireDualStack on single stack',
    { ports: port80, ipFamilyPolicy: 'RequireDualStack' },
    'spec.ipFamilyPolicy',
    'Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
  ],
  ['ipFamilyPolicy value', { ports: port80, ipFamilyPolicy: 'Both' }, 'spec.ipFamilyPolicy', 'Unsupported value: "Both"'],
  [
    'externalTrafficPolicy on ClusterIP',
    { ports: port80, externalTrafficPolicy: 'Local' },
    'spec.externalTrafficPolicy',
    "Invalid value: \"Local\": may only be set when `type` is 'NodePort' or 'LoadBalancer'",
  ],
  ['externalTrafficPolicy value', { type: 'NodePort', ports: port80, externalTrafficPolicy: 'Everywhere' }, 'spec.externalTrafficPolicy', 'Unsupported value: "Everywhere"'],
  ['internalTrafficPolicy value', { ports: port80, internalTrafficPolicy: 'Nowhere' }, 'spec.internalTrafficPolicy', 'Unsupported value: "Nowhere"'],
  [
    'healthCheckNodePort without Local',
    { type: 'LoadBalancer', ports: port80, healthCheckNodePort: 30500 },
    'spec.healthCheckNodePort',
    "Invalid value: 30500: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
  ],
  ['sessionAffinity value', { ports: port80, sessionAffinity: 'Sticky' }, 'spec.sessionAffinity', 'Unsupported value: "Sticky"'],
  [
    'affinity timeout too long',
    { ports: port80, sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 90000 } } },
    'spec.sessionAffinityConfig.clientIP.timeoutSeconds',
    'Invalid value: 90000',
  ],
  ['loadBalancerClass on NodePort', { type: 'NodePort', ports: port80, loadBalancerClass: 'example.com/lb' }, 'spec.loadBalancerClass', "Forbidden: may only be used when `type` is 'LoadBalancer'"],
  [
    'allocateLoadBalancerNodePorts on ClusterIP',
    { ports: port80, allocateLoadBalancerNodePorts: true },
    'spec.allocateLoadBalancerNodePorts',
    "Forbidden: may only be used when `type` is 'LoadBalancer'",
  ],
  ['loadBalancerSourceRanges syntax', { type: 'LoadBalancer', ports: port80, loadBalancerSourceRanges: ['10.0.0.0/40'] }, 'spec.loadBalancerSourceRanges[0]', 'Invalid value: "10.0.0.0/40"'],
  ['externalIPs syntax', { ports: port80, externalIPs: ['nope'] }, 'spec.externalIPs[0]', 'Invalid value: "nope": must be a valid IP address'],
  ['trafficDistribution', { ports: port80, trafficDistribution: 'Anywhere' }, 'spec.trafficDistribution', 'Unsupported value: "Anywhere": supported values: "PreferClose"'],
  ['selector syntax', { ports: port80, selector: { 'bad key': 'v' } }, 'spec.selector', 'Invalid value: "bad key"'],
  [
    'nodePort out of range',
    { type: 'NodePort', ports: [{ port: 80, nodePort: 20000 }] },
    'spec.ports[0].nodePort',
    'Invalid value: 20000: provided port is not in the valid range. The range of valid ports is 30000-32767',
  ],
  [
    'duplicate nodePort',
    {
      type: 'NodePort',
      ports: [
        { port: 80, name: 'a', nodePort: 30100 },
        { port: 81, name: 'b', nodePort: 30100 },
      ],
    },
    'spec.ports[1].nodePort',
    'Duplicate value: 30100',
  ],
];

describe('Service field rules', () => {
  it.each(invalid)('%s', async (_n, spec, field, msg) => {
    const { __name, ...rest } = spec as Record<string, unknown>;
    const r = await call(s, 'POST', SVC, svc(rest, (__name as string) ?? uniq()));
    expect(r.code, JSON.stringify(r.body)).toBe(422);
    expect(r.body.reason).toBe('Invalid');
    expect(
      causeMessages(r).some((m) => m.startsWith(`${field}: ${msg}`)),
      causeMessages(r).join('\n'),
    ).toBe(true);
  });

  it.each([
    ['headless', { clusterIP: 'None', selector: { a: 'b' } }, (sp: any) => expect(sp.clusterIPs).toEqual(['None'])],
    ['ExternalName', { type: 'ExternalName', externalName: 'db.example.com.' }, (sp: any) => expect(sp.clusterIP).toBeUndefined()],
    ['requested address in range', { ports: port80, clusterIP: '10.0.0.12' }, (sp: any) => expect(sp.clusterIPs).toEqual(['10.0.0.12'])],
    ['requested nodePort', { type: 'NodePort', ports: [{ port: 80, nodePort: 30077 }] }, (sp: any) => expect(sp.ports[0].nodePort).toBe(30077)],
    ['LB with Local gets a health check port', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: port80 }, (sp: any) => expect(sp.healthCheckNodePort).toBeGreaterThanOrEqual(30000)],
    ['LB without node ports', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: port80 }, (sp: any) => expect(sp.ports[0].nodePort).toBeUndefined()],
  ])('valid: %s', async (_n, spec, check) => {
    const r = await call(s, 'POST', SVC, svc(spec));
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    check(r.body.spec);
  });
});

// Requested addresses and ports in these tests sit in the static bands (10.0.0.2-16, 30000-30085),
// which random allocation does not enter while the rest of the range has room.
describe('allocation bookkeeping', () => {
  it('a requested address is free again after delete; dry-run and failed writes hold nothing', async () => {
    const a = await call(s, 'POST', SVC, svc({ ports: port80, clusterIP: '10.0.0.13' }, 'keep-13'));
    expect(a.code).toBe(201);
    expect((await call(s, 'POST', SVC, svc({ ports: port80, clusterIP: '10.0.0.13' }))).code).toBe(422);
    expect((await call(s, 'DELETE', `${SVC}/keep-13`)).code).toBe(200);
    // dry-run shows the address but does not take it
    const dry = await call(s, 'POST', `${SVC}?dryRun=All`, svc({ ports: port80, clusterIP: '10.0.0.13' }));
    expect(dry.code).toBe(201);
    expect(dry.body.spec.clusterIP).toBe('10.0.0.13');
    // a failed write (name taken) does not keep its reservation
    const dup = await call(s, 'POST', SVC, svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 30050 }], clusterIP: '10.0.0.13' }, 'kubernetes'));
    expect(dup.code).toBe(409);
    const again = await call(s, 'POST', SVC, svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 30050 }], clusterIP: '10.0.0.13' }));
    expect(again.code, JSON.stringify(again.body)).toBe(201);
  });

  it('node ports are kept across updates that omit them and released when the type changes', async () => {
    const c = await call(s, 'POST', SVC, svc({ type: 'NodePort', ports: [{ port: 80, name: 'web' }] }, 'np-keep'));
    const np = c.body.spec.ports[0].nodePort;
    const live = c.body;
    const put = await call(s, 'PUT', `${SVC}/np-keep`, { ...live, spec: { ...live.spec, clusterIP: undefined, clusterIPs: undefined, ports: [{ port: 80, name: 'web' }] } });
    expect(put.code, JSON.stringify(put.body)).toBe(200);
    expect(put.body.spec.ports[0].nodePort).toBe(np);
    expect(put.body.spec.clusterIP).toBe(live.spec.clusterIP);
    const toCIP = await call(s, 'PUT', `${SVC}/np-keep`, { ...put.body, spec: { ...put.body.spec, type: 'ClusterIP' } });
    expect(toCIP.code, JSON.stringify(toCIP.body)).toBe(200);
    expect(toCIP.body.spec.ports[0].nodePort).toBeUndefined();
    expect(toCIP.body.spec.externalTrafficPolicy).toBeUndefined();
    // the port is free again
    const other = await call(s, 'POST', SVC, svc({ type: 'NodePort', ports: [{ port: 80, nodePort: np }] }));
    expect(other.code).toBe(201);
  });

  it('clusterIP may not change; changing to ExternalName erases the address fields and frees the address', async () => {
    const c = await call(s, 'POST', SVC, svc({ type: 'LoadBalancer', loadBalancerClass: 'example.com/lb', ports: port80, clusterIP: '10.0.0.10' }, 'to-ext'));
    expect(c.code).toBe(201);
    const change = await call(s, 'PUT', `${SVC}/to-ext`, { ...c.body, spec: { ...c.body.spec, clusterIP: '10.0.0.11', clusterIPs: ['10.0.0.11'] } });
    expect(change.code).toBe(422);
    expect(causeMessages(change)).toContain('spec.clusterIPs[0]: Invalid value: []string{"10.0.0.11"}: may not change once set');
    const cls = await call(s, 'PUT', `${SVC}/to-ext`, { ...c.body, spec: { ...c.body.spec, loadBalancerClass: 'example.com/other' } });
    expect(causeMessages(cls)).toContain('spec.loadBalancerClass: Invalid value: "example.com/other": may not change once set');
    const ext = await call(s, 'PUT', `${SVC}/to-ext`, { ...c.body, spec: { ...c.body.spec, type: 'ExternalName', externalName: 'example.com' } });
    expect(ext.code, JSON.stringify(ext.body)).toBe(200);
    for (const f of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'loadBalancerClass', 'allocateLoadBalancerNodePorts', 'externalTrafficPolicy']) {
      expect(ext.body.spec[f], f).toBeUndefined();
    }
    expect(ext.body.spec.ports[0].nodePort).toBeUndefined();
    expect((await call(s, 'POST', SVC, svc({ ports: port80, clusterIP: '10.0.0.10' }))).code).toBe(201);
    // and back: a new address is allocated
    const back = await call(s, 'PUT', `${SVC}/to-ext`, { ...ext.body, spec: { ...ext.body.spec, type: 'ClusterIP', externalName: undefined } });
    expect(back.code, JSON.stringify(back.body)).toBe(200);
    expect(back.body.spec.clusterIP).toMatch(/^10\.0\.0\./);
  });
});

describe('dual-stack and IPAddress objects', () => {
  let d: RunningServer;
  beforeAll(async () => {
    d = await server({ serviceClusterIPRange: '10.96.0.0/28,fd00:10::/120', serviceNodePortRange: '31000-31010', runtimeConfig: 'networking.k8s.io/v1beta1=true' });
  });
  afterAll(async () => {
    await d?.stop();
  });

  it('PreferDualStack gets one address per family, in order', async () => {
    const r = await call(d, 'POST', SVC, svc({ ports: port80, ipFamilyPolicy: 'PreferDualStack' }, 'dual'));
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.spec.ipFamilies).toEqual(['IPv4', 'IPv6']);
    expect(r.body.spec.clusterIPs[0]).toMatch(/^10\.96\.0\./);
    expect(r.body.spec.clusterIPs[1]).toMatch(/^fd00:10::/);
  });

  it('IPv6 first, requested address in canonical form, IPAddress named after it', async () => {
    // an address in the static band (the first 16 of this /120), which random allocations leave alone:
    // one outside it could already be taken by the previous test's random pick
    const r = await call(d, 'POST', SVC, svc({ ports: port80, ipFamilies: ['IPv6'], clusterIP: 'FD00:10:0::000A' }, 'six'));
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.spec.clusterIPs).toEqual(['fd00:10::a']);
    const ip = await call(d, 'GET', '/apis/networking.k8s.io/v1beta1/ipaddresses/fd00:10::a');
    expect(ip.code).toBe(200);
    expect(ip.body.spec.parentRef).toEqual({ group: '', resource: 'services', namespace: 'default', name: 'six' });
    expect((await call(d, 'DELETE', `${SVC}/six`)).code).toBe(200);
    expect((await call(d, 'GET', '/apis/networking.k8s.io/v1beta1/ipaddresses/fd00:10::a')).code).toBe(404);
  });

  it('the kubernetes ServiceCIDR names the configured ranges and is Ready; its cidrs are fixed', async () => {
    const r = await call(d, 'GET', '/apis/networking.k8s.io/v1beta1/servicecidrs/kubernetes');
    expect(r.code).toBe(200);
    expect(r.body.spec.cidrs).toEqual(['10.96.0.0/28', 'fd00:10::/120']);
    expect(r.body.status.conditions[0]).toMatchObject({ type: 'Ready', status: 'True' });
    const u = await call(d, 'PUT', '/apis/networking.k8s.io/v1beta1/servicecidrs/kubernetes', { ...r.body, spec: { cidrs: ['10.97.0.0/28'] } });
    expect(u.code).toBe(422);
    expect(causeMessages(u)[0]).toContain('spec.cidrs: Invalid value');
    const same = await call(d, 'POST', '/apis/networking.k8s.io/v1beta1/servicecidrs', {
      apiVersion: 'networking.k8s.io/v1beta1',
      kind: 'ServiceCIDR',
      metadata: { name: 'two-v4' },
      spec: { cidrs: ['10.1.0.0/24', '10.2.0.0/24'] },
    });
    expect(same.code).toBe(422);
  });

  it('type changes create and delete IPAddress objects', async () => {
    const c = await call(d, 'POST', SVC, svc({ type: 'ExternalName', externalName: 'a.example.com' }, 'flip'));
    expect(c.code).toBe(201);
    const up = await call(d, 'PUT', `${SVC}/flip`, { ...c.body, spec: { type: 'ClusterIP', ports: port80 } });
    expect(up.code, JSON.stringify(up.body)).toBe(200);
    const ip = up.body.spec.clusterIP;
    expect((await call(d, 'GET', `/apis/networking.k8s.io/v1beta1/ipaddresses/${ip}`)).body.spec.parentRef.name).toBe('flip');
    const down = await call(d, 'PUT', `${SVC}/flip`, { ...up.body, spec: { ...up.body.spec, type: 'ExternalName', externalName: 'a.example.com' } });
    expect(down.code, JSON.stringify(down.body)).toBe(200);
    expect((await call(d, 'GET', `/apis/networking.k8s.io/v1beta1/ipaddresses/${ip}`)).code).toBe(404);
  });

  it('the kubernetes Service has an IPAddress', async () => {
    const ip = await call(d, 'GET', '/apis/networking.k8s.io/v1beta1/ipaddresses/10.96.0.1');
    expect(ip.code).toBe(200);
    expect(ip.body.spec.parentRef.name).toBe('kubernetes');
  });

  it('a full node-port range is a 500, with nothing leaked', async () => {
    const made: string[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await call(d, 'POST', SVC, svc({ type: 'NodePort', ports: port80, clusterIP: 'None' }, `np-${i}`));
      if (r.code === 201) made.push(`np-${i}`);
    }
    expect(made.length).toBeGreaterThanOrEqual(10);
    const full = await call(d, 'POST', SVC, svc({ type: 'NodePort', ports: port80 }, 'np-full'));
    expect(full.code).toBe(500);
    for (const m of made) await call(d, 'DELETE', `${SVC}/${m}`);
    expect((await call(d, 'POST', SVC, svc({ type: 'NodePort', ports: port80 }, 'np-after'))).code).toBe(201);
  });
});

describe('concurrency', () => {
  it('200 Services created at once get distinct cluster IPs and node ports; none leaks after deletes', async () => {
    // 253 writes at once: more than the default mutating in-flight limit, which is not what this tests
    const c = await server({ serviceClusterIPRange: '10.50.0.0/24', maxMutatingRequestsInflight: 0 });
    try {
      const names = Array.from({ length: 200 }, (_, i) => `con-${i}`);
      const created = await Promise.all(names.map((name) => call(c, 'POST', SVC, svc({ type: 'NodePort', ports: port80 }, name))));
      expect(created.map((r) => r.code)).toEqual(names.map(() => 201));
      const ips = new Set(created.map((r) => r.body.spec.clusterIP));
      const ports = new Set(created.map((r) => r.body.spec.ports[0].nodePort));
      expect(ips.size).toBe(200);
      expect(ports.size).toBe(200);
      const deleted = await Promise.all(names.map((name) => call(c, 'DELETE', `${SVC}/${name}`)));
      expect(deleted.every((r) => r.code === 200)).toBe(true);
      // all 253 usable addresses minus the kubernetes Service's can be taken again
      const again = await Promise.all(Array.from({ length: 253 }, (_, i) => call(c, 'POST', SVC, svc({ ports: port80 }, `re-${i}`))));
      expect(again.filter((r) => r.code === 201).length).toBe(253);
      expect((await call(c, 'POST', SVC, svc({ ports: port80 }, 'one-too-many'))).code).toBe(500);
    } finally {
      await c.stop();
    }
  }, 60000);
});

describe('restart on the same data', () => {
  it('addresses and ports held by stored Services stay taken', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'svc-restart-'));
    try {
      const a = await server({ dataDir: dir });
      const c = await call(a, 'POST', SVC, svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 30051 }], clusterIP: '10.0.0.14' }, 'held'));
      expect(c.code).toBe(201);
      await a.stop();
      const b = await server({ dataDir: dir });
      try {
        const ip = await call(b, 'POST', SVC, svc({ ports: port80, clusterIP: '10.0.0.14' }));
        expect(causeMessages(ip)[0]).toContain('provided IP is already allocated');
        const np = await call(b, 'POST', SVC, svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 30051 }] }));
        expect(causeMessages(np)[0]).toContain('provided port is already allocated');
        expect((await call(b, 'GET', `${SVC}/kubernetes`)).body.spec.clusterIP).toBe('10.0.0.1');
      } finally {
        await b.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30000);
});

describe('dual-stack downgrade and status', () => {
  it('RequireDualStack to SingleStack drops the secondary address; status ingress is checked', async () => {
    const d = await server({ serviceClusterIPRange: 'fd00:20::/120,10.70.0.0/24' });
    try {
      const c = await call(d, 'POST', SVC, svc({ ports: port80, ipFamilyPolicy: 'RequireDualStack' }, 'ds'));
      expect(c.code, JSON.stringify(c.body)).toBe(201);
      expect(c.body.spec.ipFamilies).toEqual(['IPv6', 'IPv4']);
      const v4 = c.body.spec.clusterIPs[1];
      const down = await call(d, 'PUT', `${SVC}/ds`, { ...c.body, spec: { ...c.body.spec, ipFamilyPolicy: 'SingleStack' } });
      expect(down.code, JSON.stringify(down.body)).toBe(200);
      expect(down.body.spec.clusterIPs).toEqual([c.body.spec.clusterIPs[0]]);
      expect(down.body.spec.ipFamilies).toEqual(['IPv6']);
      // the IPv4 address is free again
      expect((await call(d, 'POST', SVC, svc({ ports: port80, clusterIP: v4 }))).code).toBe(201);
      const bad = await call(d, 'PUT', `${SVC}/ds/status`, { ...down.body, status: { loadBalancer: { ingress: [{ ip: '1.2.3.999' }, { hostname: 'lb.example.com', ipMode: 'VIP' }] } } });
      expect(bad.code).toBe(422);
      expect(causeMessages(bad)).toContain('status.loadBalancer.ingress[0].ip: Invalid value: "1.2.3.999": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)');
      expect(causeMessages(bad)).toContain('status.loadBalancer.ingress[1].ipMode: Forbidden: may not be specified when `ip` is not set');
      const ok = await call(d, 'PUT', `${SVC}/ds/status`, { ...down.body, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP' }] } } });
      expect(ok.code).toBe(200);
    } finally {
      await d.stop();
    }
  });
});

describe('the kubernetes Service comes back', () => {
  it('is created again after a delete, with the same address', async () => {
    const k = await server();
    try {
      expect((await call(k, 'DELETE', `${SVC}/kubernetes`)).code).toBe(200);
      const { until } = await import('./helpers.ts');
      await until(async () => (await call(k, 'GET', `${SVC}/kubernetes`)).code === 200, 3000);
      expect((await call(k, 'GET', `${SVC}/kubernetes`)).body.spec.clusterIP).toBe('10.0.0.1');
    } finally {
      await k.stop();
    }
  });
});
