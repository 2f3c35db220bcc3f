// --controllers parsing.
import { describe, expect, it } from 'vitest';
import { ControllersFlagError, enabledControllers } from './controllers.ts';

describe('--controllers', () => {
  const rows: [string[] | undefined, string[]][] = [
    [undefined, ['clusterrole-aggregation', 'garbagecollector', 'namespace', 'root-ca-cert-publisher', 'serviceaccount', 'serviceaccount-token']],
    [['*'], ['clusterrole-aggregation', 'garbagecollector', 'namespace', 'root-ca-cert-publisher', 'serviceaccount', 'serviceaccount-token']],
    [
      ['*', 'tokencleaner', 'bootstrapsigner'],
      ['bootstrapsigner', 'clusterrole-aggregation', 'garbagecollector', 'namespace', 'root-ca-cert-publisher', 'serviceaccount', 'serviceaccount-token', 'tokencleaner'],
    ],
    [
      ['*', '-serviceaccount', '-clusterrole-aggregation'],
      ['garbagecollector', 'namespace', 'root-ca-cert-publisher', 'serviceaccount-token'],
    ],
    [
      ['*', '-root-ca-cert-publisher'],
      ['clusterrole-aggregation', 'garbagecollector', 'namespace', 'serviceaccount', 'serviceaccount-token'],
    ],
    [['tokencleaner'], ['tokencleaner']],
  ];
  it.each(rows)('%j', (list, want) => {
    expect([...enabledControllers(list)].sort()).toEqual(want);
  });
  it('names an unknown controller', () => {
    expect(() => enabledControllers(['*', 'nodelifecycle'])).toThrow(ControllersFlagError);
  });
});
