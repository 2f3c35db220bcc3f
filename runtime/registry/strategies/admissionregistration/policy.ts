// ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding
// (admissionregistration.k8s.io/v1): upstream's defaults (failurePolicy
// Fail, the match resources'; a paramRef's parameterNotFoundAction has
// none in v1 and is required) and
// ValidateValidatingAdmissionPolicy / ...Binding with their texts: required
// fields, paramKind, matchConstraints with at least one resource rule,
// matchConditions, variables, validations (expression, message,
// messageExpression, reason), auditAnnotations, and the binding's policy
// name, paramRef and validationActions. Expressions are compiled with the
// admission CEL environment (runtime/cel/admission/), loaded by load().

import type { ResourceDef } from '../../../../generated/api-types.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { labelSelectorErrors } from '../../../api/label-selector.ts';
import { qualifiedNameErrors, validateDNS1035Label, validateDNS1123Subdomain, validatePathSegment } from '../../../api/validation.ts';
import type { ExpressionEnv, VariableType } from '../../../cel/admission/env.ts';
import { CEL_RESERVED } from '../../../cel/schema/escape.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { Strategy } from '../../strategy.ts';
import { defaultMatchResources, goTypedSlice, matchResourcesErrors } from './rules.ts';

let compiler: typeof import('../../../cel/admission/compile.ts') | undefined;
async function loadCompiler(): Promise<void> {
  compiler ??= await import('../../../cel/admission/compile.ts');
}

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const ACTIONS = ['Audit', 'Deny', 'Warn'];
const NOT_FOUND_ACTIONS = ['Allow', 'Deny'];
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION = 5 * 1024;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? x : {})) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function isCelIdentifier(name: string): boolean {
  return /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) && !CEL_RESERVED.has(name);
}

