// PodSecurity's decisions (k8s.io/pod-security-admission/admission), apart
// from how the server hands it requests:
//   - Namespace create: invalid pod-security labels are 422 Invalid.
//     Namespace update: invalid labels are 422 unless the old labels had
//     the very same errors; a stricter enforce level (or another version)
//     is tried against the pods already there, and what they would violate
//     comes back as warnings (first the summary, then one line per
//     distinct reason list naming the lexically first pod and how many
//     others share it; at most maxPodsToCheck pods, within a time budget).
//   - Pod create and update (not status, binding, eviction and the
//     connect subresources; ephemeralcontainers yes): the enforce level
//     refuses with 403; audit violations become an audit annotation; warn
//     violations a warning when the pod is admitted. An update that
//     changes nothing PodSecurity looks at (images, containers added,
//     seccomp annotations) is admitted unchecked.
//   - Pod-template resources: audit and warn only.
// Exemptions (config.ts: usernames, namespaces, runtime classes from the
// AdmissionConfiguration file): a pod or pod-template write in an exempt
// namespace or by an exempt user, or of a pod of an exempt runtime class, is
// admitted unchecked with the audit annotation `exempt: <why>`; an exempt
// namespace's enforce-level change dry-runs no pods (a warning says its
// policy labels are ignored), and pods of exempt runtime classes are left
// out of that dry run.

import { ApiError, errors } from '../../../api/errors.ts';
import type { FieldError } from '../../../api/field-errors.ts';
import type { Obj } from '../../../storage/interface.ts';
import { goQuote } from '../../../api/go-format.ts';
import { type LevelVersion, type Policy, DEFAULT_POLICY, LABEL_PREFIX, LATEST, compareLevels, fullyPrivileged, levelVersionString, policyToEvaluate, sameLevelVersion, versionString } from './api.ts';
import type { Container } from './checks/types.ts';
import { type Exemptions, equivalentPolicies } from './config.ts';
import { type AggregateResult, type Evaluator, forbiddenDetail, forbiddenReason, newEvaluator } from './evaluator.ts';
import { type PodLike, hasPodTemplate, podOf, podTemplateOf } from './pod-spec.ts';

/** The audit annotation keys (upstream prefixes them with pod-security.kubernetes.io/). */
export const AUDIT_PREFIX = 'pod-security.kubernetes.io/';

export interface Request {
  operation: 'CREATE' | 'UPDATE';
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  object: Obj;
  oldObject: Obj | null;
  /** The requesting user's name (exemptions.usernames). */
  username?: string;
}

