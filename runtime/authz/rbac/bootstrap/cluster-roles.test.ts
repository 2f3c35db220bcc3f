// The aggregated rules the bootstrap policy gives admin, edit and view: the
// selected roles' rules in name order, each rule once.
import { describe, expect, it } from 'vitest';
import { aggregated } from './cluster-roles.ts';
import type { PolicyRule } from '../rules.ts';

const rule = (verb: string, resource: string): PolicyRule => ({ verbs: [verb], apiGroups: [''], resources: [resource] });
const role = (name: string, rules: PolicyRule[]) => ({ metadata: { name }, rules });

describe('aggregated', () => {
  it.each<[string, ReturnType<typeof role>[], PolicyRule[]]>([
    ['roles in name order', [role('b', [rule('get', 'pods')]), role('a', [rule('list', 'pods')])], [rule('list', 'pods'), rule('get', 'pods')]],
    [
      'a rule in two roles once, where it first comes',
      [role('a', [rule('get', 'pods'), rule('get', 'secrets')]), role('b', [rule('get', 'secrets'), rule('get', 'nodes')])],
      [rule('get', 'pods'), rule('get', 'secrets'), rule('get', 'nodes')],
    ],
    ['a rule twice in one role once', [role('a', [rule('get', 'pods'), rule('get', 'pods')])], [rule('get', 'pods')]],
    ['no roles', [], []],
  ])('%s', (_name, sources, want) => {
    expect(aggregated(sources)).toEqual(want);
  });
});
