// Public API of the CEL module: compile a rule against schema-typed
// variables (type check + cost estimate + cache) and evaluate it with a
// runtime cost budget. CRD validation rules (ruleValidator: the
// x-kubernetes-validations evaluator), admission policies and
// authorization conditions build on these calls.
export { compileRule, parseTypeName, type CompileOptions, type CompileResult, type CompileError, type Program, type EvalOptions, type EvalResult, type VarDecl } from './compile.ts';
export { schemaToType, typeName, type JSONSchema, type CelT, type RefResolver } from './schema/types.ts';
export { escapeName, unescapeName } from './schema/escape.ts';
export { celToJSON } from './values/convert.ts';
export { LazyMap } from './values/lazy-map.ts';
export { celError } from '@bufbuild/cel';
export { evaluateConditions, type ConditionsOutcome } from './conditions.ts';
export { ruleValidator, type RuleValidator, type ValidateOptions } from './rules/index.ts';
export { AuthorizerValue, type Authorizer, type AuthorizationAttributes, type AuthorizationDecision } from './libs/authorizer.ts';
export { QuantityValue } from './libs/quantity-parse.ts';
export {
  PER_EXPRESSION_ESTIMATE_LIMIT,
  PER_CRD_ESTIMATE_LIMIT,
  PER_CALL_RUNTIME_LIMIT,
  RUNTIME_BUDGET_PER_OBJECT,
  estimateTooHighMessage,
  totalTooHighMessage,
  RUNTIME_BUDGET_EXCEEDED,
  PER_CALL_EXCEEDED,
} from './limits.ts';

import { AuthorizerValue, ResourceCheck, type Authorizer } from './libs/authorizer.ts';
/** The value to bind to an `authorizer` variable (declared `{ celType: 'kubernetes.authorization.Authorizer' }`). */
export function authorizerFor(authz: Authorizer, user: { name: string; groups?: string[] }): AuthorizerValue {
  return new AuthorizerValue(authz, user);
}

/** The value to bind to `authorizer.requestResource` (declared `{ celType: 'kubernetes.authorization.ResourceCheck' }`): a check of the request's own resource. */
export function requestResourceCheck(authorizer: AuthorizerValue, r: { group: string; resource: string; subresource: string; namespace: string; name: string }): ResourceCheck {
  return new ResourceCheck(authorizer, { group: r.group, resource: r.resource, subresource: r.subresource, namespace: r.namespace, name: r.name }, 'resource');
}
