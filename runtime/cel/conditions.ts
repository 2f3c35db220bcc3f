// A list of boolean CEL conditions evaluated as upstream's condition
// matchers do (authorization webhooks' and admission's matchConditions):
// in order, the first false decides (no match) whatever errors came before
// (a result that is not a bool counts as false);
// otherwise errors are collected for the caller's failure policy. Each
// expression has the per-call limit; a total budget, when given, is shared
// by the list and running out of it stops the evaluation.

import type { Program } from './compile.ts';
import { PER_CALL_RUNTIME_LIMIT, RUNTIME_BUDGET_EXCEEDED } from './limits.ts';

export type ConditionsOutcome =
  /** Condition `index` evaluated to false. */
  | { kind: 'false'; index: number }
  /** No condition was false; `errors` are the ones that failed to evaluate (or did not give a bool). */
  | { kind: 'true'; errors: { index: number; error: string }[] }
  /** The shared budget ran out (RUNTIME_BUDGET_EXCEEDED). */
  | { kind: 'budget'; error: string };

export function evaluateConditions(programs: readonly Program[], activation: Record<string, unknown>, budget = Infinity): ConditionsOutcome {
  const errors: { index: number; error: string }[] = [];
  let remaining = budget;
  for (let i = 0; i < programs.length; i++) {
    const r = programs[i].evaluate(activation, { budget: PER_CALL_RUNTIME_LIMIT });
    remaining -= r.cost;
    if (remaining < 0) return { kind: 'budget', error: RUNTIME_BUDGET_EXCEEDED };
    if (!r.ok) errors.push({ index: i, error: r.error });
    else if (r.json !== true) return { kind: 'false', index: i };
  }
  return { kind: 'true', errors };
}
