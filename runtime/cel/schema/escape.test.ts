// Tests of the property-name escaping table, both directions and through rules.
import { describe, it, expect } from 'vitest';
import { escapeName, unescapeName } from './escape.ts';
import { run, compileErrors } from '../testing/run.ts';

describe('property name escaping', () => {
  it.each([
    ['namespace', '__namespace__'],
    ['x-prop', 'x__dash__prop'],
    ['redact__d', 'redact__underscores__d'],
    ['string.v1', 'string__dot__v1'],
    ['a/b', 'a__slash__b'],
    ['if', '__if__'],
    ['foo', 'foo'],
    ['_x', '_x'],
    ['a_b', 'a_b'],
  ])('%s <-> %s', (name, ident) => {
    expect(escapeName(name)).toBe(ident);
    expect(unescapeName(ident)).toBe(name);
  });

  it.each(['1abc', 'a b', 'a:b', 'é', ''])('%j is not accessible', (name) => {
    expect(escapeName(name)).toBeUndefined();
  });

  const schema = {
    type: 'object',
    properties: {
      'x-prop': { type: 'string' },
      namespace: { type: 'string' },
      redact__d: { type: 'integer' },
      'a/b': { type: 'boolean' },
      '1abc': { type: 'string' },
    },
  };
  const obj = { 'x-prop': 'p', namespace: 'ns', redact__d: 3, 'a/b': true, '1abc': 'hidden' };

  it.each([
    ['self.x__dash__prop', 'p'],
    ['self.__namespace__', 'ns'],
    ['self.redact__underscores__d', 3],
    ['self.a__slash__b', true],
    ['has(self.x__dash__prop)', true],
    ["self.?x__dash__prop.orValue('')", 'p'],
    ['self.?redact__underscores__d.orValue(0)', 3],
  ])('%s reads the escaped property', (expr, want) => {
    expect(run(expr, { self: schema }, { self: obj })).toEqual(want);
  });

  it.each([
    ['self.x_prop', "undefined field 'x_prop'"],
    ['self.redact__d', "undefined field 'redact__d'"],
    ['self.namespace', ''],
  ])('%s is rejected', (expr, msg) => {
    const errs = compileErrors(expr, { self: schema });
    expect(errs.length).toBe(1);
    if (msg) expect(errs[0]).toContain(msg);
  });
});
