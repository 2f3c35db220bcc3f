// --controllers parsing.
import { describe, expect, it } from 'vitest';
import { ControllersFlagError, enabledControllers } from './controllers.ts';

describe('--controllers', () => {
  const rows: [string[] | undefined, string[]][] = [
    [undefined, ['clusterrole-aggregation', 'csrsigning', 'garbagecollector', 'namespace', 'resourcequota', 'root-ca-cert-publisher', 'serviceaccount', 'serviceaccount-token']],
    [['*'], ['clusterrole-aggregation', 'csrsigning', 'garbagecollector', 'namespace', 'resourcequota', 'root-ca-cert-publisher', 'serviceaccount', 'serviceaccount-token']],
    [
      ['*', 'tokencleaner', 'bootstrapsigner'],
      [
        'bootstrapsigner',
        'clusterrole-aggregation',
        'csrsigning',
        'garbagecollector',
        'namespace',
        'resourcequota',
        'root-ca-cert-publisher',
        'serviceaccount',
        'serviceaccount-token',
        'tokencleaner',
      ],
    ],
    [
      ['*', '-serviceaccount', '-clusterrole-aggregation'],
      ['csrsigning', 'garbagecollector', 'namespace', 'resourcequota', 'root-ca-cert-publisher', 'serviceaccount-token'],
    ],
    [
      ['*', '-root-ca-cert-publisher'],
      ['clusterrole-aggregation', 'csrsigning', 'garbagecollector', 'namespace', 'resourcequota', 'serviceaccount', 'serviceaccount-token'],
    ],
    [['tokencleaner'], ['tokencleaner']],
    [
      ['*', '-resourcequota'],
      ['clusterrole-aggregation', 'csrsigning', 'garbagecollector', 'namespace', 'root-ca-cert-publisher', 'serviceaccount', 'serviceaccount-token'],
    ],
    [
      ['*', '-csrsigning'],
      ['clusterrole-aggregation', 'garbagecollector', 'namespace', 'resourcequota', 'root-ca-cert-publisher', 'serviceaccount', 'serviceaccount-token'],
    ],
  ];
  it.each(rows)('%j', (list, want) => {
    expect([...enabledControllers(list)].sort()).toEqual(want);
  });
  it('names an unknown controller', () => {
    expect(() => enabledControllers(['*', 'nodelifecycle'])).toThrow(ControllersFlagError);
  });
});
