// matchConditions of a webhook authorizer: up to 64 CEL expressions over
// `request`, the v1 SubjectAccessReviewSpec the webhook would be sent,
// compiled with our CEL module (runtime/cel/) and checked as upstream's
// validation does (field paths and texts). Evaluated as upstream's
// CELMatcher: any false → the webhook is skipped (no opinion); otherwise any
// error → the failure policy; all true → the webhook is asked.
// The CEL module is large and only configurations with matchConditions need
// it: it is loaded by loadMatchConditionCompiler(), which whoever parses an
// authorization configuration awaits first, not at start-up.

import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import type { JSONSchema, Program, VarDecl } from '../../cel/index.ts';
import { evaluateConditions } from '../../cel/conditions.ts';
import type { SarSpec } from './subject-access-review.ts';

let cel: typeof import('../../cel/compile.ts') | undefined;

/** Loads the CEL compiler that compileMatchConditions uses. */
export async function loadMatchConditionCompiler(): Promise<void> {
  cel ??= await import('../../cel/compile.ts');
}

export const MAX_MATCH_CONDITIONS = 64;

const str: JSONSchema = { type: 'string' };
const strings: JSONSchema = { type: 'array', items: str };

/** `request`: authorization.k8s.io/v1 SubjectAccessReviewSpec, a native type as upstream declares it (so `namespace` is not escaped). */
const REQUEST: VarDecl = {
  nativeType: {
    type: 'object',
    properties: {
      resourceAttributes: {
        type: 'object',
        properties: { namespace: str, verb: str, group: str, version: str, resource: str, subresource: str, name: str },
      },
      nonResourceAttributes: { type: 'object', properties: { path: str, verb: str } },
      user: str,
      groups: strings,
      extra: { type: 'object', additionalProperties: strings },
      uid: str,
    },
  },
};

export type MatchResult = { matches: boolean; error?: undefined } | { matches: false; error: string };

export interface Matcher {
  match(request: SarSpec): MatchResult;
}

/** Compiles the conditions; `field` is the path of the matchConditions list (errors name `<field>[i].expression`). */
export function compileMatchConditions(expressions: string[], field: string): { matcher?: Matcher; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (expressions.length > MAX_MATCH_CONDITIONS) return { errors: [fieldErrors.tooMany(field, expressions.length, MAX_MATCH_CONDITIONS)] };
  if (expressions.length && !cel) throw new Error('matchConditions: the CEL compiler is not loaded (loadMatchConditionCompiler)');
  const seen = new Set<string>();
  const programs: Program[] = [];
  expressions.forEach((expr, i) => {
    const path = `${field}[${i}].expression`;
    if (expr.trim() === '') {
      errors.push(fieldErrors.required(path));
      return;
    }
    if (seen.has(expr)) {
      errors.push(fieldErrors.duplicate(path, expr));
      return;
    }
    seen.add(expr);
    const r = cel!.compileRule(expr, { vars: { request: REQUEST }, resultType: 'bool' });
    if (!r.ok) errors.push(fieldErrors.invalid(path, expr, r.errors.map((e) => e.message).join('; ')));
    else programs.push(r.program);
  });
  if (!programs.length || errors.length) return { errors };
  return { matcher: celMatcher(programs), errors };
}

function celMatcher(programs: Program[]): Matcher {
  return {
    match(request) {
      const out = evaluateConditions(programs, { request });
      if (out.kind === 'false') return { matches: false };
      if (out.kind === 'budget') return { matches: false, error: out.error };
      const errs = out.errors.map((e) => `cel evaluation error: expression '${programs[e.index].expression}' resulted in error: ${e.error}`);
      if (errs.length) return { matches: false, error: errs.length === 1 ? errs[0] : `[${errs.join(', ')}]` };
      return { matches: true };
    },
  };
}
