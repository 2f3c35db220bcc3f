// Endpoints and EndpointSlice rules, one row per rule.

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
const EP = '/api/v1/namespaces/default/endpoints';
const ES = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
const ep = (subsets: unknown[]) => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: `ep-${++n}` }, subsets });
const slice = (body: Record<string, unknown>) => ({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: `es-${++n}` }, addressType: 'IPv4', endpoints: [], ...body });

function expect422(r: { code: number; body: any }, field: string, msg: string) {
  expect(r.code, JSON.stringify(r.body)).toBe(422);
  expect(
    causeMessages(r).some((m) => m.startsWith(`${field}: ${msg}`)),
    causeMessages(r).join('\n'),
  ).toBe(true);
}

describe('Endpoints', () => {
  const rows: [string, unknown[], string, string][] = [
    ['no addresses', [{ ports: [{ port: 80 }] }], 'subsets[0]', 'Required value: must specify `addresses` or `notReadyAddresses`'],
    ['invalid ip', [{ addresses: [{ ip: 'x' }] }], 'subsets[0].addresses[0].ip', 'Invalid value: "x": must be a valid IP address'],
    ['loopback', [{ addresses: [{ ip: '127.0.0.1' }] }], 'subsets[0].addresses[0].ip', 'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)'],
    ['link-local', [{ addresses: [{ ip: '169.254.1.1' }] }], 'subsets[0].addresses[0].ip', 'Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
    ['link-local multicast', [{ notReadyAddresses: [{ ip: '224.0.0.5' }] }], 'subsets[0].notReadyAddresses[0].ip', 'Invalid value: "224.0.0.5": may not be in the link-local multicast range'],
    ['IPv6 loopback', [{ addresses: [{ ip: '::1' }] }], 'subsets[0].addresses[0].ip', 'Invalid value: "::1": may not be in the loopback range'],
    ['IPv6 link-local', [{ addresses: [{ ip: 'fe80::1' }] }], 'subsets[0].addresses[0].ip', 'Invalid value: "fe80::1": may not be in the link-local range'],
    ['unspecified', [{ addresses: [{ ip: '0.0.0.0' }] }], 'subsets[0].addresses[0].ip', 'Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)'],
    ['hostname', [{ addresses: [{ ip: '10.1.1.1', hostname: 'A_B' }] }], 'subsets[0].addresses[0].hostname', 'Invalid value: "A_B"'],
    ['port name required with two ports', [{ addresses: [{ ip: '10.1.1.1' }], ports: [{ name: 'a', port: 80 }, { port: 81 }] }], 'subsets[0].ports[1].name', 'Required value'],
    ['port range', [{ addresses: [{ ip: '10.1.1.1' }], ports: [{ port: 0 }] }], 'subsets[0].ports[0].port', 'Invalid value: 0: must be between 1 and 65535, inclusive'],
    ['protocol', [{ addresses: [{ ip: '10.1.1.1' }], ports: [{ port: 80, protocol: 'HTTP' }] }], 'subsets[0].ports[0].protocol', 'Unsupported value: "HTTP"'],
  ];
  it.each(rows)('%s', async (_n, subsets, field, msg) => {
    expect422(await call(s, 'POST', EP, ep(subsets)), field, msg);
  });
  it('valid', async () => {
    expect((await call(s, 'POST', EP, ep([{ addresses: [{ ip: '10.1.1.1' }], ports: [{ port: 80, protocol: 'TCP' }] }]))).code).toBe(201);
  });
});

describe('EndpointSlice', () => {
  const many = (k: number, make: (i: number) => unknown) => Array.from({ length: k }, (_, i) => make(i));
  const rows: [string, Record<string, unknown>, string, string][] = [
    ['addressType value', { addressType: 'IPv5' }, 'addressType', 'Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"'],
    ['no addresses', { endpoints: [{ addresses: [] }] }, 'endpoints[0].addresses', 'Required value: must contain at least 1 address'],
    ['101 addresses', { endpoints: [{ addresses: many(101, (i) => `10.0.${i >> 8}.${(i & 255) + 1}`) }] }, 'endpoints[0].addresses', 'Too many: 101: must have at most 100 items'],
    ['1001 endpoints', { endpoints: many(1001, (i) => ({ addresses: [`10.1.${i >> 8}.${(i % 250) + 1}`] })) }, 'endpoints', 'Too many: 1001: must have at most 1000 items'],
    ['101 ports', { ports: many(101, (i) => ({ name: `p${i}`, port: 1000 + i })) }, 'ports', 'Too many: 101: must have at most 100 items'],
    ['IPv6 address in an IPv4 slice', { endpoints: [{ addresses: ['fd00::1'] }] }, 'endpoints[0].addresses[0]', 'Invalid value: "fd00::1": must be a valid IPv4 address'],
    ['loopback', { endpoints: [{ addresses: ['127.0.0.2'] }] }, 'endpoints[0].addresses[0]', 'Invalid value: "127.0.0.2": may not be in the loopback range'],
    ['IPv6 link-local', { addressType: 'IPv6', endpoints: [{ addresses: ['fe80::2'] }] }, 'endpoints[0].addresses[0]', 'Invalid value: "fe80::2": may not be in the link-local range'],
    [
      'FQDN one label',
      { addressType: 'FQDN', endpoints: [{ addresses: ['localhost'] }] },
      'endpoints[0].addresses[0]',
      'Invalid value: "localhost": should be a domain with at least two segments separated by dots',
    ],
    ['port name syntax', { ports: [{ name: 'Web', port: 80 }] }, 'ports[0].name', 'Invalid value: "Web"'],
    [
      'duplicate port names',
      {
        ports: [
          { name: 'a', port: 80 },
          { name: 'a', port: 81 },
        ],
      },
      'ports[1].name',
      'Duplicate value: "a"',
    ],
    ['port range', { ports: [{ name: 'a', port: 70000 }] }, 'ports[0].port', 'Invalid value: 70000'],
    ['hostname', { endpoints: [{ addresses: ['10.0.0.9'], hostname: 'no_underscores' }] }, 'endpoints[0].hostname', 'Invalid value: "no_underscores"'],
  ];
  it.each(rows)('%s', async (_n, body, field, msg) => {
    expect422(await call(s, 'POST', ES, slice(body)), field, msg);
  });

  it('valid slice with conditions; ports default; addressType immutable', async () => {
    const c = await call(
      s,
      'POST',
      ES,
      slice({
        endpoints: [{ addresses: ['10.0.0.9'], conditions: { ready: true, serving: true, terminating: false } }],
        ports: [{ port: 80 }, { name: 'b', port: 81 }],
      }),
    );
    expect(c.code, JSON.stringify(c.body)).toBe(201);
    expect(c.body.ports[0]).toEqual({ name: '', port: 80, protocol: 'TCP' });
    expect(c.body.endpoints[0].conditions).toEqual({ ready: true, serving: true, terminating: false });
    const u = await call(s, 'PUT', `${ES}/${c.body.metadata.name}`, { ...c.body, addressType: 'IPv6', endpoints: [{ addresses: ['fd00::9'] }] });
    expect422(u, 'addressType', 'Invalid value: "IPv6": field is immutable');
  });
});
