// MutatingWebhookConfiguration and ValidatingWebhookConfiguration
// (admissionregistration.k8s.io/v1): upstream's
// ValidateMutatingWebhookConfiguration / ValidateValidatingWebhookConfiguration
// with their texts. Each webhook: a fully qualified name (a DNS subdomain
// of at least three segments) unique in the configuration, rules
// (operations, apiGroups, apiVersions, resources with subresources,
// scope), failurePolicy, matchPolicy, sideEffects (required; None or
// NoneOnDryRun), timeoutSeconds 1-30, the selectors, reinvocationPolicy
// (mutating), exactly one of clientConfig url/service, matchConditions,
// admissionReviewVersions (required, including v1 or v1beta1). On update
// the checks that would refuse what is already stored are relaxed as
// upstream's (side effects, review versions, unique names, unchanged match
// conditions). Defaults (failurePolicy Fail, matchPolicy Equivalent, the
// selectors {}, timeoutSeconds 10, reinvocationPolicy Never, rule scope
// '*', service port 443) are the spec's `default`s.

import type { ResourceDef } from '../../../../generated/api-types.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { jsonEqual } from '../../../api/json-equal.ts';
import { labelSelectorErrors, type LabelSelectorObject } from '../../../api/label-selector.ts';
import { validateDNS1035Label, validateDNS1123Subdomain } from '../../../api/validation.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { Strategy } from '../../strategy.ts';
import { webhookService, webhookURL } from '../common/webhook-client-config.ts';
import { loadMatchConditionsCompiler, matchConditionErrors } from './match-conditions.ts';
import { ruleWithOperationsErrors } from './rules.ts';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strs = (v: unknown): string[] => arr(v).map((x) => (typeof x === 'string' ? x : String(x)));

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const ALL_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
/** The AdmissionReview versions this server sends. */
export const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

export interface WebhookValidationOptions {
  requireNoSideEffects: boolean;
  requireRecognizedReviewVersion: boolean;
  requireUniqueNames: boolean;
  /** Skip the matchConditions (an update that left them as they were). */
  ignoreMatchConditions: boolean;
}

const STRICT: WebhookValidationOptions = { requireNoSideEffects: true, requireRecognizedReviewVersion: true, requireUniqueNames: true, ignoreMatchConditions: false };

