// Tests of the JSON value helpers: value order, Go JSON text, printing, equality.
import { describe, expect, it } from 'vitest';
import { clone, compareValues, goJSON, valueToString, type JSONValue } from './json.ts';
import { jsonEqual } from '../../api/json-equal.ts';

describe('compareValues', () => {
  const ordered: JSONValue[] = [-1, 0, 2.5, 10, 'a', 'b', false, true, [], [1], [1, 2], {}, { a: 1 }, { a: 2 }, { b: 0 }, null];
  it.each(ordered.slice(0, -1).map((v, i) => [v, ordered[i + 1]]))('%j < %j', (a, b) => {
    expect(compareValues(a, b)).toBe(-1);
    expect(compareValues(b, a)).toBe(1);
    expect(compareValues(a, clone(a))).toBe(0);
  });
});

describe('goJSON', () => {
  it.each([
    [{ b: 1, a: 'x' }, '{"a":"x","b":1}'],
    ['a<b>&c', '"a\\u003cb\\u003e\\u0026c"'],
    [[1, 'x', null, true], '[1,"x",null,true]'],
    [{ k: { z: [], y: {} } }, '{"k":{"y":{},"z":[]}}'],
  ] as [JSONValue, string][])('%j -> %s', (v, s) => expect(goJSON(v)).toBe(s));
});

describe('valueToString and jsonEqual', () => {
  it.each([
    ['x', '"x"'],
    [3, '3'],
    [true, 'true'],
    [null, 'null'],
    [[1, 'a'], '[1,"a"]'],
  ] as [JSONValue, string][])('%j prints as %s', (v, s) => expect(valueToString(v)).toBe(s));
  it.each([
    [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, true],
    [{ a: 1 }, { a: 1, b: undefined as unknown as JSONValue }, false],
    [[1, 2], [2, 1], false],
    [{}, [], false],
    [null, {}, false],
  ] as [JSONValue, JSONValue, boolean][])('jsonEqual(%j, %j) = %s', (a, b, r) => expect(jsonEqual(a, b)).toBe(r));
});
