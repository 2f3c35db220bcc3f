// Test helper: compile an expression (any result type) against schema-typed
// variables and evaluate it, returning the JSON result or throwing the
// compile / evaluation error. Used only by the *.test.ts files.
import { compileRule, type VarDecl } from '../compile.ts';

export function run(expr: string, vars: Record<string, VarDecl> = {}, activation: Record<string, unknown> = {}): unknown {
  const c = compileRule(expr, { vars, resultType: 'any' });
  if (!c.ok) throw new Error(c.errors.map((e) => e.message).join('; '));
  const r = c.program.evaluate(activation);
  if (!r.ok) throw new Error(r.error);
  return r.json;
}

export function compileErrors(expr: string, vars: Record<string, VarDecl> = {}): string[] {
  const c = compileRule(expr, { vars, resultType: 'any' });
  return c.ok ? [] : c.errors.map((e) => e.message);
}
