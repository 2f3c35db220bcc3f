// matchConditions of webhooks and admission policies (at most 64 named CEL
// conditions over `object`, `oldObject`, `request`, `authorizer`, and
// `params` for policies with a paramKind), checked on write as upstream's
// validateMatchConditions and evaluated as its matchconditions matcher:
// any false → no match (the condition's name is told); otherwise errors go
// to the failure policy: Fail → the request fails, Ignore → no match; all
// true → match. The list shares upstream's cost budget for match
// conditions.

import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { qualifiedNameErrors } from '../../api/validation.ts';
import type { Program } from '../../cel/index.ts';
import { evaluateConditions } from '../../cel/conditions.ts';
import { compileExpression, type ExpressionEnv } from './cel.ts';

export const MAX_MATCH_CONDITIONS = 64;
/** Upstream's runtime cost budget of one object's match conditions (RuntimeCELCostBudgetMatchConditions). */
export const MATCH_CONDITIONS_BUDGET = 2_500_000;

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

export type FailurePolicy = 'Fail' | 'Ignore';

export type ConditionsResult =
  | { matches: true }
  /** A condition was false (its name), or errors were ignored by the failure policy. */
  | { matches: false; failedCondition?: string }
  /** Errors under failurePolicy Fail: the request fails with this text. */
  | { matches: false; error: string };

/** Evaluates the conditions with the request's variables (see activation()). */
export function evaluateMatchConditions(c: CompiledConditions | undefined, act: Record<string, unknown>, failurePolicy: FailurePolicy | undefined): ConditionsResult {
  if (!c || c.programs.length === 0) return { matches: true };
  const out = evaluateConditions(c.programs, act, MATCH_CONDITIONS_BUDGET);
  if (out.kind === 'false') return { matches: false, failedCondition: c.names[out.index] };
  let error: string | undefined;
  if (out.kind === 'budget') error = out.error;
  else if (out.errors.length) {
    const msgs = out.errors.map((e) => `expression '${c.programs[e.index].expression}' resulted in error: ${e.error}`);
    error = msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
  }
  if (error === undefined) return { matches: true };
  return failurePolicy === 'Ignore' ? { matches: false } : { matches: false, error };
}
