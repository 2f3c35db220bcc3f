// Compiling admission expressions as upstream's admission validation reports
// them: one expression (an Invalid field error with the compiler's text, or
// `must evaluate to <type>`), and a matchConditions list (at most 64, names
// required, qualified and unique, expressions required). Loaded lazily by
// the strategies and the admission plugins (the CEL module is large).

import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { qualifiedNameErrors } from '../../api/validation.ts';
import { compileRule, type Program, type VarDecl } from '../compile.ts';
import type { RefResolver } from '../schema/types.ts';
import { expressionVars, MAX_MATCH_CONDITIONS, type ExpressionEnv } from './env.ts';

/** The result types an expression may have (`string?`: a string or null, audit annotations' values). */
export type ReturnType = 'bool' | 'string' | 'string?' | 'any';

/**
 * Compiles one expression; a failure is the field error upstream's
 * validation reports at `field`. `typed` overrides the declarations (the
 * type checker's typed `object`): a failure is then the compiler's messages.
 */
export function compileExpression(
  expression: string,
  field: string,
  env: ExpressionEnv,
  returns: ReturnType,
  typed?: { vars: Record<string, VarDecl>; resolveRef?: RefResolver },
): { program?: Program; error?: FieldError; messages?: string[] } {
  const r = compileRule(expression, { vars: typed?.vars ?? expressionVars(env), resolveRef: typed?.resolveRef, resultType: 'any' });
  if (!r.ok && typed) return { messages: r.errors.map((e) => e.message) };
  if (!r.ok) return { error: fieldErrors.invalid(field, expression, r.errors.map((e) => e.message).join('\n')) };
  // as upstream, the checked type itself must be the one asked for: a dynamic result does not do
  const t = r.program.resultType;
  if (returns === 'string?' && t !== 'string' && t !== 'null_type') return { error: fieldErrors.invalid(field, expression, 'must evaluate to one of [string null_type]') };
  if ((returns === 'bool' || returns === 'string') && t !== returns) return { error: fieldErrors.invalid(field, expression, `must evaluate to ${returns}`) };
  return { program: r.program };
}

export interface MatchCondition {
  name?: string;
  expression?: string;
}

export interface CompiledConditions {
  readonly names: string[];
  readonly programs: Program[];
}

/** Checks and compiles the list at `field` (e.g. `spec.matchConditions`); conditions is set only when there are no errors. */
export function compileMatchConditions(list: MatchCondition[] | undefined, field: string, env: ExpressionEnv = {}): { conditions?: CompiledConditions; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const items = list ?? [];
  if (items.length > MAX_MATCH_CONDITIONS) errors.push(fieldErrors.tooMany(field, items.length, MAX_MATCH_CONDITIONS));
  const names: string[] = [];
  const programs: Program[] = [];
  const seen = new Set<string>();
  items.forEach((c, i) => {
    const at = `${field}[${i}]`;
    const expr = typeof c?.expression === 'string' ? c.expression.trim() : '';
    if (!expr) errors.push(fieldErrors.required(`${at}.expression`));
    else {
      const r = compileExpression(expr, `${at}.expression`, env, 'bool');
      if (r.error) errors.push(r.error);
      else programs.push(r.program!);
    }
    const name = typeof c?.name === 'string' ? c.name : '';
    if (!name) errors.push(fieldErrors.required(`${at}.name`));
    else for (const m of qualifiedNameErrors(name)) errors.push(fieldErrors.invalid(`${at}.name`, name, m));
    if (name) {
      if (seen.has(name)) errors.push(fieldErrors.duplicate(`${at}.name`, name));
      else seen.add(name);
    }
    names.push(name);
  });
  if (errors.length) return { errors };
  return { conditions: { names, programs }, errors };
}