export interface Response {
  /** The refusal, when there is one. */
  error?: ApiError;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

export interface Sources {
  /** The namespace object; undefined when it does not exist. */
  namespace(name: string): Promise<Obj | undefined>;
  pods(namespace: string): Promise<Obj[]>;
}

export interface Options {
  evaluator?: Evaluator;
  /** The policy of labels not set (AdmissionConfiguration's defaults): privileged:latest. */
  defaults?: Policy;
  /** Who and what is not checked (AdmissionConfiguration's exemptions; default none). */
  exemptions?: Exemptions;
  /** Pods checked at most when a namespace's enforce level is raised (upstream: 3000). */
  maxPodsToCheck?: number;
  /** Time spent at most checking them (upstream: 1 s). */
  podCheckTimeoutMs?: number;
  now?: () => number;
}

const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

const allowed = (auditAnnotations: Record<string, string> = {}, warnings: string[] = []): Response => ({ warnings, auditAnnotations });

export class PodSecurityAdmission {
  private readonly evaluator: Evaluator;
  private readonly defaults: Policy;
  private readonly exemptions: Exemptions;
  private readonly maxPods: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(
    private readonly sources: Sources,
    opts: Options = {},
  ) {
    this.evaluator = opts.evaluator ?? newEvaluator();
    this.defaults = opts.defaults ?? DEFAULT_POLICY;
    this.exemptions = opts.exemptions ?? { usernames: [], runtimeClasses: [], namespaces: [] };
    this.maxPods = opts.maxPodsToCheck ?? 3000;
    this.timeoutMs = opts.podCheckTimeoutMs ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  /** Whether a request for this resource is PodSecurity's business. */
  static handles(group: string, resource: string): boolean {
    return (group === '' && (resource === 'namespaces' || resource === 'pods')) || hasPodTemplate(group, resource);
  }

  async validate(req: Request): Promise<Response> {
    if (req.group === '' && req.resource === 'namespaces') return this.validateNamespace(req);
    if (req.group === '' && req.resource === 'pods') return this.validatePod(req);
    return this.validatePodController(req);
  }

  private policyOf(labels: Record<string, string> | undefined): { policy: Policy; errors: FieldError[] } {
    return policyToEvaluate(labels, this.defaults);
  }

  private async validateNamespace(req: Request): Promise<Response> {
    if (req.subresource !== '') return allowed();
    const ns = req.object;
    const { policy, errors: newErrs } = this.policyOf(ns.metadata?.labels);
    const invalid = () => ({ ...allowed(), error: errors.invalid({ group: '', kind: 'Namespace' }, req.name, newErrs) });
    if (req.operation === 'CREATE') {
      if (newErrs.length) return invalid();
      // the request's namespace: empty on a create through the API, as upstream's
      const warning = this.exemptNamespace(req.namespace) ? this.exemptNamespaceWarning(ns.metadata?.name ?? req.name, policy, ns.metadata?.labels) : '';
      return allowed({}, warning ? [warning] : []);
    }
    const { policy: oldPolicy, errors: oldErrs } = this.policyOf(req.oldObject?.metadata?.labels);
    // invalid labels are refused unless they were already invalid in the very same way
    if (newErrs.length && (!oldErrs.length || errorsText(newErrs) !== errorsText(oldErrs))) return invalid();
    const next = policy.enforce;
    const prev = oldPolicy.enforce;
    if (sameLevelVersion(next, prev) || next.level === 'privileged') return allowed();
    // the same version at a level no stricter: nothing more to check
    if (versionString(next.version) === versionString(prev.version) && compareLevels(next.level, prev.level) < 1) return allowed();
    // an update's request namespace is the namespace itself
    if (this.exemptNamespace(req.namespace || req.name)) {
      const warning = this.exemptNamespaceWarning(ns.metadata?.name ?? req.name, policy, ns.metadata?.labels);
      return allowed({}, warning ? [warning] : []);
    }
    return allowed({}, await this.evaluatePodsInNamespace(ns.metadata?.name ?? req.name, next));
  }

  private async validatePod(req: Request): Promise<Response> {
    if (IGNORED_POD_SUBRESOURCES.has(req.subresource)) return allowed();
    const exempt = this.exemptRequest(req);
    if (exempt) return exempt;
    const ns = await this.sources.namespace(req.namespace);
    if (!ns) {
      // upstream's answer when its namespace informer has no such namespace
      const error = errors.internal(new Error(`failed to lookup namespace ${goQuote(req.namespace)}`));
      return { error, warnings: [], auditAnnotations: { [`${AUDIT_PREFIX}error`]: `${error.message}: ${notFoundText(req.namespace)}` } };
    }
    const { policy, errors: policyErrs } = this.policyOf(ns.metadata?.labels);
    if (!policyErrs.length && fullyPrivileged(policy)) return allowed({ [`${AUDIT_PREFIX}enforce-policy`]: levelVersionString({ level: 'privileged', version: LATEST }) });
    if (req.operation === 'UPDATE' && req.oldObject && !significantPodUpdate(req.object, req.oldObject)) return allowed();
    return this.evaluatePod(req, policy, policyErrs, podOf(req.object), true);
  }

  private async validatePodController(req: Request): Promise<Response> {
    if (req.subresource !== '') return allowed();
    const exempt = this.exemptRequest(req);
    if (exempt) return exempt;
    const ns = await this.sources.namespace(req.namespace);
    if (!ns) return allowed({ [`${AUDIT_PREFIX}error`]: `failed to lookup namespace ${goQuote(req.namespace)}: ${notFoundText(req.namespace)}` });
    const { policy, errors: policyErrs } = this.policyOf(ns.metadata?.labels);
    if (!policyErrs.length && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return allowed();
    const pod = podTemplateOf(req.group, req.resource, req.object);
    if (!pod) return allowed();
    return this.evaluatePod(req, policy, policyErrs, pod, false);
  }

  private exemptNamespace(namespace: string): boolean {
    return namespace !== '' && this.exemptions.namespaces.includes(namespace);
  }

  private exemptRuntimeClass(pod: PodLike): boolean {
    const rc = pod.spec?.runtimeClassName;
    return typeof rc === 'string' && rc !== '' && this.exemptions.runtimeClasses.includes(rc);
  }

  /** The answer to a pod or pod-template write from an exempt namespace or user; undefined when neither. */
  private exemptRequest(req: Request): Response | undefined {
    if (this.exemptNamespace(req.namespace)) return allowed({ [`${AUDIT_PREFIX}exempt`]: 'namespace' });
    if (req.username && this.exemptions.usernames.includes(req.username)) return allowed({ [`${AUDIT_PREFIX}exempt`]: 'user' });
    return undefined;
  }

  /** The warning for an exempt namespace whose labels set a policy other than the defaults (upstream's exemptNamespaceWarning). */
  private exemptNamespaceWarning(name: string, policy: Policy, labels: Record<string, string> | undefined): string {
    if (fullyPrivileged(policy) || equivalentPolicies(policy, this.defaults)) return '';
    const set = labels ?? {};
    const parts: string[] = [];
    for (const mode of ['enforce', 'audit', 'warn'] as const) {
      const label = `${LABEL_PREFIX}${mode}`;
      if (policy[mode].level !== 'privileged' && (label in set || `${label}-version` in set)) parts.push(`${mode}=${levelVersionString(policy[mode])}`);
    }
    return `namespace ${goQuote(name)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
  }

  private evaluatePod(req: Request, policy: Policy, policyErrs: FieldError[], pod: PodLike, enforce: boolean): Response {
    if (this.exemptRuntimeClass(pod)) return allowed({ [`${AUDIT_PREFIX}exempt`]: 'runtimeClass' });
    const annotations: Record<string, string> = {};
    if (policyErrs.length) annotations[`${AUDIT_PREFIX}error`] = `Failed to parse policy: ${errorsText(policyErrs)}`;
    const cache = new Map<string, AggregateResult>();
    const evaluate = (lv: LevelVersion) => {
      const k = levelVersionString(lv);
      let r = cache.get(k);
      if (!r) cache.set(k, (r = this.evaluator.evaluate(lv, pod.meta, pod.spec)));
      return r;
    };
    let error: ApiError | undefined;
    if (enforce) {
      annotations[`${AUDIT_PREFIX}enforce-policy`] = levelVersionString(policy.enforce);
      const r = evaluate(policy.enforce);
      if (!r.allowed) {
        const why = `violates PodSecurity ${goQuote(levelVersionString(policy.enforce))}: ${forbiddenDetail(r)}`;
        error = errors.forbidden({ group: req.group, resource: req.resource }, req.name, why);
      }
    }
    const audit = evaluate(policy.audit);
    if (!audit.allowed) annotations[`${AUDIT_PREFIX}audit-violations`] = `would violate PodSecurity ${goQuote(levelVersionString(policy.audit))}: ${forbiddenDetail(audit)}`;
    const warnings: string[] = [];
    // a request refused anyway gets no warnings
    if (!error) {
      const warn = evaluate(policy.warn);
      if (!warn.allowed) warnings.push(`would violate PodSecurity ${goQuote(levelVersionString(policy.warn))}: ${forbiddenDetail(warn)}`);
    }
    return { error, warnings, auditAnnotations: annotations };
  }

  /** The warnings of raising a namespace's enforce level to `enforce`, from the pods already in it. */
  async evaluatePodsInNamespace(namespace: string, enforce: LevelVersion): Promise<string[]> {
    const deadline = this.now() + this.timeoutMs;
    let pods: Obj[];
    try {
      pods = prioritize((await this.sources.pods(namespace)).filter((p) => !this.exemptRuntimeClass(podOf(p))));
    } catch {
      return ['failed to list pods while checking new PodSecurity enforce level'];
    }
    const total = pods.length;
    if (pods.length > this.maxPods) pods = pods.slice(0, this.maxPods);
    let checked = pods.length;
    const order: string[] = [];
    const counts = new Map<string, { pod: string; count: number }>();
    for (let i = 0; i < pods.length; i++) {
      const pod = podOf(pods[i]);
      const r = this.evaluator.evaluate(enforce, pod.meta, pod.spec);
      if (!r.allowed) {
        const warning = forbiddenReason(r);
        const name = pod.meta.name ?? '';
        const seen = counts.get(warning);
        if (!seen) {
          order.push(warning);
          counts.set(warning, { pod: name, count: 1 });
        } else {
          seen.count++;
          if (name < seen.pod) seen.pod = name;
        }
      }
      if (this.now() >= deadline) {
        checked = i + 1;
        break;
      }
    }
    const warnings: string[] = [];
    if (checked < total) warnings.push(`new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`);
    if (order.length) warnings.push(`existing pods in namespace ${goQuote(namespace)} violate the new PodSecurity enforce level ${goQuote(levelVersionString(enforce))}`);
    const perPod = order.map((w) => {
      const { pod, count } = counts.get(w)!;
      if (count === 1) return `${pod}: ${w}`;
      if (count === 2) return `${pod} (and 1 other pod): ${w}`;
      return `${pod} (and ${count - 1} other pods): ${w}`;
    });
    perPod.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return [...warnings, ...perPod];
  }
}

const notFoundText = (ns: string): string => `namespaces ${goQuote(ns)} not found`;

/** The aggregate text of field errors, as Go's ErrorList.ToAggregate().Error() prints it. */
function errorsText(errs: FieldError[]): string {
  const parts = errs.map((e) => e.toString());
  return parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
}

/** Pods without a controller and the first pod of each controller first, then the other replicas. */
function prioritize(pods: Obj[]): Obj[] {
  const first: Obj[] = [];
  const rest: Obj[] = [];
  const seen = new Set<string>();
  for (const pod of pods) {
    const ref = ((pod.metadata?.ownerReferences ?? []) as Obj[]).find((r) => r.controller === true);
    if (!ref) first.push(pod);
    else if (seen.has(ref.uid)) rest.push(pod);
    else {
      seen.add(ref.uid);
      first.push(pod);
    }
  }
  return [...first, ...rest];
}

const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

/** Whether a pod update changes what PodSecurity looks at (the fields mutable on a pod that it checks). */
export function significantPodUpdate(pod: Obj, old: Obj): boolean {
  const spec = pod.spec ?? {};
  const was = old.spec ?? {};
  const ann: Record<string, string> = pod.metadata?.annotations ?? {};
  const oldAnn: Record<string, string> = old.metadata?.annotations ?? {};
  const list = (v: unknown): Container[] => (Array.isArray(v) ? v : []);
  const changed = (c: Container, o: Container) => c.image !== o.image || ann[SECCOMP_CONTAINER_PREFIX + (c.name ?? '')] !== oldAnn[SECCOMP_CONTAINER_PREFIX + (c.name ?? '')];
  const [cs, ocs] = [list(spec.containers), list(was.containers)];
  const [ics, oics] = [list(spec.initContainers), list(was.initContainers)];
  if (cs.length !== ocs.length || ics.length !== oics.length) return true;
  if (cs.some((c, i) => changed(c, ocs[i])) || ics.some((c, i) => changed(c, oics[i]))) return true;
  const oldEphemeral = list(was.ephemeralContainers);
  return list(spec.ephemeralContainers).some((c) => {
    const o = oldEphemeral.find((x) => x.name === c.name);
    return !o || changed(c, o);
  });
}
