// Where the proxy subresources would forward a request, and the refusals on
// the way there: pods, nodes and services (port numbers and names, the
// Endpoints' subsets, ready addresses backed by pods of the namespace).
import { describe, expect, it } from 'vitest';
import { ApiError, errors } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';
import type { RegistryStore } from '../store.ts';
import { type ProxyLocation, dialAddress, joinHostPort, nodeLocation, podLocation, serviceLocation } from './location.ts';

/** A store holding `objects` by name (404 for any other), in namespace ns (or cluster-wide). */
function store(resource: string, objects: Record<string, Obj>): RegistryStore {
  return {
    get: async (_ns: string, name: string) => {
      const o = objects[name];
      if (!o) throw errors.notFound({ group: '', resource }, name);
      return o;
    },
  } as unknown as RegistryStore;
}

async function outcome(p: Promise<ProxyLocation>): Promise<string> {
  try {
    return dialAddress(await p);
  } catch (err) {
    if (err instanceof ApiError) return `${err.code} ${err.message}`;
    throw err;
  }
}

describe('dialAddress', () => {
  it.each([
    [{ scheme: '', host: '10.0.0.1', port: '' }, '10.0.0.1:80'],
    [{ scheme: 'http', host: '10.0.0.1', port: '' }, '10.0.0.1:80'],
    [{ scheme: 'https', host: '10.0.0.1', port: '' }, '10.0.0.1:443'],
    [{ scheme: 'https', host: '10.0.0.1', port: '8443' }, '10.0.0.1:8443'],
    [{ scheme: '', host: 'fd00::1', port: '' }, '[fd00::1]:80'],
  ])('%o → %s', (loc, want) => {
    expect(dialAddress(loc)).toBe(want);
  });

  it('joins like net.JoinHostPort', () => {
    expect(joinHostPort('node-1', '10250')).toBe('node-1:10250');
    expect(joinHostPort('::1', '1')).toBe('[::1]:1');
  });
});

const pod = (ip: string | undefined, ports: number[][] = []): Obj => ({
  metadata: { name: 'p' },
  spec: { containers: ports.map((ps, i) => ({ name: `c${i}`, ports: ps.map((containerPort) => ({ containerPort })) })) },
  status: ip ? { podIP: ip, podIPs: [{ ip }] } : {},
});

describe('podLocation', () => {
  it.each([
    ['the first container port of any container', 'p', pod('10.0.0.1', [[], [8080, 9090], [7070]]), '10.0.0.1:8080'],
    ['the port named', 'p:9000', pod('10.0.0.1', [[8080]]), '10.0.0.1:9000'],
    ['https without a port', 'https:p:', pod('10.0.0.1'), '10.0.0.1:443'],
    ['no port anywhere', 'p', pod('10.0.0.1'), '10.0.0.1:80'],
    ['no IP', 'p', pod(undefined), '400 address not allowed'],
    ['a loopback IP', 'p', pod('127.0.0.1'), '400 address not allowed'],
    ['a link-local IP', 'p', pod('169.254.1.1'), '400 address not allowed'],
    ['a missing pod', 'q', pod('10.0.0.1'), '404 pods "q" not found'],
    ['too many colons', 'a:b:c:d', pod('10.0.0.1'), '400 invalid pod request "a:b:c:d"'],
    ['another scheme', 'ftp:p:1', pod('10.0.0.1'), '400 invalid pod request "ftp:p:1"'],
    ['no name', ':80', pod('10.0.0.1'), '400 invalid pod request ":80"'],
  ])('%s', async (_n, id, p, want) => {
    expect(await outcome(podLocation(store('pods', { p }), 'ns', id))).toBe(want);
  });
});

