// Reconciliation of bootstrap objects (upstream's union mode) and the
// coverage check behind it.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { breakdownRule, ruleCovers, uncovered } from './covers.ts';
import { type Reconciled, reconcileBinding, reconcileRole } from './reconcile.ts';
import type { PolicyRule } from './rules.ts';
import { CORE, READ, clusterRole, clusterRoleBinding, group, rule, urls, user } from './bootstrap/build.ts';

describe('covers', () => {
  it('breaks a rule down into single-verb, single-resource sub-rules', () => {
    expect(breakdownRule(rule('get list', ['', 'apps'], 'pods', 'a'))).toEqual([
      { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
      { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
      { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'], resourceNames: ['a'] },
      { verbs: ['list'], apiGroups: ['apps'], resources: ['pods'], resourceNames: ['a'] },
    ]);
    expect(breakdownRule(urls('get', '/a /b'))).toEqual([
      { verbs: ['get'], nonResourceURLs: ['/a'] },
      { verbs: ['get'], nonResourceURLs: ['/b'] },
    ]);
  });
  const rows: [string, PolicyRule, PolicyRule, boolean][] = [
    ['same', rule('get', CORE, 'pods'), rule('get', CORE, 'pods'), true],
    ['verb *', rule('*', CORE, 'pods'), rule('delete', CORE, 'pods'), true],
    ['group *', rule('get', ['*'], 'pods'), rule('get', ['apps'], 'pods'), true],
    ['resource *', rule('get', CORE, '*'), rule('get', CORE, 'pods/log'), true],
    ['*/subresource', rule('get', ['*'], '*/scale'), rule('get', ['apps'], 'deployments/scale'), true],
    ['*/subresource is not the resource', rule('get', ['*'], '*/scale'), rule('get', ['apps'], 'deployments'), false],
    ['other verb', rule('get', CORE, 'pods'), rule('list', CORE, 'pods'), false],
    ['names: unrestricted owner', rule('get', CORE, 'pods'), rule('get', CORE, 'pods', 'a'), true],
    ['names: restricted owner, unrestricted servant', rule('get', CORE, 'pods', 'a'), rule('get', CORE, 'pods'), false],
    ['names: subset', rule('get', CORE, 'pods', 'a b'), rule('get', CORE, 'pods', 'a'), true],
    ['url prefix', urls('get', '/api/*'), urls('get', '/api/v1'), true],
    ['url other', urls('get', '/api'), urls('get', '/apis'), false],
  ];
  it.each(rows)('%s', (_n, owner, sub, want) => {
    expect(ruleCovers(owner, sub)).toBe(want);
  });
  it('uncovered lists the sub-rules no owner rule covers', () => {
    expect(uncovered([rule('get', CORE, 'pods')], [rule('get list', CORE, 'pods')])).toEqual([{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
  });
});

const expected = clusterRole('r', [rule(READ, CORE, 'pods')], { labels: { extra: 'x' } });
const stored = (o: Obj, patch: (o: Obj) => void): Obj => {
  const c = structuredClone(o);
  c.metadata.uid = 'u1';
  c.metadata.resourceVersion = '5';
  patch(c);
  return c;
};

describe('reconcileRole', () => {
  it('creates what is missing', () => {
    expect(reconcileRole(undefined, expected)).toEqual({ op: 'create', object: expected });
  });
  it('leaves an up-to-date role alone, extra rules included', () => {
    expect(
      reconcileRole(
        stored(expected, () => {}),
        expected,
      ),
    ).toEqual({ op: 'none' });
    expect(
      reconcileRole(
        stored(expected, (o) => o.rules.push(rule('delete', CORE, 'secrets'))),
        expected,
      ),
    ).toEqual({ op: 'none' });
    // a broader rule covers the expected ones
    expect(
      reconcileRole(
        stored(expected, (o) => (o.rules = [rule('*', ['*'], '*')])),
        expected,
      ),
    ).toEqual({ op: 'none' });
  });
  it('adds missing rules as sub-rules after the stored ones', () => {
    const r = reconcileRole(
      stored(expected, (o) => (o.rules = [rule('get', CORE, 'pods'), rule('delete', CORE, 'secrets')])),
      expected,
    );
    expect(r.op).toBe('update');
    expect(r.op === 'update' && r.object.rules).toEqual([rule('get', CORE, 'pods'), rule('delete', CORE, 'secrets'), rule('list', CORE, 'pods'), rule('watch', CORE, 'pods')]);
    expect(r.op === 'update' && r.object.metadata.uid).toBe('u1');
  });
  it('merges labels and annotations, stored values winning', () => {
    const r = reconcileRole(
      stored(expected, (o) => {
        o.metadata.labels = { extra: 'mine', own: '1' };
        o.metadata.annotations = {};
      }),
      expected,
    );
    expect(r.op === 'update' && r.object.metadata.labels).toEqual({ 'kubernetes.io/bootstrapping': 'rbac-defaults', extra: 'mine', own: '1' });
    expect(r.op === 'update' && r.object.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
  });
  it('labels and annotations: an update only when an expected key is absent, whatever the stored values', () => {
    const cases: [string, (o: Obj) => void, Reconciled['op']][] = [
      ['all in place', () => {}, 'none'],
      ['a stored value differs (stored wins)', (o) => (o.metadata.labels['kubernetes.io/bootstrapping'] = 'other'), 'none'],
      ['an extra stored key', (o) => (o.metadata.annotations.extra = 'x'), 'none'],
      ['no labels stored', (o) => delete o.metadata.labels, 'update'],
      ['no annotations stored', (o) => delete o.metadata.annotations, 'update'],
      ['the autoupdate annotation missing', (o) => (o.metadata.annotations = { other: 'y' }), 'update'],
    ];
    for (const [what, patch, op] of cases) expect([what, reconcileRole(stored(expected, patch), expected).op]).toEqual([what, op]);
  });
  it('autoupdate "false": left alone, and says what it lacks', () => {
    const mine = stored(expected, (o) => {
      o.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'] = 'false';
      o.rules = [];
    });
    expect(reconcileRole(mine, expected)).toEqual({ op: 'protected', missing: 3 });
    expect(
      reconcileRole(
        stored(expected, (o) => (o.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'] = 'false')),
        expected,
      ),
    ).toEqual({ op: 'none' });
  });
  it('adds missing aggregation selectors', () => {
    const agg = clusterRole('view', [], { aggregateFrom: 'a/b' });
    const r = reconcileRole(
      stored(agg, (o) => (o.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { mine: 'true' } }] })),
      agg,
    );
    expect(r.op === 'update' && r.object.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { mine: 'true' } }, { matchLabels: { 'a/b': 'true' } }] });
  });
});

describe('reconcileBinding', () => {
  const want = clusterRoleBinding('b', 'r', [group('g1'), user('u1')]);
  it('adds missing subjects, keeps extra ones', () => {
    const r = reconcileBinding(
      stored(want, (o) => (o.subjects = [user('someone'), group('g1')])),
      want,
    );
    expect(r.op === 'update' && r.object.subjects).toEqual([user('someone'), group('g1'), user('u1')]);
    expect(
      reconcileBinding(
        stored(want, () => {}),
        want,
      ),
    ).toEqual({ op: 'none' });
  });
  it('a different roleRef means delete and create', () => {
    const r = reconcileBinding(
      stored(want, (o) => (o.roleRef.name = 'other')),
      want,
    );
    expect(r.op).toBe('recreate');
    expect(r.op === 'recreate' && r.object.roleRef.name).toBe('r');
  });
  it('autoupdate "false" is left alone', () => {
    const r = reconcileBinding(
      stored(want, (o) => {
        o.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'] = 'false';
        o.subjects = [];
      }),
      want,
    );
    expect(r).toEqual({ op: 'protected', missing: 2 });
  });
});
