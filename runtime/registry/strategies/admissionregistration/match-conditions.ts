// The write-time check of an admission webhook's matchConditions
// (upstream's validateMatchConditions), the same as a policy's: the rule
// itself lives in runtime/cel/admission/compile.ts (at most 64, names
// qualified and unique, expressions compiling to a bool over the admission
// variables). The CEL module is large: loadMatchConditionsCompiler() loads
// it, and the strategy awaits that before a write.

import type { FieldError } from '../../../api/field-errors.ts';
import type { MatchCondition } from '../../../cel/admission/compile.ts';

let compiler: typeof import('../../../cel/admission/compile.ts') | undefined;

export async function loadMatchConditionsCompiler(): Promise<void> {
  compiler ??= await import('../../../cel/admission/compile.ts');
}

/** The field errors of a webhook's matchConditions at `path` (nothing for a value that is not a list: the schema reports it). */
export function matchConditionErrors(list: unknown, path: string): FieldError[] {
  if (!Array.isArray(list)) return [];
  if (!compiler) throw new Error('matchConditions: the CEL compiler is not loaded (loadMatchConditionsCompiler)');
  return compiler.compileMatchConditions(list as MatchCondition[], path).errors;
}