describe('nodeLocation', () => {
  const node = (status: Obj): Obj => ({ metadata: { name: 'n' }, status });
  const addressed = node({ addresses: [{ type: 'InternalIP', address: '10.9.9.9' }] });
  it.each([
    ['the kubelet (https, default port)', 'n', addressed, { scheme: 'https', host: '10.9.9.9', port: '10250' }],
    ['the kubelet port named: still the kubelet scheme', 'http:n:10250', addressed, { scheme: 'https', host: '10.9.9.9', port: '10250' }],
    ['another port, the scheme asked for', 'http:n:4194', addressed, { scheme: 'http', host: '10.9.9.9', port: '4194' }],
    [
      'the kubelet endpoint the node reports',
      'n',
      node({ addresses: [{ type: 'Hostname', address: 'n.local' }], daemonEndpoints: { kubeletEndpoint: { Port: 11250 } } }),
      { scheme: 'https', host: 'n.local', port: '11250' },
    ],
  ])('%s', async (_n, id, n, want) => {
    expect(await nodeLocation(store('nodes', { n }), id)).toEqual(want);
  });

  it.each([
    ['a missing node', 'm', '404 nodes "m" not found'],
    ['a node without addresses', 'bare', '500 no preferred addresses found; known addresses: []'],
    ['a bad name form', 'a:b:c:d', '400 invalid node request "a:b:c:d"'],
  ])('%s', async (_n, id, want) => {
    expect(await outcome(nodeLocation(store('nodes', { n: addressed, bare: node({}) }), id))).toBe(want);
  });
});

describe('serviceLocation', () => {
  const ref = (name: string, namespace = 'ns') => ({ kind: 'Pod', namespace, name });
  const services = store('services', {
    web: {
      metadata: { name: 'web' },
      spec: {
        ports: [
          { name: 'http', port: 80 },
          { name: 'metrics', port: 9100 },
        ],
      },
    },
    plain: { metadata: { name: 'plain' }, spec: { ports: [{ port: 80 }] } },
  });
  const endpoints = store('endpoints', {
    web: {
      subsets: [
        { notReadyAddresses: [{ ip: '10.0.0.9', targetRef: ref('a') }], ports: [{ name: 'http', port: 8080 }] },
        {
          addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2', targetRef: ref('a') }, { ip: '10.0.0.1', targetRef: ref('a', 'other') }, { ip: '10.0.0.1', targetRef: ref('a') }],
          ports: [
            { name: 'metrics', port: 9100 },
            { name: 'http', port: 8080 },
          ],
        },
      ],
    },
    plain: { subsets: [{ addresses: [{ ip: 'fd00::1', targetRef: ref('b') }], ports: [{ port: 8080 }] }] },
    none: { subsets: [] },
    unready: { subsets: [{ notReadyAddresses: [{ ip: '10.0.0.1', targetRef: ref('a') }], ports: [{ port: 8080 }] }] },
  });
  const pods = store('pods', { a: { status: { podIPs: [{ ip: '10.0.0.7' }, { ip: '10.0.0.1' }] } }, b: { status: { podIPs: [{ ip: 'fd00::1' }] } } });
  const at = (id: string) => outcome(serviceLocation({ services, endpoints, pods }, 'ns', id));

  it.each([
    ['a port name: the ready address backed by its pod (any of its IPs)', 'web:http', '10.0.0.1:8080'],
    ['a port number: the service port of that number, by name', 'web:9100', '10.0.0.1:9100'],
    ['https and a port name', 'https:web:metrics', '10.0.0.1:9100'],
    ['an unnamed port by name', 'plain', '[fd00::1]:8080'],
    ['an unnamed port by number', 'plain:80', '[fd00::1]:8080'],
    ['a signed port number (as Go parses it)', 'plain:+80', '[fd00::1]:8080'],
    ['a named port not named', 'web', '503 no endpoints available for service "web"'],
    ['a port name no subset has', 'web:grpc', '503 no endpoints available for service "web:grpc"'],
    ['a port number the service lacks', 'web:81', '503 no service port 81 found for service "web"'],
    ['a missing service, by number', 'gone:80', '404 services "gone" not found'],
    ['a missing service, by name: its Endpoints', 'gone', '404 endpoints "gone" not found'],
    ['no subsets', 'none', '503 no endpoints available for service "none"'],
    ['only addresses not ready', 'unready', '503 no endpoints available for service "unready"'],
    ['a bad name form', 'a:b:c:d', '400 invalid service request "a:b:c:d"'],
  ])('%s: %s', async (_n, id, want) => {
    expect(await at(id)).toBe(want);
  });
});
