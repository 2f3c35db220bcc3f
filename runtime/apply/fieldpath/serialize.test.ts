// Tests of the fieldsV1 encoding: key order, "." membership, round trips, errors.
import { describe, expect, it } from 'vitest';
import { fieldPE as f, keyPE, valuePE, pathToString } from './element.ts';
import { fieldsV1ToSet, setToFieldsV1 } from './serialize.ts';
import { FieldSet } from './set.ts';

describe('fieldsV1 encoding', () => {
  it('writes sorted keys, {} for leaves and "." first for members with children', () => {
    const set = FieldSet.of(
      [f('spec'), f('template'), f('containers'), keyPE([['name', 'web']])],
      [f('spec'), f('template'), f('containers'), keyPE([['name', 'web']]), f('image')],
      [f('spec'), f('replicas')],
      [f('metadata'), f('finalizers'), valuePE('b')],
      [f('metadata'), f('finalizers'), valuePE('a')],
    );
    const enc = setToFieldsV1(set);
    expect(JSON.stringify(enc)).toBe(
      '{"f:metadata":{"f:finalizers":{"v:\\"a\\"":{},"v:\\"b\\"":{}}},' + '"f:spec":{"f:replicas":{},"f:template":{"f:containers":{"k:{\\"name\\":\\"web\\"}":{".":{},"f:image":{}}}}}}',
    );
    expect(fieldsV1ToSet(enc).equals(set)).toBe(true);
  });

  it('reads "." as membership of the element itself', () => {
    const set = fieldsV1ToSet({ 'f:labels': { '.': {}, 'f:app': {} } });
    expect(set.paths().map(pathToString)).toEqual(['.labels', '.labels.app']);
  });

  it.each([
    [[], /JSON object/],
    [{ 'f:a': 1 }, /must be an object/],
    [{ 'x:a': {} }, /unknown path element/],
    [{ 'k:nope': {} }, /invalid key/],
  ])('rejects %j', (v, re) => {
    expect(() => fieldsV1ToSet(v)).toThrow(re);
  });
});
