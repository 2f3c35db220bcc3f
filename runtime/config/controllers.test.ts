// --controllers parsing.
import { describe, expect, it } from 'vitest';
import { ControllersFlagError, enabledControllers } from './controllers.ts';

describe('--controllers', () => {
  const rows: [string[] | undefined, string[]][] = [
    [undefined, ['clusterrole-aggregation', 'garbagecollector', 'namespace', 'serviceaccount', 'serviceaccount-token']],
    [['*'], ['clusterrole-aggregation', 'garbagecollector', 'namespace', 'serviceaccount', 'serviceaccount-token']],
    [
      ['*', 'tokencleaner', 'bootstrapsigner'],
      ['bootstrapsigner', 'clusterrole-aggregation', 'garbagecollector', 'namespace', 'serviceaccount', 'serviceaccount-token', 'tokencleaner'],
    ],
    [
      ['*', '-serviceaccount', '-clusterrole-aggregation'],
      ['garbagecollector', 'namespace', 'serviceaccount-token'],
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
