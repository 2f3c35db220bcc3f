// Clean-up of patch values that land in the result whole.
import { describe, expect, it } from 'vitest';
import type { JSONValue } from '../../generated/api-types.ts';
import { asDecoded, isDirectiveKey, withoutDirectives } from './directives.ts';
import { cloneJSON } from './clone.ts';

describe('isDirectiveKey', () => {
  it.each([
    ['$patch', true],
    ['$retainKeys', true],
    ['$setElementOrder/containers', true],
    ['$deleteFromPrimitiveList/finalizers', true],
    ['$setElementOrder', false],
    ['$other', false],
    ['name', false],
  ])('%s -> %s', (k, want) => {
    expect(isDirectiveKey(k)).toBe(want);
  });
});

describe('withoutDirectives', () => {
  it.each([
    ['scalar', 'x', { value: 'x', keep: true }],
    ['a map with $patch vanishes', { $patch: 'delete', name: 'a' }, { value: null, keep: false }],
    ['nulls are discarded, null list items kept', { a: null, b: [null, { c: null }] }, { value: { b: [null, {}] }, keep: true }],
    ['list items with $patch are dropped', [{ name: 'a' }, { name: 'b', $patch: 'delete' }], { value: [{ name: 'a' }], keep: true }],
    ['nested maps with $patch vanish', { a: { $patch: 'replace', x: 1 }, b: 1 }, { value: { b: 1 }, keep: true }],
    ['other directive keys are dropped', { '$setElementOrder/x': [], $retainKeys: ['a'], a: 1 }, { value: { a: 1 }, keep: true }],
    ['$patch: null is just a null', { $patch: null, a: 1 }, { value: { a: 1 }, keep: true }],
  ] as [string, JSONValue, { value: JSONValue; keep: boolean }][])('%s', (_n, v, want) => {
    expect(withoutDirectives(v)).toEqual(want);
  });
});

describe('asDecoded and cloneJSON', () => {
  it('drops directive keys and null fields but keeps maps with $patch', () => {
    expect(asDecoded([{ name: 'a', $patch: 'delete', x: null }, null])).toEqual([{ name: 'a' }, null]);
  });

  it('copies deeply', () => {
    const v = { a: [{ b: 1 }], c: 'x' };
    const c = cloneJSON(v);
    expect(c).toEqual(v);
    expect(c.a[0]).not.toBe(v.a[0]);
    const d = asDecoded(v) as { a: { b: number }[] };
    expect(d.a[0]).not.toBe(v.a[0]);
  });
});
