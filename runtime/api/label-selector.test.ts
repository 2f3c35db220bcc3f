import { describe, expect, it } from 'vitest';
import { isEmptySelector, labelSelectorErrors, selectorMatches } from './label-selector.ts';

describe('selectorMatches', () => {
  const labels = { app: 'web', tier: 'front' };
  it.each([
    [{ matchLabels: { app: 'web' } }, true],
    [{ matchLabels: { app: 'db' } }, false],
    [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'back'] }] }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] }, false],
    [{ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, true],
    [{ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, false],
    [{}, true],
  ])('%j -> %s', (sel, want) => {
    expect(selectorMatches(sel, labels)).toBe(want);
  });
  it('empty selectors', () => {
    expect(isEmptySelector({})).toBe(true);
    expect(isEmptySelector({ matchLabels: { a: 'b' } })).toBe(false);
  });
});

describe('labelSelectorErrors', () => {
  it.each([
    [{ matchLabels: { 'bad key': 'v' } }, 'sel.matchLabels'],
    [{ matchExpressions: [{ key: 'k', operator: 'In' }] }, 'sel.matchExpressions[0].values'],
    [{ matchExpressions: [{ key: 'k', operator: 'Exists', values: ['x'] }] }, 'sel.matchExpressions[0].values'],
    [{ matchExpressions: [{ key: 'k', operator: 'Like', values: ['x'] }] }, 'sel.matchExpressions[0].operator'],
  ])('%j is refused at %s', (sel, field) => {
    expect(labelSelectorErrors('sel', sel).map((e) => e.field)).toContain(field);
  });
  it('accepts a good selector', () => {
    expect(labelSelectorErrors('sel', { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['d'] }] })).toEqual([]);
  });
});
