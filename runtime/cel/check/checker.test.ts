// Table tests of the type checker: accepted rules, rejected rules with messages and positions.
import { describe, it, expect } from 'vitest';
import { compileRule } from '../compile.ts';
import type { JSONSchema } from '../schema/types.ts';

const schema: JSONSchema = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    name: { type: 'string' },
    ratio: { type: 'number' },
    on: { type: 'boolean' },
    tags: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 64 } },
    anyTags: { type: 'array', items: { type: 'string' } },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    spec: { type: 'object', properties: { port: { type: 'integer' } } },
    created: { type: 'string', format: 'date-time' },
    ios: { 'x-kubernetes-int-or-string': true },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};
const vars = { self: schema, oldSelf: schema };

function errorsOf(expr: string, resultType: 'bool' | 'any' = 'any'): string[] {
  const r = compileRule(expr, { vars, resultType, fieldPath: 'spec.validation.rule' });
  return r.ok ? [] : r.errors.map((e) => `${e.field}: ${e.message}`);
}

describe('type checking', () => {
  it.each([
    'self.replicas > 0',
    'self.replicas == oldSelf.replicas',
    "self.name.startsWith('a') && self.name.size() < 10",
    'self.ratio * 2.0 < 1.0',
    'self.replicas < self.ratio',
    "self.tags.all(t, t != '')",
    "self.tags.exists_one(t, t == 'x')",
    'self.labels.all(k, self.labels[k].size() < 64)',
    'self.tags.map(t, t.size()).sum() < 100',
    "self.tags.filter(t, t.startsWith('a')).size() == 0",
    'has(self.spec.port) && self.spec.port < 65536',
    "self.created < timestamp('2030-01-01T00:00:00Z')",
    "self.ios == 1 || self.ios == '1%'",
    'self.free.anything.goes == 1',
    'type(self.replicas) == int',
    'self.replicas + 1 == 2',
    "dyn(self.replicas) == 'x'",
    'self.tags == []',
    "'a' in self.labels",
    'self.?spec.?port.orValue(0) > 0',
    "quantity('1').isLessThan(quantity('2'))",
    "url('https://x').getHost() == 'x'",
    '[1, 2].indexOf(1) == 0',
    "self.name.matches('^a') && self.name.find('a') == 'a'",
    "self.name.lowerAscii().split('-').join('') != ''",
    "duration('1h') > duration('1m')",
    'int(self.ratio) == 1',
    'self.labels.size() == size(self.labels)',
  ])('accepts %s', (expr) => {
    expect(errorsOf(expr)).toEqual([]);
  });

  it.each([
    ['self.nope == 1', "undefined field 'nope'"],
    ['self.spec.nope == 1', "undefined field 'nope'"],
    ['has(self.spec.nope)', "undefined field 'nope'"],
    ["self.replicas == 'a'", "found no matching overload for '_==_' applied to '(int, string)'"],
    ['self.replicas + self.name', "found no matching overload for '_+_'"],
    ['self.name > 1', "found no matching overload for '_>_'"],
    ['self.replicas.startsWith("a")', "found no matching overload for 'startsWith' applied to 'int.(string)'"],
    ['self.tags.all(t, t > 1)', "found no matching overload for '_>_'"],
    ['self.name.noSuchFunction()', "undeclared reference to 'noSuchFunction'"],
    ['unknownVar == 1', "undeclared reference to 'unknownVar'"],
    ['self.replicas.foo', "type 'int' does not support field selection"],
    ['self.on && self.replicas', "found no matching overload for '_&&_'"],
    ['self.tags[0] == 1', "found no matching overload for '_==_'"],
    ["self.tags['a']", "found no matching overload for '_[_]'"],
    ["quantity('1').isLessThan(1)", "found no matching overload for 'isLessThan'"],
    ['self.created + 1', "found no matching overload for '_+_'"],
    ['self.replicas ==', 'compilation failed: ERROR: <input>:'],
  ])('rejects %s', (expr, msg) => {
    const errs = errorsOf(expr);
    expect(errs.length).toBeGreaterThan(0);
    expect(errs[0]).toContain(msg);
    expect(errs[0]).toMatch(/^spec\.validation\.rule: compilation failed: /);
  });

  it('reports the position of the error', () => {
    expect(errorsOf('self.replicas > 0 && self.nope')[0]).toContain('<input>:1:26:');
  });

  it('requires a bool result when asked', () => {
    expect(errorsOf('self.replicas', 'bool')[0]).toContain('must evaluate to a bool, got int');
    expect(errorsOf('self.replicas > 1', 'bool')).toEqual([]);
  });
});
