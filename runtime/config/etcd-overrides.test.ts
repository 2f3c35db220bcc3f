import { describe, expect, it } from 'vitest';
import { parseEtcdServersOverrides } from './etcd-overrides.ts';

const FORMAT = '--etcd-servers-overrides invalid, must be of format: group/resource#servers, where servers are URLs, semicolon separated';
const MAIN = ['http://127.0.0.1:2379'];

describe('--etcd-servers-overrides', () => {
  const good: [string, string, object[]][] = [
    ['none', '', []],
    ['core events', '/events#http://127.0.0.1:4002', [{ group: '', resource: 'events', servers: ['http://127.0.0.1:4002'] }]],
    [
      'two overrides, several servers',
      'apps/deployments#http://a:1;http://b:2, coordination.k8s.io/leases#https://c:3',
      [
        { group: 'apps', resource: 'deployments', servers: ['http://a:1', 'http://b:2'] },
        { group: 'coordination.k8s.io', resource: 'leases', servers: ['https://c:3'] },
      ],
    ],
  ];
  it.each(good)('%s', (_name, value, want) => {
    expect(parseEtcdServersOverrides(value, MAIN)).toEqual(want);
  });
  const bad: [string, string, string[] | undefined, string][] = [
    ['no #', '/events', MAIN, FORMAT],
    ['two #', '/events#a#b', MAIN, FORMAT],
    ['no group separator', 'events#http://a', MAIN, FORMAT],
    ['too many slashes', 'a/b/c#http://a', MAIN, FORMAT],
    ['no servers', '/events#', MAIN, FORMAT],
    ['without --etcd-servers', '/events#http://a', undefined, '--etcd-servers-overrides needs --etcd-servers (without it objects are stored in SQLite)'],
  ];
  it.each(bad)('%s', (_name, value, servers, message) => {
    expect(() => parseEtcdServersOverrides(value, servers)).toThrow(message);
  });
});