/** SetDefaults_ValidatingAdmissionPolicySpec with the match resources' defaults. */
function defaultPolicy(obj: Obj): void {
  const spec = obj.spec;
  if (!spec || typeof spec !== 'object') return;
  spec.failurePolicy ??= 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

function defaultBinding(obj: Obj): void {
  const spec = obj.spec;
  if (!spec || typeof spec !== 'object') return;
  defaultMatchResources(spec.matchResources);
  // v1 has no default for paramRef.parameterNotFoundAction (only v1alpha1 defaults it to Deny): it is required
}

function paramKindErrors(pk: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(pk.apiVersion);
  if (!apiVersion) errs.push(fieldErrors.required(`${field}.apiVersion`));
  else {
    const parts = apiVersion.split('/');
    if (parts.length > 2) errs.push(fieldErrors.invalid(`${field}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    else {
      const [group, version] = parts.length === 2 ? parts : ['', parts[0]];
      if (group) {
        const e = validateDNS1123Subdomain(group);
        if (e.length) errs.push(fieldErrors.invalid(`${field}.apiVersion`, group, e.join(',')));
      }
      if (!version) errs.push(fieldErrors.invalid(`${field}.apiVersion`, apiVersion, 'version must be specified'));
      else {
        const e = validateDNS1035Label(version);
        if (e.length) errs.push(fieldErrors.invalid(`${field}.apiVersion`, version, e.join(',')));
      }
    }
  }
  const kind = str(pk.kind);
  if (!kind) errs.push(fieldErrors.required(`${field}.kind`));
  else {
    const e = validateDNS1035Label(kind.toLowerCase());
    if (e.length) errs.push(fieldErrors.invalid(`${field}.kind`, kind, `may have mixed case, but should otherwise match: ${e.join(',')}`));
  }
  return errs;
}

function compile(expr: string, field: string, env: ExpressionEnv, returns: 'bool' | 'string' | 'string?' | 'any', typeOut?: (t: string) => void): FieldError[] {
  if (!compiler) throw new Error('the admission CEL compiler is not loaded (the strategy load())');
  const r = compiler.compileExpression(expr, field, env, returns);
  if (r.program) typeOut?.(r.program.resultType);
  return r.error ? [r.error] : [];
}

function validationErrors(v: Obj, field: string, env: ExpressionEnv): FieldError[] {
  const errs: FieldError[] = [];
  const expression = str(v.expression);
  const message = str(v.message);
  const messageExpression = str(v.messageExpression);
  if (!expression.trim()) errs.push(fieldErrors.required(`${field}.expression`, 'expression is not specified'));
  else errs.push(...compile(expression, `${field}.expression`, env, 'bool'));
  if (messageExpression.length > 0 && !messageExpression.trim()) errs.push(fieldErrors.invalid(`${field}.messageExpression`, messageExpression, 'must be non-empty if specified'));
  else if (messageExpression.trim()) errs.push(...compile(messageExpression, `${field}.messageExpression`, env, 'string'));
  if (message.length > 0 && !message.trim()) errs.push(fieldErrors.invalid(`${field}.message`, message, 'message must be non-empty if specified'));
  else if (/[\n\r]/.test(message.trim())) errs.push(fieldErrors.invalid(`${field}.message`, message, 'message must not contain line breaks'));
  if (v.reason != null && !REASONS.includes(v.reason)) errs.push(fieldErrors.notSupported(`${field}.reason`, v.reason, REASONS));
  return errs;
}

/** A variable's errors; `typeOut` is told the type its expression compiled to. */
function variableErrors(v: Obj, field: string, env: ExpressionEnv, typeOut: (t: string) => void): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(v.name);
  if (!name.trim()) errs.push(fieldErrors.required(`${field}.name`, 'name is not specified'));
  else if (!isCelIdentifier(name)) errs.push(fieldErrors.invalid(`${field}.name`, name, 'name is not a valid CEL identifier'));
  const expression = str(v.expression);
  if (!expression.trim()) errs.push(fieldErrors.required(`${field}.expression`, 'expression is not specified'));
  else errs.push(...compile(expression, `${field}.expression`, env, 'any', typeOut));
  return errs;
}

function auditAnnotationErrors(policyName: string, a: Obj, field: string, env: ExpressionEnv): FieldError[] {
  const errs: FieldError[] = [];
  const key = str(a.key);
  if (policyName) errs.push(...qualifiedNameErrors(`${policyName}/${key}`).map((m) => fieldErrors.invalid(`${field}.key`, `${policyName}/${key}`, m)));
  else errs.push(fieldErrors.invalid(`${field}.key`, key, 'requires metadata.name be non-empty'));
  const value = str(a.valueExpression).trim();
  if (!value) errs.push(fieldErrors.required(`${field}.valueExpression`, 'valueExpression is not specified'));
  else if (value.length > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION) errs.push(fieldErrors.tooLong(`${field}.valueExpression`, MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION));
  else errs.push(...compile(value, `${field}.valueExpression`, env, 'string?'));
  return errs;
}

/** ValidateValidatingAdmissionPolicy's spec rules. */
export function policyErrors(obj: Obj): FieldError[] {
  const spec: Obj = obj.spec && typeof obj.spec === 'object' ? obj.spec : {};
  const errs: FieldError[] = [];
  if (spec.failurePolicy == null) errs.push(fieldErrors.required('spec.failurePolicy'));
  else if (!FAILURE_POLICIES.includes(spec.failurePolicy)) errs.push(fieldErrors.notSupported('spec.failurePolicy', spec.failurePolicy, FAILURE_POLICIES));
  const params = spec.paramKind != null;
  if (params) errs.push(...paramKindErrors(spec.paramKind, 'spec.paramKind'));
  if (spec.matchConstraints == null) errs.push(fieldErrors.required('spec.matchConstraints'));
  else {
    errs.push(...matchResourcesErrors(spec.matchConstraints, 'spec.matchConstraints'));
    if (list(spec.matchConstraints.resourceRules).length === 0) errs.push(fieldErrors.required('spec.matchConstraints.resourceRules'));
  }
  if (!compiler) throw new Error('the admission CEL compiler is not loaded (the strategy load())');
  errs.push(...compiler.compileMatchConditions(spec.matchConditions, 'spec.matchConditions', { params }).errors);
  // each variable sees the ones before it, typed as they compiled (one that did not: dyn), as upstream's composition
  const variableTypes: VariableType[] = [];
  list(spec.variables).forEach((v, i) => {
    let type = 'dyn';
    errs.push(...variableErrors(v, `spec.variables[${i}]`, { params, variables: true, variableTypes: [...variableTypes] }, (t) => (type = t)));
    variableTypes.push({ name: str(v.name), type });
  });
  const env: ExpressionEnv = { params, variables: true, variableTypes };
  const validations = list(spec.validations);
  const audits = list(spec.auditAnnotations);
  if (validations.length === 0 && audits.length === 0) {
    errs.push(fieldErrors.required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
    errs.push(fieldErrors.required('spec.auditAnnotations', 'validations or auditAnnotations must contain at least one item'));
  } else {
    validations.forEach((v, i) => errs.push(...validationErrors(v, `spec.validations[${i}]`, env)));
    const keys = new Set<string>();
    const name = str(obj.metadata?.name);
    audits.forEach((a, i) => {
      errs.push(...auditAnnotationErrors(name, a, `spec.auditAnnotations[${i}]`, env));
      const key = str(a.key);
      if (keys.has(key)) errs.push(fieldErrors.duplicate(`spec.auditAnnotations[${i}].key`, key));
      keys.add(key);
    });
  }
  return errs;
}

function paramRefErrors(pr: Obj | undefined, field: string): FieldError[] {
  if (!pr || typeof pr !== 'object') return [];
  const errs: FieldError[] = [];
  const name = str(pr.name);
  if (name) {
    for (const m of validatePathSegment(name)) errs.push(fieldErrors.invalid(`${field}.name`, name, m));
    if (pr.selector != null) errs.push(fieldErrors.forbidden(`${field}.name`, 'name and selector are mutually exclusive'));
  }
  if (pr.selector != null) {
    errs.push(...labelSelectorErrors(`${field}.selector`, pr.selector));
    if (name) errs.push(fieldErrors.forbidden(`${field}.selector`, 'name and selector are mutually exclusive'));
  }
  if (!name && pr.selector == null) errs.push(fieldErrors.required(field, 'one of name or selector must be specified'));
  const action = pr.parameterNotFoundAction;
  if (action == null || action === '') errs.push(fieldErrors.required(`${field}.parameterNotFoundAction`));
  else if (!NOT_FOUND_ACTIONS.includes(action)) errs.push(fieldErrors.notSupported(`${field}.parameterNotFoundAction`, action, NOT_FOUND_ACTIONS));
  return errs;
}

function validationActionsErrors(actions: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const va = Array.isArray(actions) ? actions : [];
  const seen = new Set<string>();
  va.forEach((a, i) => {
    if (!ACTIONS.includes(a)) errs.push(fieldErrors.notSupported(`${field}[${i}]`, a, ACTIONS));
    if (seen.has(a)) errs.push(fieldErrors.duplicate(`${field}[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(
      fieldErrors.invalid(
        field,
        goTypedSlice('ValidationAction', va),
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  }
  if (seen.size === 0) errs.push(fieldErrors.required(field, 'at least one validation action is required'));
  return errs;
}

/** ValidateValidatingAdmissionPolicyBinding's spec rules (upstream names the match resources' field `spec.matchResouces`). */
export function bindingErrors(obj: Obj): FieldError[] {
  const spec: Obj = obj.spec && typeof obj.spec === 'object' ? obj.spec : {};
  const errs: FieldError[] = [];
  const policyName = str(spec.policyName);
  if (!policyName) errs.push(fieldErrors.required('spec.policyName'));
  else for (const m of validateDNS1123Subdomain(policyName)) errs.push(fieldErrors.invalid('spec.policyName', policyName, m));
  errs.push(...paramRefErrors(spec.paramRef, 'spec.paramRef'));
  errs.push(...matchResourcesErrors(spec.matchResources, 'spec.matchResouces'));
  errs.push(...validationActionsErrors(spec.validationActions, 'spec.validationActions'));
  return errs;
}

/** The schema's required fields policyErrors reports itself, with upstream's texts. */
export const POLICY_REQUIRED: ReadonlySet<string> = new Set([
  'spec.validations[*].expression',
  'spec.variables[*].name',
  'spec.variables[*].expression',
  'spec.auditAnnotations[*].key',
  'spec.auditAnnotations[*].valueExpression',
  'spec.matchConditions[*].name',
  'spec.matchConditions[*].expression',
]);

export function validatingAdmissionPolicyStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    reportsRequired: POLICY_REQUIRED,
    load: async () => {
      await base.load?.();
      await loadCompiler();
    },
    defaults(obj) {
      base.defaults?.(obj);
      defaultPolicy(obj);
    },
    validate: (obj) => [...base.validate(obj), ...policyErrors(obj)],
    validateUpdate: (obj, old) => [...base.validateUpdate(obj, old), ...policyErrors(obj)],
  };
}

export function validatingAdmissionPolicyBindingStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      defaultBinding(obj);
    },
    validate: (obj) => [...base.validate(obj), ...bindingErrors(obj)],
    validateUpdate: (obj, old) => [...base.validateUpdate(obj, old), ...bindingErrors(obj)],
  };
}
