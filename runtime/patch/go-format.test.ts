// Go %v rendering and Go type names used in upstream's error texts.
import { describe, expect, it } from 'vitest';
import { goKind, goTypeName, goValue, jsonKindName } from './go-format.ts';

describe('goValue', () => {
  it.each([
    [null, '<nil>'],
    ['s', 's'],
    [true, 'true'],
    [42, '42'],
    [-7, '-7'],
    [1.5, '1.5'],
    [123456.5, '123456.5'],
    [1234567.5, '1.2345675e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [[], '[]'],
    [['a', 1, null], '[a 1 <nil>]'],
    [{}, 'map[]'],
    [{ name: 'x', $patch: 'delete' }, 'map[$patch:delete name:x]'],
    [{ b: [{ c: 1 }], a: 'z' }, 'map[a:z b:[map[c:1]]]'],
  ])('%j -> %s', (v, want) => {
    expect(goValue(v)).toBe(want);
  });
});

describe('Go types and kinds', () => {
  it.each([
    [null, '%!s(<nil>)', 'nil', 'null'],
    ['s', 'string', 'string', 'string'],
    [true, 'bool', 'bool', 'bool'],
    [3, 'int64', 'int64', 'number'],
    [3.5, 'float64', 'float64', 'number'],
    [[1], '[]interface {}', 'slice', 'array'],
    [{ a: 1 }, 'map[string]interface {}', 'map', 'object'],
  ])('%j', (v, typeName, kind, jsonKind) => {
    expect(goTypeName(v)).toBe(typeName);
    expect(goKind(v)).toBe(kind);
    expect(jsonKindName(v)).toBe(jsonKind);
  });
});
