// The static node rules: upstream's stored form (sorted lists), fresh copies.
import { describe, expect, it } from 'vitest';
import { nodeRules } from './node-rules.ts';

describe('nodeRules', () => {
  it('stores every list sorted, as upstream rule builder does', () => {
    for (const r of nodeRules()) {
      for (const l of [r.verbs, r.apiGroups ?? [], r.resources ?? []]) expect(l).toEqual([...l].sort());
    }
  });

  it('holds the rules of the 1.31 system:node role', () => {
    const rules = nodeRules();
    expect(rules).toHaveLength(22);
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] });
    expect(rules).toContainEqual({ apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'], verbs: ['get', 'list', 'watch'] });
    expect(rules.some((r) => r.apiGroups?.includes('resource.k8s.io'))).toBe(false);
  });

  it('hands out copies', () => {
    const a = nodeRules();
    a[0].verbs.push('delete');
    expect(nodeRules()[0].verbs).toEqual(['create']);
  });
});
