// The ValidatingAdmissionPolicy admission plugin (its validating half), as
// kube-apiserver 1.31's policy dispatcher: for every policy with bindings
// whose matchConstraints match the request, every binding whose
// matchResources match, and every param the binding selects, the policy is
// evaluated (evaluate.ts); a failed validation is handled by the binding's
// validationActions: Deny refuses the request (the first denial, with its
// reason's status code), Warn adds a Warning header, Audit records the
// failure as an audit annotation (validation.policy.admission.k8s.io/
// validation_failure); the policy's audit annotations are published under
// <policy>/<key>, the distinct values of its bindings and params joined
// with ", " (an audit annotation that fails to evaluate denies under
// failurePolicy Fail). Configuration errors (a namespace or param that
// cannot be read, a policy that does not compile) follow the policy's
// failurePolicy. The admission configuration resources themselves are
// exempt. Policies and bindings come from PolicyState,
// which watches keep current. A policy matched through matchPolicy
// Equivalent sees `object` and `oldObject` in the version it matched
// (../matching/versioned.ts), as upstream converts the versioned attributes.

import { ApiError, qualifiedResource } from '../../api/errors.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';
import { activation } from '../matching/cel.ts';
import { matchResources, type MatchResources, type MatchServices } from '../matching/index.ts';
import { admissionRequest } from '../matching/request.ts';
import { versionedObjects, withObjects } from '../matching/versioned.ts';
import { requestNamespace } from '../matching/selectors.ts';
import { compilePolicy, evaluatePolicy, type PolicyCompilation } from './evaluate.ts';
import { collectParams, type ParamSource } from './params.ts';

