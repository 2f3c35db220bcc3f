// Tests of field set algebra and iteration order.
import { describe, expect, it } from 'vitest';
import { fieldPE as f, keyPE, pathToString, type Path } from './element.ts';
import { FieldSet } from './set.ts';

const k = (name: string) => keyPE([['name', name]]);
const s = (...paths: Path[]) => FieldSet.of(...paths);
const strs = (set: FieldSet) => set.paths().map(pathToString);

const a = s([f('a')], [f('b'), f('c')], [f('b'), f('d')], [f('l'), k('x')], [f('l'), k('x'), f('v')]);
const b = s([f('b')], [f('b'), f('c')], [f('l'), k('x')], [f('z')]);

describe('FieldSet', () => {
  it('iterates members before children, each in order', () => {
    expect(strs(a)).toEqual(['.a', '.b.c', '.b.d', '.l[name="x"]', '.l[name="x"].v']);
    expect(a.size()).toBe(5);
  });

  it.each([
    ['union', a.union(b), ['.a', '.b', '.z', '.b.c', '.b.d', '.l[name="x"]', '.l[name="x"].v']],
    ['intersection', a.intersection(b), ['.b.c', '.l[name="x"]']],
    ['difference', a.difference(b), ['.a', '.b.d', '.l[name="x"].v']],
    ['recursiveDifference', a.recursiveDifference(b), ['.a']],
  ])('%s', (_n, got, want) => {
    expect(strs(got as FieldSet)).toEqual(want);
  });

  it('has, withPrefix, empty, equals', () => {
    expect(a.has([f('b'), f('c')])).toBe(true);
    expect(a.has([f('b')])).toBe(false);
    expect(a.has([])).toBe(false);
    expect(strs(a.withPrefix(f('b')))).toEqual(['.c', '.d']);
    expect(a.withPrefix(f('nope')).empty()).toBe(true);
    expect(new FieldSet().empty()).toBe(true);
    expect(a.difference(a).empty()).toBe(true);
    expect(a.union(b).equals(b.union(a))).toBe(true);
    expect(a.equals(b)).toBe(false);
  });

  it('set algebra does not change its operands', () => {
    const before = strs(a);
    a.union(b);
    a.difference(b);
    a.intersection(b);
    a.recursiveDifference(b);
    expect(strs(a)).toEqual(before);
  });
});
