// ClusterRole aggregation: which roles a selector gathers, the order and
// de-duplication of their rules, and when the aggregate is already current.
import { describe, expect, it } from 'vitest';
import { aggregatedRules, rulesUnchanged } from './clusterrole-aggregation.ts';

const role = (name: string, labels: Record<string, string>, rules: Record<string, unknown>[]) => ({ metadata: { name, labels }, rules });
const get = (res: string) => ({ verbs: ['get'], apiGroups: [''], resources: [res] });
const agg = (selectors: unknown[], rules?: unknown[]) => ({ metadata: { name: 'agg', labels: { a: '1' } }, aggregationRule: { clusterRoleSelectors: selectors }, rules });

describe('aggregatedRules', () => {
  const roles = [
    role('b-role', { a: '1' }, [get('pods'), get('services')]),
    role('a-role', { a: '1', b: '2' }, [get('secrets'), get('pods')]),
    role('c-role', { b: '2' }, [get('nodes'), { ...get('secrets'), resourceNames: [] }]),
    role('d-role', {}, [get('configmaps')]),
  ];
  const rows: [string, unknown[], unknown[]][] = [
    ['one selector: matching roles by name, each rule once', [{ matchLabels: { a: '1' } }], [get('secrets'), get('pods'), get('services')]],
    ['selectors in order', [{ matchLabels: { b: '2' } }, { matchLabels: { a: '1' } }], [get('secrets'), get('pods'), get('nodes'), get('services')]],
    ['matchExpressions', [{ matchExpressions: [{ key: 'b', operator: 'DoesNotExist' }] }], [get('pods'), get('services'), get('configmaps')]],
    ['an empty selector matches every other role', [{}], [get('secrets'), get('pods'), get('services'), get('nodes'), get('configmaps')]],
    ['nothing matches', [{ matchLabels: { z: '9' } }], []],
    ['no selectors', [], []],
  ];
  it.each(rows)('%s', (_n, selectors, want) => {
    expect(aggregatedRules(agg(selectors), [...roles, agg(selectors, [get('leases')])])).toEqual(want);
  });
  it('takes a rule once whatever the order of its keys, and keeps rules whose lists differ in order or content', () => {
    const reordered = { resources: ['pods'], apiGroups: [''], verbs: ['get'] };
    const listsSwapped = { verbs: ['list', 'get'], apiGroups: [''], resources: ['pods'] };
    const listed = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };
    const all = [role('x', { a: '1' }, [get('pods'), reordered, listed, listsSwapped, { ...listed }])];
    expect(aggregatedRules(agg([{ matchLabels: { a: '1' } }]), all)).toEqual([get('pods'), listed, listsSwapped]);
  });
  it('is undefined for a role without an aggregationRule', () => {
    expect(aggregatedRules(role('x', {}, []), roles)).toBeUndefined();
  });
});

describe('rulesUnchanged', () => {
  const rows: [string, unknown[] | undefined, unknown[], boolean][] = [
    ['same rules', [get('pods')], [get('pods')], true],
    ['no rules and none wanted', undefined, [], true],
    ['empty lists are no lists', [{ ...get('pods'), resourceNames: [] }], [get('pods')], true],
    ['another order', [get('pods'), get('secrets')], [get('secrets'), get('pods')], false],
    ['a rule more', [get('pods')], [get('pods'), get('secrets')], false],
    ['rules gone', [get('pods')], [], false],
  ];
  it.each(rows)('%s', (_n, current, wanted, want) => {
    expect(rulesUnchanged(agg([], current), wanted as Record<string, unknown>[])).toBe(want);
  });
});