export const PLUGIN_NAME = 'ValidatingAdmissionPolicy';
const GROUP = 'admissionregistration.k8s.io';
/** Upstream's IsExemptAdmissionConfigurationResource. */
const EXEMPT = new Set([
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);
export const VALIDATION_FAILURE_ANNOTATION = 'validation.policy.admission.k8s.io/validation_failure';

interface PolicyEntry {
  obj: Obj;
  generation: unknown;
  compiled: PolicyCompilation;
}

export interface Hook {
  policy: Obj;
  compiled: PolicyCompilation;
  bindings: Obj[];
}

/** The stored policies (compiled once per generation) and bindings, fed by watches. */
export class PolicyState {
  private readonly policies = new Map<string, PolicyEntry>();
  private readonly bindings = new Map<string, Obj>();
  private cached: Hook[] | undefined;

  setPolicy(obj: Obj): void {
    const name = String(obj.metadata?.name ?? '');
    const was = this.policies.get(name);
    const generation = obj.metadata?.generation;
    const compiled = was && was.generation === generation && generation !== undefined ? was.compiled : compilePolicy(obj);
    this.policies.set(name, { obj, generation, compiled });
    this.cached = undefined;
  }

  deletePolicy(name: string): void {
    this.policies.delete(name);
    this.cached = undefined;
  }

  setBinding(obj: Obj): void {
    this.bindings.set(String(obj.metadata?.name ?? ''), obj);
    this.cached = undefined;
  }

  deleteBinding(name: string): void {
    this.bindings.delete(name);
    this.cached = undefined;
  }

  resyncPolicies(items: Obj[]): void {
    const names = new Set(items.map((o) => String(o.metadata?.name ?? '')));
    for (const n of [...this.policies.keys()]) if (!names.has(n)) this.policies.delete(n);
    for (const o of items) this.setPolicy(o);
    this.cached = undefined;
  }

  resyncBindings(items: Obj[]): void {
    this.bindings.clear();
    for (const o of items) this.setBinding(o);
  }

  /** Policies with at least one binding, each with its bindings (by name order). */
  hooks(): Hook[] {
    if (this.cached) return this.cached;
    const byPolicy = new Map<string, Obj[]>();
    for (const b of [...this.bindings.values()].sort((x, y) => String(x.metadata?.name).localeCompare(String(y.metadata?.name)))) {
      const p = String(b.spec?.policyName ?? '');
      if (!byPolicy.has(p)) byPolicy.set(p, []);
      byPolicy.get(p)!.push(b);
    }
    const hooks: Hook[] = [];
    for (const [name, entry] of [...this.policies.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const bindings = byPolicy.get(name);
      if (bindings?.length) hooks.push({ policy: entry.obj, compiled: entry.compiled, bindings });
    }
    return (this.cached = hooks);
  }
}

export interface PolicyPluginServices {
  match: MatchServices;
  params: ParamSource;
  /** The server's authorizer, for the `authorizer` variable. */
  authorizer?: Authorizer;
}

interface Denial {
  policy: string;
  binding?: string;
  message: string;
  reason?: string;
}

const CODES: Record<string, number> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

/** Upstream's denial: admission's Forbidden for the request's resource, with the validation's reason and code and the text as the one cause. */
function denialError(a: AdmissionAttributes, d: Denial): ApiError {
  const text =
    d.binding !== undefined
      ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
      : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const gr = { group: a.group, resource: a.resource };
  const name = a.name || String((a.object ?? a.oldObject)?.metadata?.name ?? '');
  const subject = name ? `${qualifiedResource(gr)} "${name}"` : qualifiedResource(gr);
  const reason = d.reason || 'Invalid';
  const details: NonNullable<ApiError['details']> = {};
  if (name) details.name = name;
  if (gr.group) details.group = gr.group;
  details.kind = gr.resource;
  details.causes = [{ message: text }];
  return new ApiError(CODES[reason] ?? 422, reason, `${subject} is forbidden: ${text}`, details);
}

/** Upstream's maxAuditAnnotationValueLength: a longer value is cut. */
const MAX_AUDIT_ANNOTATION_VALUE_BYTES = 10 * 1024;

function truncateBytes(s: string, max: number): string {
  const b = Buffer.from(s);
  return b.length <= max ? s : b.subarray(0, max).toString();
}

function addAnnotation(a: AdmissionAttributes, key: string, value: string): void {
  a.auditAnnotations ??= {};
  // as upstream's AddAnnotation: a key already set keeps its first value
  if (!(key in a.auditAnnotations)) a.auditAnnotations[key] = value;
}

export function validatingAdmissionPolicyPlugin(state: PolicyState, services: PolicyPluginServices): AdmissionPlugin {
  return {
    name: PLUGIN_NAME,
    handles: (a) => state.hooks().length > 0 && !(a.group === GROUP && EXEMPT.has(a.resource)),
    async validate(a) {
      const hooks = state.hooks();
      if (hooks.length === 0) return;
      if (a.group === GROUP && EXEMPT.has(a.resource)) return;
      const denials: Denial[] = [];
      const configError = (policy: Obj, binding: Obj | undefined, err: string) => {
        if (policy.spec?.failurePolicy === 'Ignore') return;
        const message = binding ? `failed to configure binding: ${err}` : `failed to configure policy: ${err}`;
        denials.push({ policy: String(policy.metadata?.name ?? ''), binding: binding ? String(binding.metadata?.name ?? '') : undefined, message });
      };
      let namespaceObject: Obj | null | undefined;
      for (const hook of hooks) {
        const policyName = String(hook.policy.metadata?.name ?? '');
        const m = await matchResources(services.match, (hook.policy.spec?.matchConstraints ?? {}) as MatchResources, a);
        if (!m.matches) {
          if (m.error) configError(hook.policy, undefined, m.error.message);
          continue;
        }
        if (!hook.compiled.ok) {
          configError(hook.policy, undefined, hook.compiled.error);
          continue;
        }
        const compiled = hook.compiled.policy;
        const request = admissionRequest(a, m.versions);
        // converted once per policy, when one of its bindings is evaluated
        let versioned: AdmissionAttributes | undefined;
        // the policy's audit annotation values over its bindings and params, each distinct value once
        const collected = new Map<string, string[]>();
        for (const binding of hook.bindings) {
          const bindingName = String(binding.metadata?.name ?? '');
          if (binding.spec?.matchResources) {
            const bm = await matchResources(services.match, binding.spec.matchResources as MatchResources, a);
            if (!bm.matches) {
              if (bm.error) configError(hook.policy, binding, bm.error.message);
              continue;
            }
          }
          let params: (Obj | null)[];
          try {
            params = await collectParams(services.params, hook.policy.spec?.paramKind, binding.spec?.paramRef, a.namespace);
          } catch (err) {
            configError(hook.policy, binding, (err as Error).message);
            continue;
          }
          if (params.length === 0) continue;
          if (namespaceObject === undefined) {
            // a Namespace's own request has no namespace object (upstream unsets it)
            const ns = a.group === '' && a.kind === 'Namespace' ? '' : requestNamespace(a);
            namespaceObject = ns ? ((await services.match.namespaces.get(ns)) ?? null) : null;
          }
          const actions: string[] = Array.isArray(binding.spec?.validationActions) ? binding.spec.validationActions : [];
          for (const param of params) {
            versioned ??= withObjects(a, await versionedObjects(services.match.resources, a, m.versions));
            const act = activation({ attrs: versioned, request, authorizer: services.authorizer, namespaceObject, ...(compiled.hasParams ? { params: param } : {}) });
            const result = evaluatePolicy(compiled, act);
            for (const d of result.decisions) {
              if (d.action !== 'deny') continue;
              for (const action of actions) {
                if (action === 'Deny') denials.push({ policy: policyName, binding: bindingName, message: d.message, reason: d.reason });
                else if (action === 'Warn') a.warnings?.push(`Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${d.message}`);
                else if (action === 'Audit') {
                  const value = [{ message: d.message, policy: String(binding.spec?.policyName ?? ''), binding: bindingName, expressionIndex: d.index, validationActions: actions }];
                  addAnnotation(a, VALIDATION_FAILURE_ANNOTATION, JSON.stringify(value));
                }
              }
            }
            for (const an of result.audits) {
              const value = truncateBytes(an.value, MAX_AUDIT_ANNOTATION_VALUE_BYTES);
              const values = collected.get(an.key) ?? [];
              if (!values.includes(value)) collected.set(an.key, [...values, value]);
            }
            for (const message of result.auditErrors) denials.push({ policy: policyName, binding: bindingName, message });
          }
        }
        // published under <policy>/<key>; several distinct values are joined with ", "
        for (const [key, values] of collected) addAnnotation(a, `${policyName}/${key}`, values.join(', '));
      }
      if (denials.length) throw denialError(a, denials[0]);
    },
  };
}
