// --controllers parsing.
import { describe, expect, it } from 'vitest';
import { ControllersFlagError, enabledControllers } from './controllers.ts';

describe('--controllers', () => {
  const rows: [string[] | undefined, string[]][] = [
    [undefined, ['garbagecollector', 'namespace', 'root-ca-cert-publisher', 'serviceaccount', 'serviceaccount-token']],
    [['*'], ['garbagecollector', 'namespace', 'root-ca-cert-publisher', 'serviceaccount', 'serviceaccount-token']],
    [
      ['*', 'tokencleaner', 'bootstrapsigner'],
      ['bootstrapsigner', 'garbagecollector', 'namespace', 'root-ca-cert-publisher', 'serviceaccount', 'serviceaccount-token', 'tokencleaner'],
    ],
    [
      ['*', '-serviceaccount'],
      ['garbagecollector', 'namespace', 'root-ca-cert-publisher', 'serviceaccount-token'],
    ],
    [
      ['*', '-root-ca-cert-publisher'],
      ['garbagecollector', 'namespace', 'serviceaccount', 'serviceaccount-token'],
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
