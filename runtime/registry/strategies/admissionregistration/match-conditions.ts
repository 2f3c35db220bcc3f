// The compile check of an admission webhook's matchConditions at write
// time (upstream's validateMatchConditions): at most 64, each named with a
// qualified name unique in the list, each expression non-empty and
// compiling to a bool over `object`, `oldObject` (dynamic), `request` (the
// AdmissionRequest, typed) and `authorizer`. The CEL module is large:
// loadMatchConditionsCompiler() loads it, and the strategy awaits that
// before a write.

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { qualifiedNameErrors } from '../../../api/validation.ts';
import type { JSONSchema, VarDecl } from '../../../cel/index.ts';

let cel: typeof import('../../../cel/compile.ts') | undefined;

export async function loadMatchConditionsCompiler(): Promise<void> {
  cel ??= await import('../../../cel/compile.ts');
}

export const MAX_MATCH_CONDITIONS = 64;

const str: JSONSchema = { type: 'string' };
const strings: JSONSchema = { type: 'array', items: str };
const gvk: JSONSchema = { type: 'object', properties: { group: str, version: str, kind: str } };
const gvr: JSONSchema = { type: 'object', properties: { group: str, version: str, resource: str } };

/** `request`: admission.k8s.io/v1 AdmissionRequest as upstream declares it for CEL (a native type: no name escaping). */
export const ADMISSION_REQUEST_DECL: VarDecl = {
  nativeType: {
    type: 'object',
    properties: {
      uid: str,
      kind: gvk,
      resource: gvr,
      subResource: str,
      requestKind: gvk,
      requestResource: gvr,
      requestSubResource: str,
      name: str,
      namespace: str,
      operation: str,
      userInfo: { type: 'object', properties: { username: str, uid: str, groups: strings, extra: { type: 'object', additionalProperties: strings } } },
      dryRun: { type: 'boolean' },
    },
  },
};

/** The variables a webhook's match condition may use. */
export const MATCH_CONDITION_VARS: Record<string, VarDecl> = {
  object: { celType: 'dyn' },
  oldObject: { celType: 'dyn' },
  request: ADMISSION_REQUEST_DECL,
  authorizer: { celType: 'kubernetes.authorization.Authorizer' },
};

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function matchConditionErrors(list: unknown, path: string): FieldError[] {
  if (!Array.isArray(list)) return [];
  const errs: FieldError[] = [];
  if (list.length > MAX_MATCH_CONDITIONS) errs.push(fieldErrors.tooMany(path, list.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  list.forEach((mc: unknown, i) => {
    const m = isObj(mc) ? mc : {};
    const expr = typeof m.expression === 'string' ? m.expression : '';
    const name = typeof m.name === 'string' ? m.name : '';
    if (expr.trim() === '') errs.push(fieldErrors.required(`${path}[${i}].expression`));
    else {
      if (!cel) throw new Error('matchConditions: the CEL compiler is not loaded (loadMatchConditionsCompiler)');
      const r = cel.compileRule(expr.trim(), { vars: MATCH_CONDITION_VARS, resultType: 'bool' });
      if (!r.ok) errs.push(fieldErrors.invalid(`${path}[${i}].expression`, expr.trim(), r.errors.map((e) => e.message).join('; ')));
    }
    if (name === '') errs.push(fieldErrors.required(`${path}[${i}].name`));
    else for (const msg of qualifiedNameErrors(name)) errs.push(fieldErrors.invalid(`${path}[${i}].name`, name, msg));
    if (name !== '') {
      if (names.has(name)) errs.push(fieldErrors.duplicate(`${path}[${i}].name`, name));
      names.add(name);
    }
  });
  return errs;
}
