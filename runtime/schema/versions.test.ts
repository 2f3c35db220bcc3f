import { describe, expect, it } from 'vitest';
import { compareVersionPriority, defaultEnabled, parseVersion, releaseBefore, stabilityOf } from './versions.ts';

describe('version rules', () => {
  it.each([
    ['v1', 'GA'],
    ['v2', 'GA'],
    ['v1beta1', 'beta'],
    ['v2beta3', 'beta'],
    ['v1alpha1', 'alpha'],
    ['foo', 'GA'],
  ] as const)('stability of %s is %s', (v, s) => expect(stabilityOf(v)).toBe(s));

  it('rejects non-kube version strings', () => {
    expect(parseVersion('v1gamma1')).toBeNull();
    expect(parseVersion('1')).toBeNull();
  });

  it('sorts by kube priority', () => {
    const vs = ['v1alpha1', 'foo', 'v1beta1', 'v1', 'v11alpha2', 'v2beta1', 'v10beta3', 'v2', 'v1beta2', 'bar'];
    expect([...vs].sort(compareVersionPriority)).toEqual(['v2', 'v1', 'v10beta3', 'v2beta1', 'v1beta2', 'v1beta1', 'v11alpha2', 'v1alpha1', 'bar', 'foo']);
  });

  it.each([
    ['1.21', '1.22', true],
    ['1.22', '1.22', false],
    ['1.9', '1.22', true],
    ['1.30', '1.22', false],
    ['2.0', '1.22', false],
  ] as const)('%s before %s: %s', (a, b, want) => expect(releaseBefore(a, b)).toBe(want));

  it.each([
    ['GA', undefined, true],
    ['alpha', '1.10', false],
    ['beta', '1.21', true],
    ['beta', '1.22', false],
    ['beta', undefined, false],
  ] as const)('%s introduced %s enabled: %s', (s, intro, want) => expect(defaultEnabled(s, intro)).toBe(want));
});
