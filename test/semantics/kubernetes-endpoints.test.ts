// The `kubernetes` Endpoints and EndpointSlice in `default`: written at
// start with the server's address and secure port (named https), created
// again when deleted; the address choice (advertise, bind, host interface).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiServerEndpoint, hostAddress } from '../../runtime/builtins/kubernetes-endpoints.ts';
import type { RunningServer } from '../../runtime/index.ts';
import { call, server, until } from './helpers.ts';

const EP = '/api/v1/namespaces/default/endpoints/kubernetes';
const SLICE = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

describe('apiServerEndpoint', () => {
  const host = () => '192.0.2.10';
  it.each([
    ['advertise-address wins', { 'advertise-address': '10.5.0.1', 'bind-address': '10.6.0.1', 'secure-port': 7443 }, { ip: '10.5.0.1', port: 7443 }],
    ['bind-address when routable', { 'bind-address': '10.6.0.1' }, { ip: '10.6.0.1', port: 6443 }],
    ['wildcard bind uses the host address', { 'bind-address': '0.0.0.0' }, { ip: '192.0.2.10', port: 6443 }],
    ['loopback bind uses the host address', { 'bind-address': '127.0.0.1' }, { ip: '192.0.2.10', port: 6443 }],
    ['IPv6 advertise', { 'advertise-address': 'fd00::5' }, { ip: 'fd00::5', port: 6443 }],
    ['not an IP', { 'advertise-address': 'example.com' }, { ip: '192.0.2.10', port: 6443 }],
  ])('%s', (_n, flags, want) => {
    expect(apiServerEndpoint(flags, host)).toEqual(want);
  });
  it('no usable address', () => {
    expect(apiServerEndpoint({ 'bind-address': '127.0.0.1' }, () => '')).toBeUndefined();
  });
  it('hostAddress skips internal and loopback, prefers IPv4', () => {
    const ifaces: any = {
      lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
      eth0: [
        { address: 'fd00::2', family: 'IPv6', internal: false },
        { address: '192.0.2.2', family: 'IPv4', internal: false },
      ],
    };
    expect(hostAddress(ifaces)).toBe('192.0.2.2');
    expect(hostAddress({ lo: ifaces.lo } as any)).toBe('');
  });
});

describe.skipIf(!hostAddress())('the kubernetes endpoints', () => {
  it('exist with the server address and the port it listens on (named https)', async () => {
    const ep = await call(s, 'GET', EP);
    expect(ep.code, JSON.stringify(ep.body)).toBe(200);
    expect(ep.body.subsets).toEqual([{ addresses: [{ ip: hostAddress() }], ports: [{ name: 'https', port: s.port, protocol: 'TCP' }] }]);
    expect(ep.body.metadata.labels['endpointslice.kubernetes.io/skip-mirror']).toBe('true');
    const sl = await call(s, 'GET', SLICE);
    expect(sl.code, JSON.stringify(sl.body)).toBe(200);
    expect(sl.body.addressType).toBe(hostAddress().includes(':') ? 'IPv6' : 'IPv4');
    expect(sl.body.endpoints).toEqual([{ addresses: [hostAddress()], conditions: { ready: true } }]);
    expect(sl.body.ports).toEqual([{ name: 'https', port: s.port, protocol: 'TCP' }]);
    expect(sl.body.metadata.labels['kubernetes.io/service-name']).toBe('kubernetes');
  });

  it.each([
    ['Endpoints', EP],
    ['EndpointSlice', SLICE],
  ])('%s is created again after a delete', async (_k, path) => {
    const before = (await call(s, 'GET', path)).body.metadata.uid;
    expect((await call(s, 'DELETE', path)).code).toBe(200);
    await until(async () => {
      const r = await call(s, 'GET', path);
      return r.code === 200 && r.body.metadata.uid !== before;
    });
  });

  it('a restart on the same data and port leaves them as they are', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'kep-'));
    try {
      const a = await server({ dataDir: dir });
      const rv = (await call(a, 'GET', EP)).body.metadata.resourceVersion;
      await a.stop();
      const b = await server({ dataDir: dir, port: a.port });
      expect((await call(b, 'GET', EP)).body.metadata.resourceVersion).toBe(rv);
      await b.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
