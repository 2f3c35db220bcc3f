// Rule covering (upstream's Covers, CompactRules, CompactString), table-driven
// after the meaning of upstream's policy comparator and compaction cases.
import { describe, expect, it } from 'vitest';
import { breakdownRule, compactMissing, compactString, covers } from './covers.ts';
import type { PolicyRule } from './rules.ts';

const r = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { verbs, apiGroups, resources, resourceNames } : { verbs, apiGroups, resources };
const url = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs, nonResourceURLs });

describe('covers', () => {
  const rows: [string, PolicyRule[], PolicyRule[], PolicyRule[]][] = [
    ['exact match', [r(['get', 'list'], [''], ['pods'])], [r(['get', 'list'], [''], ['pods'])], []],
    ['subset of verbs', [r(['get', 'list', 'watch'], [''], ['pods'])], [r(['get'], [''], ['pods'])], []],
    ['a verb not held', [r(['get'], [''], ['pods'])], [r(['get', 'delete'], [''], ['pods'])], [r(['delete'], [''], ['pods'])]],
    ['spread over several owner rules', [r(['get'], [''], ['pods']), r(['delete'], [''], ['pods'])], [r(['get', 'delete'], [''], ['pods'])], []],
    ['star verb', [r(['*'], [''], ['pods'])], [r(['escalate', 'get'], [''], ['pods'])], []],
    ['star group', [r(['get'], ['*'], ['deployments'])], [r(['get'], ['apps', 'extensions'], ['deployments'])], []],
    ['other group', [r(['get'], [''], ['pods'])], [r(['get'], ['apps'], ['pods'])], [r(['get'], ['apps'], ['pods'])]],
    ['star resource', [r(['get'], [''], ['*'])], [r(['get'], [''], ['pods', 'pods/log'])], []],
    ['a resource does not cover its subresource', [r(['get'], [''], ['pods'])], [r(['get'], [''], ['pods/log'])], [r(['get'], [''], ['pods/log'])]],
    ['*/subresource covers resource/subresource', [r(['update'], ['apps'], ['*/scale'])], [r(['update'], ['apps'], ['deployments/scale'])], []],
    ['*/subresource does not cover the resource', [r(['update'], ['apps'], ['*/scale'])], [r(['update'], ['apps'], ['deployments'])], [r(['update'], ['apps'], ['deployments'])]],
    ['*/subresource of another subresource', [r(['update'], ['apps'], ['*/status'])], [r(['update'], ['apps'], ['deployments/scale'])], [r(['update'], ['apps'], ['deployments/scale'])]],
    ['owner without names covers named rules', [r(['get'], [''], ['secrets'])], [r(['get'], [''], ['secrets'], ['a', 'b'])], []],
    ['owner names cover a subset of them', [r(['get'], [''], ['secrets'], ['a', 'b'])], [r(['get'], [''], ['secrets'], ['b'])], []],
    ['owner names do not cover other names', [r(['get'], [''], ['secrets'], ['a'])], [r(['get'], [''], ['secrets'], ['a', 'c'])], [r(['get'], [''], ['secrets'], ['c'])]],
    ['owner names do not cover an unnamed rule', [r(['get'], [''], ['secrets'], ['a'])], [r(['get'], [''], ['secrets'])], [r(['get'], [''], ['secrets'])]],
    ['non-resource URL exact', [url(['get'], ['/healthz'])], [url(['get'], ['/healthz'])], []],
    ['non-resource URL prefix', [url(['get'], ['/healthz/*'])], [url(['get'], ['/healthz/etcd', '/healthz/'])], []],
    ['a prefix does not cover its parent', [url(['get'], ['/healthz/*'])], [url(['get'], ['/healthz'])], [url(['get'], ['/healthz'])]],
    ['trailing stars all make the prefix', [url(['get'], ['/api**'])], [url(['get'], ['/apis'])], []],
    ['star URL', [url(['*'], ['*'])], [url(['get', 'post'], ['/anything'])], []],
    ['a resource rule does not cover URLs', [r(['*'], ['*'], ['*'])], [url(['get'], ['/metrics'])], [url(['get'], ['/metrics'])]],
    ['a URL rule does not cover resources', [url(['*'], ['*'])], [r(['get'], [''], ['pods'])], [r(['get'], [''], ['pods'])]],
    ['cluster-admin covers everything', [r(['*'], ['*'], ['*']), url(['*'], ['*'])], [r(['*'], ['*'], ['*']), url(['*'], ['*']), r(['get'], ['x'], ['y/z'], ['n'])], []],
    ['star needed to grant star', [r(['get', 'list'], ['*'], ['*'])], [r(['*'], [''], ['pods'])], [r(['*'], [''], ['pods'])]],
    ['nothing held', [], [r(['get'], [''], ['pods', 'services'])], [r(['get'], [''], ['pods']), r(['get'], [''], ['services'])]],
    ['nothing granted', [], [], []],
    ['a rule without verbs grants nothing', [], [{ verbs: [], apiGroups: [''], resources: ['pods'] }], []],
  ];
  it.each(rows)('%s', (_n, owner, servant, missing) => {
    const got = covers(owner, servant);
    expect(got.missing).toEqual(missing);
    expect(got.covered).toBe(missing.length === 0);
  });
});

describe('breakdownRule', () => {
  it('gives one tuple per group, resource, verb and name, then per URL and verb', () => {
    expect(breakdownRule({ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['x'], resourceNames: ['n'] })).toEqual([
      r(['get'], [''], ['x'], ['n']),
      r(['list'], [''], ['x'], ['n']),
      r(['get'], ['apps'], ['x'], ['n']),
      r(['list'], ['apps'], ['x'], ['n']),
    ]);
    expect(breakdownRule({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] })).toEqual([url(['get'], ['/a']), url(['get'], ['/b'])]);
  });
});

describe('compactMissing and compactString', () => {
  const rows: [string, PolicyRule[], string[]][] = [
    ['verbs of one resource merge', [r(['get'], [''], ['pods']), r(['list'], [''], ['pods'])], ['{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}']],
    [
      'one resource name each',
      [r(['get'], [''], ['secrets'], ['a']), r(['list'], [''], ['secrets'], ['a']), r(['get'], [''], ['secrets'], ['b'])],
      ['{APIGroups:[""], Resources:["secrets"], ResourceNames:["a"], Verbs:["get" "list"]}', '{APIGroups:[""], Resources:["secrets"], ResourceNames:["b"], Verbs:["get"]}'],
    ],
    ['URLs stay as they are', [url(['get'], ['/a']), url(['post'], ['/a'])], ['{NonResourceURLs:["/a"], Verbs:["get"]}', '{NonResourceURLs:["/a"], Verbs:["post"]}']],
    ['several groups stay as they are', [r(['get'], ['', 'apps'], ['x'])], ['{APIGroups:["" "apps"], Resources:["x"], Verbs:["get"]}']],
    ['quotes are Go quotes', [r(['get'], ['a"b'], ['x\\y'])], ['{APIGroups:["a\\"b"], Resources:["x\\\\y"], Verbs:["get"]}']],
  ];
  it.each(rows)('%s', (_n, rules, want) => {
    expect(compactMissing(rules).map(compactString)).toEqual(want);
  });
});
