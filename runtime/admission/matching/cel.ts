// CEL for admission: the variables every admission expression sees
// (`object`, `oldObject`, `request`, `namespaceObject`, `authorizer`,
// `authorizer.requestResource`, and for policies `params` and
// `variables`), how one expression is compiled and checked as upstream's
// admission validation reports it, and the activation of one request. The
// CEL module is large and only configurations with expressions need it:
// loadAdmissionCel() is awaited (by the strategies' load and the watchers)
// before anything here compiles.

import type { FieldError } from '../../api/field-errors.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import type { Program, VarDecl } from '../../cel/index.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { celAuthorizer } from './authorizer.ts';
import { REQUEST_VAR, type AdmissionRequest } from './request.ts';

let cel: typeof import('../../cel/index.ts') | undefined;

/** Loads the CEL module the compile functions here use. */
export async function loadAdmissionCel(): Promise<void> {
  cel ??= await import('../../cel/index.ts');
}

export function admissionCel(): typeof import('../../cel/index.ts') {
  if (!cel) throw new Error('admission CEL is not loaded (await loadAdmissionCel() first)');
  return cel;
}

/** Which optional variables an expression may use: `params` (a policy with paramKind), `variables` (a policy's). */
export interface ExpressionEnv {
  params?: boolean;
  variables?: boolean;
}

const DYN: VarDecl = { celType: 'dyn' };
const BASE: Record<string, VarDecl> = {
  object: DYN,
  oldObject: DYN,
  request: REQUEST_VAR,
  namespaceObject: DYN,
  authorizer: { celType: 'kubernetes.authorization.Authorizer' },
  'authorizer.requestResource': { celType: 'kubernetes.authorization.ResourceCheck' },
};
const VARIABLES: VarDecl = { celType: 'map(string, dyn)' };
// one object per combination, so the compile cache keys stay cheap
const ENVS = new Map<string, Record<string, VarDecl>>();

export function expressionVars(env: ExpressionEnv = {}): Record<string, VarDecl> {
  const key = `${env.params ? 'p' : ''}${env.variables ? 'v' : ''}`;
  let vars = ENVS.get(key);
  if (!vars) {
    vars = { ...BASE };
    if (env.params) vars.params = DYN;
    if (env.variables) vars.variables = VARIABLES;
    ENVS.set(key, vars);
  }
  return vars;
}

/** The result types an expression may have. */
export type ReturnType = 'bool' | 'string' | 'any';

/**
 * Compiles one expression; a failure is the field error upstream's
 * validation reports at `field` (Invalid with the compiler's text, or
 * `must evaluate to bool`).
 */
export function compileExpression(expression: string, field: string, env: ExpressionEnv, returns: ReturnType): { program?: Program; error?: FieldError } {
  const r = admissionCel().compileRule(expression, { vars: expressionVars(env), resultType: 'any' });
  if (!r.ok) return { error: fieldErrors.invalid(field, expression, r.errors.map((e) => e.message).join('\n')) };
  const t = r.program.resultType;
  if (returns !== 'any' && t !== returns && t !== 'dyn') return { error: fieldErrors.invalid(field, expression, `must evaluate to ${returns}`) };
  return { program: r.program };
}

/** What one request's expressions are evaluated with. */
export interface ActivationInput {
  attrs: AdmissionAttributes;
  request: AdmissionRequest;
  /** The server's authorizer (absent: `authorizer` is not bound). */
  authorizer?: Authorizer;
  namespaceObject?: Obj | null;
  params?: unknown;
  variables?: Record<string, unknown>;
}

/** The variables' values for one request. */
export function activation(input: ActivationInput): Record<string, unknown> {
  const { attrs, request } = input;
  const act: Record<string, unknown> = {
    object: attrs.object ?? null,
    oldObject: attrs.oldObject ?? null,
    request,
    namespaceObject: input.namespaceObject ?? null,
  };
  if (input.authorizer) {
    const c = admissionCel();
    const a = c.authorizerFor(celAuthorizer(input.authorizer, attrs.user), attrs.user);
    act.authorizer = a;
    act['authorizer.requestResource'] = c.requestResourceCheck(a, {
      group: request.resource.group,
      resource: request.resource.resource,
      subresource: request.subResource ?? '',
      namespace: request.namespace ?? '',
      name: request.name ?? '',
    });
  }
  if ('params' in input) act.params = input.params ?? null;
  if (input.variables) act.variables = input.variables;
  return act;
}
