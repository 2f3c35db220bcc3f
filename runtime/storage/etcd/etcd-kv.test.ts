// The etcd versions whose watch progress notifications this store relies on.
import { describe, expect, it } from 'vitest';
import { progressReliable } from './etcd-kv.ts';

describe('progressReliable', () => {
  it.each([
    ['3.4.23', false],
    ['3.4.30', false],
    ['3.4.31', true],
    ['3.5.12', false],
    ['3.5.13', true],
    ['3.5.17', true],
    ['3.6.0', true],
    ['3.3.27', false],
    ['', false],
    ['junk', false],
  ])('%s -> %s', (v, want) => {
    expect(progressReliable(v)).toBe(want);
  });
});
