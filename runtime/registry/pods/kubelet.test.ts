// The steps before a kubelet connection: container choice, the node's
// preferred address and port, proxy names, and which pod IPs may be proxied.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { RegistryStore } from '../store.ts';
import { kubeletAddress, podContainer, proxyablePodIP, splitSchemeNamePort } from './kubelet.ts';

const pod = (containers: string[], init: string[] = []) => ({ metadata: { name: 'p' }, spec: { containers: containers.map((name) => ({ name })), initContainers: init.map((name) => ({ name })) } });

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return `${err.code} ${err.message}`;
    throw err;
  }
  return 'no error';
}

describe('podContainer', () => {
  it.each([
    ['the only container', pod(['a']), '', 'a'],
    ['a named init container', pod(['a', 'b'], ['i']), 'i', 'i'],
  ])('%s', (_n, p, asked, want) => {
    expect(podContainer(p, asked)).toBe(want);
  });

  it.each([
    ['several and none named', pod(['a', 'b'], ['i']), '', '400 a container name must be specified for pod p, choose one of: [i a b]'],
    ['none at all', pod([]), '', '400 a container name must be specified for pod p'],
    ['an unknown name', pod(['a']), 'x', '400 container x is not valid for pod p'],
  ])('%s', (_n, p, asked, want) => {
    expect(failure(() => podContainer(p, asked))).toBe(want);
  });
});

describe('kubeletAddress', () => {
  const nodes = (status: object) => ({ get: async () => ({ metadata: { name: 'n' }, status }) }) as unknown as RegistryStore;
  it.each([
    [
      'Hostname before InternalIP',
      {
        addresses: [
          { type: 'InternalIP', address: '10.0.0.1' },
          { type: 'Hostname', address: 'n.local' },
        ],
      },
      { host: 'n.local', port: 10250 },
    ],
    ['the kubelet port it reports', { addresses: [{ type: 'ExternalIP', address: '1.2.3.4' }], daemonEndpoints: { kubeletEndpoint: { Port: 10255 } } }, { host: '1.2.3.4', port: 10255 }],
  ])('%s', async (_n, status, want) => {
    expect(await kubeletAddress(nodes(status), 'n')).toEqual({ node: 'n', ...want });
  });

  it('500 when no address type matches', async () => {
    await expect(kubeletAddress(nodes({ addresses: [{ type: 'Other', address: 'x' }] }), 'n')).rejects.toMatchObject({
      code: 500,
      message: 'no preferred addresses found; known addresses: [{Other x}]',
    });
  });
});

describe('proxy names and addresses', () => {
  it.each([
    ['p', { scheme: '', name: 'p', port: '' }],
    ['p:8080', { scheme: '', name: 'p', port: '8080' }],
    ['https:p:443', { scheme: 'https', name: 'p', port: '443' }],
  ])('%s', (id, want) => {
    expect(splitSchemeNamePort(id, 'pod')).toEqual(want);
  });

  it('400 for a malformed name', () => {
    expect(failure(() => splitSchemeNamePort('a:b:c:d', 'pod'))).toBe('400 invalid pod request "a:b:c:d"');
  });

  it.each([
    ['10.1.2.3', true],
    ['240.0.0.1', true],
    ['127.0.0.1', false],
    ['0.0.0.0', false],
    ['169.254.1.1', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['fd00::1', true],
    ['::1', false],
    ['fe80::1', false],
    ['', false],
    [undefined, false],
  ])('%s proxyable: %s', (ip, want) => {
    expect(proxyablePodIP(ip)).toBe(want);
  });
});