/** utilvalidation.IsFullyQualifiedName. */
export function fullyQualifiedNameErrors(path: string, name: string): FieldError[] {
  if (name === '') return [fieldErrors.required(path)];
  const errs = validateDNS1123Subdomain(name);
  if (errs.length) return [fieldErrors.invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [fieldErrors.invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function reviewVersionErrors(versions: unknown, requireRecognized: boolean, path: string): FieldError[] {
  const list = strs(versions);
  if (list.length === 0) return [fieldErrors.required(path, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  list.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErrors.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of validateDNS1035Label(v)) errs.push(fieldErrors.invalid(`${path}[${i}]`, v, msg));
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(fieldErrors.invalid(path, list, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

/** One webhook of a configuration (mutating: reinvocationPolicy is checked). */
export function webhookErrors(hook: Json, mutating: boolean, opts: WebhookValidationOptions, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...fullyQualifiedNameErrors(`${path}.name`, typeof hook.name === 'string' ? hook.name : ''));
  arr(hook.rules).forEach((r, i) => errs.push(...ruleWithOperationsErrors(isObj(r) ? r : {}, `${path}.rules[${i}]`)));
  if (hook.failurePolicy != null && !FAILURE_POLICIES.includes(String(hook.failurePolicy))) errs.push(fieldErrors.notSupported(`${path}.failurePolicy`, hook.failurePolicy, FAILURE_POLICIES));
  if (hook.matchPolicy != null && !MATCH_POLICIES.includes(String(hook.matchPolicy))) errs.push(fieldErrors.notSupported(`${path}.matchPolicy`, hook.matchPolicy, MATCH_POLICIES));
  const allowedSideEffects = opts.requireNoSideEffects ? NO_SIDE_EFFECTS : ALL_SIDE_EFFECTS;
  if (hook.sideEffects == null) errs.push(fieldErrors.required(`${path}.sideEffects`, `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(String(hook.sideEffects))) errs.push(fieldErrors.notSupported(`${path}.sideEffects`, hook.sideEffects, allowedSideEffects));
  const t = hook.timeoutSeconds;
  if (typeof t === 'number' && (t > 30 || t < 1)) errs.push(fieldErrors.invalid(`${path}.timeoutSeconds`, t, 'the timeout value must be between 1 and 30 seconds'));
  if (isObj(hook.namespaceSelector)) errs.push(...labelSelectorErrors(`${path}.namespaceSelector`, hook.namespaceSelector as LabelSelectorObject));
  if (isObj(hook.objectSelector)) errs.push(...labelSelectorErrors(`${path}.objectSelector`, hook.objectSelector as LabelSelectorObject));
  if (mutating && hook.reinvocationPolicy != null && !REINVOCATION_POLICIES.includes(String(hook.reinvocationPolicy)))
    errs.push(fieldErrors.notSupported(`${path}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION_POLICIES));
  const cc = isObj(hook.clientConfig) ? hook.clientConfig : {};
  const hasURL = typeof cc.url === 'string';
  const hasService = isObj(cc.service);
  if (hasURL === hasService) errs.push(fieldErrors.required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  else if (hasURL) errs.push(...webhookURL(cc.url as string, `${path}.clientConfig.url`));
  else errs.push(...webhookService(cc.service as Json, `${path}.clientConfig.service`));
  if (!opts.ignoreMatchConditions) errs.push(...matchConditionErrors(hook.matchConditions, `${path}.matchConditions`));
  return errs;
}

export function webhookConfigurationErrors(obj: Obj, mutating: boolean, opts: WebhookValidationOptions = STRICT): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  arr(obj.webhooks).forEach((h, i) => {
    const hook = isObj(h) ? h : {};
    const path = `webhooks[${i}]`;
    errs.push(...webhookErrors(hook, mutating, opts, path));
    errs.push(...reviewVersionErrors(hook.admissionReviewVersions, opts.requireRecognizedReviewVersion, `${path}.admissionReviewVersions`));
    const name = typeof hook.name === 'string' ? hook.name : '';
    if (opts.requireUniqueNames && name !== '') {
      if (names.has(name)) errs.push(fieldErrors.duplicate(`${path}.name`, name));
      else names.add(name);
    }
  });
  return errs;
}

/** The options of an update: what the stored object already breaks is not required of the new one (upstream's). */
export function updateOptions(obj: Obj, old: Obj): WebhookValidationOptions {
  const oldHooks = arr(old.webhooks).map((h) => (isObj(h) ? h : {}));
  const newHooks = arr(obj.webhooks).map((h) => (isObj(h) ? h : {}));
  const oldNames = oldHooks.map((h) => h.name);
  return {
    requireNoSideEffects: oldHooks.every((h) => NO_SIDE_EFFECTS.includes(String(h.sideEffects))),
    requireRecognizedReviewVersion: oldHooks.every((h) => strs(h.admissionReviewVersions).length === 0 || strs(h.admissionReviewVersions).some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v))),
    requireUniqueNames: new Set(oldNames).size === oldNames.length,
    ignoreMatchConditions: newHooks.length === oldHooks.length && newHooks.every((h, i) => jsonEqual(h.matchConditions ?? null, oldHooks[i].matchConditions ?? null)),
  };
}

/** The schema's required fields webhookConfigurationErrors reports itself, with upstream's texts. */
export const WEBHOOK_CONFIGURATION_REQUIRED: ReadonlySet<string> = new Set(
  ['name', 'clientConfig', 'sideEffects', 'admissionReviewVersions', 'clientConfig.service.namespace', 'clientConfig.service.name', 'matchConditions[*].name', 'matchConditions[*].expression'].map(
    (f) => `webhooks[*].${f}`,
  ),
);

export function webhookConfigurationStrategy(def: ResourceDef, base: Strategy): Strategy {
  const mutating = def.kind === 'MutatingWebhookConfiguration';
  return {
    ...base,
    reportsRequired: WEBHOOK_CONFIGURATION_REQUIRED,
    load: async () => {
      await base.load?.();
      await loadMatchConditionsCompiler();
    },
    validate(obj) {
      return [...base.validate(obj), ...webhookConfigurationErrors(obj, mutating)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...webhookConfigurationErrors(obj, mutating, updateOptions(obj, old))];
    },
  };
}
