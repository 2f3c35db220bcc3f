// matchConditions of webhooks and admission policies (at most 64 named CEL
// conditions over `object`, `oldObject`, `request`, `authorizer`, and
// `params` for policies with a paramKind), checked on write as upstream's
// validateMatchConditions (runtime/cel/admission/compile.ts) and evaluated
// as its matchconditions matcher:
// any false → no match (the condition's name is told); otherwise errors go
// to the failure policy: Fail → the request fails, Ignore → no match; all
// true → match. The list shares upstream's cost budget for match
// conditions.

import type { FieldError } from '../../api/field-errors.ts';
import { evaluateConditions } from '../../cel/conditions.ts';
import type { CompiledConditions, MatchCondition } from '../../cel/admission/compile.ts';
import type { ExpressionEnv } from '../../cel/admission/env.ts';
import { admissionCompiler } from './cel.ts';

export type { MatchCondition, CompiledConditions } from '../../cel/admission/compile.ts';
/** Upstream's runtime cost budget of one object's match conditions (RuntimeCELCostBudgetMatchConditions). */
export const MATCH_CONDITIONS_BUDGET = 2_500_000;

/** Checks and compiles the list at `field` (e.g. `spec.matchConditions`); conditions is set only when there are no errors. Needs loadAdmissionCel(). */
export function compileMatchConditions(list: MatchCondition[] | undefined, field: string, env: ExpressionEnv = {}): { conditions?: CompiledConditions; errors: FieldError[] } {
  return admissionCompiler().compileMatchConditions(list, field, env);
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
