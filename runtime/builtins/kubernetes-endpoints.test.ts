import { describe, expect, it } from 'vitest';
import { endpointReconcilerType, kubernetesEndpoints, kubernetesEndpointSlice, masterCountAddresses } from './kubernetes-endpoints.ts';
import { masterLeases, masterLeaseValue } from './master-leases.ts';
import type { KV } from '../storage/interface.ts';

describe('endpointReconcilerType', () => {
  it.each([
    [undefined, 'lease'],
    ['', 'lease'],
    ['lease', 'lease'],
    ['master-count', 'master-count'],
    ['none', 'none'],
  ])('%s -> %s', (v, want) => {
    expect(endpointReconcilerType(v)).toBe(want);
  });
  it('refuses another value, naming the valid ones', () => {
    expect(() => endpointReconcilerType('leases')).toThrow('--endpoint-reconciler-type: invalid value "leases" (one of master-count, lease, none)');
  });
});

describe('masterCountAddresses (ours added; over the count, those after ours go, wrapping)', () => {
  it.each([
    ['empty', [], '10.0.0.2', 1, ['10.0.0.2']],
    ['ours alone already', ['10.0.0.2'], '10.0.0.2', 1, ['10.0.0.2']],
    ['another one, count 1', ['10.0.0.1'], '10.0.0.2', 1, ['10.0.0.2']],
    ['room for both', ['10.0.0.1'], '10.0.0.2', 2, ['10.0.0.1', '10.0.0.2']],
    ['the one after ours goes', ['10.0.0.1', '10.0.0.3'], '10.0.0.2', 2, ['10.0.0.1', '10.0.0.2']],
    ['ours last: the first goes (wrapping)', ['10.0.0.1', '10.0.0.2'], '10.0.0.3', 2, ['10.0.0.2', '10.0.0.3']],
  ])('%s', (_n, current, own, count, want) => {
    expect(masterCountAddresses(current, own, count)).toEqual(want);
  });
});

describe('the objects of several servers', () => {
  it('Endpoints: one subset, the addresses sorted, one port', () => {
    expect(kubernetesEndpoints(['192.0.2.2', '192.0.2.1'], 6443).subsets).toEqual([{ addresses: [{ ip: '192.0.2.1' }, { ip: '192.0.2.2' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
  });
  it('EndpointSlice: an endpoint per address of the first address family', () => {
    const s = kubernetesEndpointSlice('discovery.k8s.io/v1', ['192.0.2.2', '192.0.2.1', 'fd00::1'], 6443);
    expect(s.addressType).toBe('IPv4');
    expect(s.endpoints).toEqual([
      { addresses: ['192.0.2.1'], conditions: { ready: true } },
      { addresses: ['192.0.2.2'], conditions: { ready: true } },
    ]);
  });
});

describe('masterLeases', () => {
  it('without TTLs in the store: this process keeps its own record', async () => {
    const leases = masterLeases({} as KV);
    await leases.update('192.0.2.1');
    expect(await leases.list()).toEqual(['192.0.2.1']);
    await leases.remove('192.0.2.1');
    expect(await leases.list()).toEqual([]);
  });
  it('with TTLs: /masterleases/<ip> holding an Endpoints of the address, with the TTL given', async () => {
    const puts: [string, string, number][] = [];
    const kv = {
      putWithTTL: async (key: string, value: string, ttl: number) => void puts.push([key, value, ttl]),
      list: async () => ({ kvs: [{ key: '/masterleases/192.0.2.1', value: '', createRevision: 1, modRevision: 1 }], revision: 1, more: false }),
    } as unknown as KV;
    const leases = masterLeases(kv);
    await leases.update('192.0.2.1');
    expect(puts).toEqual([['/masterleases/192.0.2.1', masterLeaseValue('192.0.2.1'), 15]]);
    expect(JSON.parse(puts[0][1])).toEqual({ kind: 'Endpoints', apiVersion: 'v1', metadata: { name: '192.0.2.1' }, subsets: [{ addresses: [{ ip: '192.0.2.1' }] }] });
    expect(await leases.list()).toEqual(['192.0.2.1']);
  });
});
