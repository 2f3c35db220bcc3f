// Tests of the static cost estimate, compile-time cost limits and the runtime budget.
import { describe, it, expect } from 'vitest';
import { compileRule } from '../compile.ts';
import { PER_EXPRESSION_ESTIMATE_LIMIT, totalTooHighMessage } from '../limits.ts';
import type { JSONSchema } from '../schema/types.ts';

const obj = (properties: Record<string, JSONSchema>): JSONSchema => ({ type: 'object', properties });
const schema = obj({
  n: { type: 'integer' },
  short: { type: 'string', maxLength: 10 },
  long: { type: 'string' },
  small: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } },
  big: { type: 'array', items: { type: 'string' } },
  nested: { type: 'array', maxItems: 1000, items: { type: 'array', maxItems: 1000, items: { type: 'integer' } } },
  m: { type: 'object', maxProperties: 5, additionalProperties: { type: 'string', maxLength: 4 } },
});

function estimate(expr: string): number {
  const r = compileRule(expr, { vars: { self: schema }, resultType: 'any', costLimit: Number.MAX_SAFE_INTEGER });
  if (!r.ok) throw new Error(r.errors[0].message);
  return r.costEstimate;
}

describe('static cost estimate', () => {
  it.each<[string, number]>([
    ['1 < 2', 1],
    ['self.n < 2', 3],
    ['[1, 2, 3]', 40],
    ["{'a': 1}", 30],
    ["self.short.startsWith('ab')", 4],
    // receiver 10 chars and argument 2 chars at 0.1 per character: ceil(1.2) = 2, plus the call and the selection.
    ["self.short.contains('ab')", 5],
    ["self.short.matches('[a-z]+')", 2 + 2 * 2],
    // range 2; per element: loop condition 2 (accumulator and test) + step 4; result 1.
    ['self.small.all(x, x.size() < 5)', 2 + 10 * 6 + 1],
    ['self.m.all(k, k.size() < 5)', 2 + 5 * 6 + 1],
  ])('%s costs %d', (expr, cost) => {
    expect(estimate(expr)).toBe(cost);
  });

  it('grows with maxLength and maxItems', () => {
    expect(estimate("self.long.contains('x')")).toBeGreaterThan(estimate("self.short.contains('x')"));
    expect(estimate('self.big.all(x, x != "")')).toBeGreaterThan(estimate('self.small.all(x, x != "")'));
  });

  it('multiplies nested comprehensions', () => {
    const c = estimate('self.nested.all(row, row.all(x, x > 0))');
    expect(c).toBeGreaterThan(1000 * 1000 * 2);
    expect(c).toBeLessThan(1000 * 1000 * 6);
  });

  it('multiplies by the cardinality of the rule', () => {
    const once = compileRule('self.n < 2', { vars: { self: schema }, resultType: 'any' });
    const many = compileRule('self.n < 2', { vars: { self: schema }, resultType: 'any', cardinality: 100 });
    expect(once.ok && many.ok && many.costEstimate === once.costEstimate * 100).toBe(true);
  });
});

describe('cost limits at compile time', () => {
  it('rejects a rule whose estimate exceeds the per-expression limit', () => {
    const r = compileRule('self.nested.all(row, row.all(x, self.big.exists(s, s.contains(string(x)))))', { vars: { self: schema } });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors[0].kind).toBe('cost');
      expect(r.errors[0].message).toMatch(
        /^estimated rule cost exceeds budget by factor of (more than 100|[0-9.]+)x \(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared\)$/,
      );
    }
  });

  it('accepts the same rule shape when sizes are bounded', () => {
    expect(compileRule('self.small.all(x, x.contains("a"))', { vars: { self: schema } }).ok).toBe(true);
  });

  it('honours a custom limit', () => {
    expect(compileRule('self.small.all(x, x.contains("a"))', { vars: { self: schema }, costLimit: 5 }).ok).toBe(false);
    expect(PER_EXPRESSION_ESTIMATE_LIMIT).toBe(10_000_000);
  });

  it('formats the per-CRD total message', () => {
    expect(totalTooHighMessage(150_000_000)).toContain('exceeds budget by factor of 1.5x');
  });
});

describe('runtime budget', () => {
  const rule = compileRule('self.big.all(x, x.size() < 100)', { vars: { self: schema } });
  const big = Array.from({ length: 5000 }, (_, i) => `item-${i}`);

  it('stops evaluation with an error when the budget is exceeded', () => {
    expect(rule.ok).toBe(true);
    if (!rule.ok) return;
    const r = rule.program.evaluate({ self: { big } }, { budget: 1000 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.costExceeded).toBe(true);
      expect(r.error).toBe('operation cancelled: actual cost limit exceeded');
      expect(r.cost).toBeGreaterThan(1000);
      expect(r.cost).toBeLessThan(1100);
    }
  });

  it('completes within a sufficient budget and reports the actual cost', () => {
    if (!rule.ok) return;
    const r = rule.program.evaluate({ self: { big } }, { budget: 1_000_000 });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value).toBe(true);
      expect(r.cost).toBeGreaterThanOrEqual(5000 * 2);
    }
  });

  it('charges size-dependent work', () => {
    const c = compileRule("self.long.contains('zz')", { vars: { self: schema } });
    if (!c.ok) throw new Error('compile');
    const small = c.program.evaluate({ self: { long: 'a' } });
    const large = c.program.evaluate({ self: { long: 'a'.repeat(10000) } });
    expect(large.cost).toBeGreaterThan(small.cost + 900);
  });
});
