import { describe, expect, it } from 'vitest';
import { carryAllocatedValues, dropTypeDependentFields } from './strategy.ts';
import { defaultIPFamilies, defaultService } from './defaults.ts';
import { ServiceAllocators, heldBy } from './allocate.ts';

const svc = (spec: Record<string, any>) => ({ metadata: { name: 's', namespace: 'default' }, spec });

describe('defaults', () => {
  it.each([
    [
      { type: 'NodePort', ports: [{ port: 80 }] },
      { externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster', sessionAffinity: 'None' },
    ],
    [{ type: 'ExternalName', externalName: 'x.example.com' }, { sessionAffinity: 'None' }],
    [{ type: 'LoadBalancer', ports: [{ port: 80 }] }, { allocateLoadBalancerNodePorts: true }],
  ])('%j', (spec, want) => {
    const o = svc(spec);
    defaultService(o);
    expect(o.spec).toMatchObject(want);
    if (spec.type === 'ExternalName') expect(o.spec.internalTrafficPolicy).toBeUndefined();
  });
  it.each([
    [{ clusterIP: '10.0.0.5' }, ['IPv4', 'IPv6'], { clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' }],
    [{ clusterIP: 'fd00::5' }, ['IPv4', 'IPv6'], { ipFamilies: ['IPv6'] }],
    [{ ipFamilyPolicy: 'PreferDualStack' }, ['IPv6', 'IPv4'], { ipFamilies: ['IPv6', 'IPv4'] }],
    [{ ipFamilyPolicy: 'PreferDualStack' }, ['IPv4'], { ipFamilies: ['IPv4'] }],
    [{ clusterIP: 'None' }, ['IPv4', 'IPv6'], { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] }],
  ])('families of %j on %j', (spec, fams, want) => {
    const o = svc({ type: 'ClusterIP', ...spec });
    defaultIPFamilies(o, fams as any);
    expect(o.spec).toMatchObject(want);
  });
});

describe('updates', () => {
  it('carries clusterIPs and node ports the client left out', () => {
    const old = svc({ type: 'NodePort', clusterIP: '10.0.0.9', clusterIPs: ['10.0.0.9'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', ports: [{ name: 'a', port: 80, nodePort: 30001 }] });
    const neu = svc({
      type: 'NodePort',
      ports: [
        { name: 'a', port: 81 },
        { name: 'b', port: 82 },
      ],
    });
    carryAllocatedValues(neu, old);
    expect(neu.spec.clusterIPs).toEqual(['10.0.0.9']);
    expect(neu.spec.ports.map((p: any) => p.nodePort)).toEqual([30001, undefined]);
  });
  it('erases fields the new type does not use, keeps ones the client changed', () => {
    const old = svc({
      type: 'LoadBalancer',
      clusterIP: '10.0.0.9',
      clusterIPs: ['10.0.0.9'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      loadBalancerClass: 'x/y',
      allocateLoadBalancerNodePorts: true,
      externalTrafficPolicy: 'Local',
      healthCheckNodePort: 30500,
      ports: [{ port: 80, nodePort: 30001 }],
    });
    const neu = structuredClone(old);
    neu.spec.type = 'ExternalName';
    dropTypeDependentFields(neu, old);
    expect(neu.spec).toEqual({ type: 'ExternalName', ports: [{ port: 80 }] });
    const toCIP = structuredClone(old);
    toCIP.spec.type = 'ClusterIP';
    toCIP.spec.ports[0].nodePort = 30002; // changed by the client: kept (validation refuses it)
    dropTypeDependentFields(toCIP, old);
    expect(toCIP.spec.ports[0].nodePort).toBe(30002);
    expect(toCIP.spec.clusterIPs).toEqual(['10.0.0.9']);
    expect(toCIP.spec.loadBalancerClass).toBeUndefined();
  });
});

describe('ServiceAllocators', () => {
  it('reserve, commit releases what the old object held, rollback gives back', async () => {
    const a = new ServiceAllocators('10.0.0.0/29', '30000-30001');
    const first = svc({ type: 'NodePort', ipFamilies: ['IPv4'], ports: [{ port: 80 }] });
    const r1 = await a.reserve(first, null);
    await r1.commit(first);
    expect(heldBy(first).ips.length).toBe(1);
    expect(a.nodePorts.allocated).toBe(1);
    const second = structuredClone(first);
    second.spec.type = 'ClusterIP';
    delete second.spec.ports[0].nodePort;
    const r2 = await a.reserve(second, first);
    await r2.commit(second);
    expect(a.nodePorts.allocated).toBe(0);
    const third = svc({ type: 'NodePort', ipFamilies: ['IPv4'], ports: [{ port: 80 }, { port: 81 }] });
    const r3 = await a.reserve(third, null);
    expect(a.nodePorts.allocated).toBe(2);
    await r3.rollback();
    expect(a.nodePorts.allocated).toBe(0);
    expect(a.ip.get('IPv4')!.allocated).toBe(1);
  });
  it('refuses bad flags', () => {
    expect(() => new ServiceAllocators('10.0.0.0/24,10.1.0.0/24')).toThrow();
    expect(() => new ServiceAllocators('nope')).toThrow();
    expect(() => new ServiceAllocators('10.0.0.0/24', '5-1')).toThrow();
  });
});
