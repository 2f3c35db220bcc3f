// Tests of compileRule / Program.evaluate: caching, results, errors, declared variables.
import { describe, it, expect } from 'vitest';
import { compileRule, parseTypeName } from './compile.ts';
import { typeName } from './schema/types.ts';

const schema = { type: 'object', properties: { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' }, name: { type: 'string', maxLength: 63 }, opt: { type: 'string' } } };

describe('compileRule / evaluate', () => {
  it('caches programs by expression and schema', () => {
    const a = compileRule('self.replicas <= self.maxReplicas', { vars: { self: schema } });
    const b = compileRule('self.replicas <= self.maxReplicas', { vars: { self: JSON.parse(JSON.stringify(schema)) } });
    const c = compileRule('self.replicas <= self.maxReplicas', { vars: { self: { ...schema, properties: { ...schema.properties, replicas: { type: 'number' } } } } });
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (a.ok && b.ok && c.ok) {
      expect(b.program).toBe(a.program);
      expect(c.program).not.toBe(a.program);
    }
  });

  it.each<[string, Record<string, unknown>, unknown]>([
    ['self.replicas <= self.maxReplicas', { replicas: 1, maxReplicas: 2 }, true],
    ['self.replicas <= self.maxReplicas', { replicas: 3, maxReplicas: 2 }, false],
    ["self.name.startsWith('a')", { name: 'abc' }, true],
    ["!has(self.opt) || self.opt != ''", { name: 'x' }, true],
  ])('%s on %j', (expr, self, want) => {
    const c = compileRule(expr, { vars: { self: schema } });
    if (!c.ok) throw new Error(c.errors[0].message);
    const r = c.program.evaluate({ self });
    expect(r.ok && r.value).toBe(want);
  });

  it('reports evaluation errors (missing field)', () => {
    const c = compileRule("self.opt == 'x'", { vars: { self: schema } });
    if (!c.ok) throw new Error('compile');
    const r = c.program.evaluate({ self: {} });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatch(/no such key|opt/);
      expect(r.costExceeded).toBe(false);
    }
  });

  it('reports a variable missing from the activation', () => {
    const c = compileRule('self.replicas > 0', { vars: { self: schema } });
    if (!c.ok) throw new Error('compile');
    const r = c.program.evaluate({});
    expect(r.ok).toBe(false);
  });

  it('reports a JSON value of the wrong type as an evaluation error', () => {
    const c = compileRule('self.replicas > 0', { vars: { self: schema } });
    if (!c.ok) throw new Error('compile');
    const r = c.program.evaluate({ self: { replicas: 'three' } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('no matching overload');
  });

  it('compares self with oldSelf (transition rules)', () => {
    const c = compileRule('self.replicas >= oldSelf.replicas', { vars: { self: schema, oldSelf: schema } });
    if (!c.ok) throw new Error('compile');
    expect(c.program.evaluate({ self: { replicas: 3 }, oldSelf: { replicas: 2 } })).toMatchObject({ ok: true, value: true });
    expect(c.program.evaluate({ self: { replicas: 1 }, oldSelf: { replicas: 2 } })).toMatchObject({ ok: true, value: false });
  });

  it('declares variables by CEL type name', () => {
    const c = compileRule("variables.x.size() > 0 && params['k'] == 'v'", { vars: { variables: { celType: 'map(string, list(string))' }, params: { celType: 'map(string, string)' } } });
    if (!c.ok) throw new Error(c.errors[0].message);
    expect(c.program.evaluate({ variables: { x: ['a'] }, params: { k: 'v' } })).toMatchObject({ ok: true, value: true });
    expect(typeName(parseTypeName('map(string, list(int))'))).toBe('map(string, list(int))');
  });

  it('returns string results for message expressions', () => {
    const c = compileRule("'replicas ' + string(self.replicas) + ' too high'", { vars: { self: schema }, resultType: 'string' });
    if (!c.ok) throw new Error(c.errors[0].message);
    expect(c.program.evaluate({ self: { replicas: 7 } })).toMatchObject({ ok: true, json: 'replicas 7 too high' });
  });
});

describe('native types: field names as they are', () => {
  const obj = { type: 'object', properties: { namespace: { type: 'string' }, inner: { type: 'object', properties: { namespace: { type: 'string' } } } } };
  it.each<[string, { nativeType: typeof obj } | typeof obj, string | true]>([
    ["v.namespace == 'a' && v.inner.namespace == 'b'", { nativeType: obj }, true],
    ["v.__namespace__ == 'a'", { nativeType: obj }, "undefined field '__namespace__'"],
    ["v.namespace == 'a'", obj, "undefined field 'namespace'"],
    ["v.__namespace__ == 'a' && v.inner.__namespace__ == 'b'", obj, true],
  ])('%s (%j)', (expr, decl, want) => {
    const c = compileRule(expr, { vars: { v: decl } });
    if (want !== true) {
      expect(c.ok).toBe(false);
      if (!c.ok) expect(c.errors[0].message).toContain(want);
      return;
    }
    if (!c.ok) throw new Error(c.errors[0].message);
    const r = c.program.evaluate({ v: { namespace: 'a', inner: { namespace: 'b' } } });
    expect(r.ok && r.value).toBe(true);
  });
});
