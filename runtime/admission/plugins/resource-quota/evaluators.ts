// Quota evaluators, as upstream's (k8s.io/kubernetes/pkg/quota/v1/evaluator/core
// and the generic object-count evaluator of k8s.io/apiserver/pkg/quota/v1/generic):
// for one group-resource, which quota resource names it accounts for, which
// writes change usage, whether an object falls in a quota's scopes, the
// usage one object costs, and (pods only) the containers' required
// requests and limits. Pods: `pods`, `count/pods`, `cpu`/`memory`/
// `ephemeral-storage` and their `requests.`/`limits.` forms, hugepages and
// extended resources (`requests.<name>`); Services: `services`,
// `services.loadbalancers`, `services.nodeports`; PersistentVolumeClaims:
// `persistentvolumeclaims`, `requests.storage` and both per storage class
// (`<class>.storageclass.storage.k8s.io/...`); ConfigMaps, Secrets,
// ReplicationControllers and ResourceQuotas also by their plain names; any
// other resource by `count/<resource>.<group>` on create.

import { selectorMatches } from '../../../api/label-selector.ts';
import type { Obj } from '../../../storage/interface.ts';
import { podLimits, podRequests } from '../pod-resources.ts';
import { type ResourceList, ONE, add, count, parseList, quantityOf } from './resources.ts';

/** One scope a quota selects by (spec.scopes are `Exists` requirements; spec.scopeSelector.matchExpressions). */
export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface WriteFacts {
  operation: string;
  object: Obj | null;
  oldObject: Obj | null;
}

export interface Evaluator {
  group: string;
  resource: string;
  /** Whether the write can change usage. */
  handles(w: WriteFacts): boolean;
  /** The names of `names` this evaluator accounts for. */
  matchingResources(names: string[]): string[];
  matchesScope(scope: ScopeRequirement, obj: Obj): boolean;
  /** Upstream's Constraints: an error text when the object lacks what a quota on `required` needs. */
  constraints(required: string[], obj: Obj): string | undefined;
  /** What the object costs; `now` (ms) decides whether a pod being deleted is still charged. */
  usage(obj: Obj, now: number): ResourceList;
}

/** `count/<resource>` for the core group, `count/<resource>.<group>` otherwise. */
export const objectCountName = (group: string, resource: string): string => `count/${group ? `${resource}.${group}` : resource}`;

/** The quota's scopes as requirements, spec.scopes first. */
export function scopeRequirements(quota: Obj): ScopeRequirement[] {
  const out: ScopeRequirement[] = [];
  for (const s of Array.isArray(quota.spec?.scopes) ? quota.spec.scopes : []) out.push({ scopeName: String(s), operator: 'Exists' });
  const exprs = quota.spec?.scopeSelector?.matchExpressions;
  for (const e of Array.isArray(exprs) ? exprs : [])
    if (e && typeof e === 'object') out.push({ scopeName: String(e.scopeName), operator: String(e.operator), values: Array.isArray(e.values) ? e.values.map(String) : undefined });
  return out;
}

/** Upstream's generic Matches: the quota's status.hard names something the evaluator counts, and every scope matches. */
export function quotaMatches(ev: Evaluator, quota: Obj, obj: Obj): boolean {
  if (ev.matchingResources(Object.keys(quota.status?.hard ?? {})).length === 0) return false;
  return scopeRequirements(quota).every((s) => ev.matchesScope(s, obj));
}

const intersect = (names: string[], known: readonly string[]): string[] => names.filter((n) => known.includes(n));

/** Counts objects on create; no scope matches (upstream's MatchesNoScopeFunc). */
function objectCountEvaluator(group: string, resource: string, alias?: string): Evaluator {
  const names = [objectCountName(group, resource), ...(alias ? [alias] : [])];
  return {
    group,
    resource,
    handles: (w) => w.operation === 'CREATE',
    matchingResources: (input) => intersect(input, names),
    matchesScope: () => false,
    constraints: () => undefined,
    usage: () => new Map(names.map((n) => [n, ONE])),
  };
}

// ---- pods

const POD_RESOURCES = [
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
] as const;
/** Quota on these makes every container state them (upstream keeps this for compatibility). */
const VALIDATION_SET = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];
const HUGEPAGES = 'hugepages-';

/** Upstream's IsNativeResource: no domain, or a kubernetes.io one. */
const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
/** An extended resource a container may request (`example.com/gpu`). */
const isExtended = (name: string): boolean => !isNative(name) && !name.startsWith('requests.');

/** The usage of one set of requests and limits (upstream's podComputeUsageHelper). */
export function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', ONE]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [r, q] of requests) {
    if (r.startsWith(HUGEPAGES)) {
      out.set(r, q);
      out.set(`requests.${r}`, q);
    }
    if (isExtended(r)) out.set(`requests.${r}`, q);
  }
  return out;
}

const containersOf = (pod: Obj): Obj[] =>
  [...(Array.isArray(pod.spec?.containers) ? pod.spec.containers : []), ...(Array.isArray(pod.spec?.initContainers) ? pod.spec.initContainers : [])].filter((c) => c && typeof c === 'object');

/** A pod with activeDeadlineSeconds is in the Terminating scope. */
export const isTerminating = (pod: Obj): boolean => typeof pod.spec?.activeDeadlineSeconds === 'number' && pod.spec.activeDeadlineSeconds >= 0;

/** BestEffort QoS: no container sets a non-zero cpu or memory request or limit. */
export function isBestEffort(pod: Obj): boolean {
  for (const c of containersOf(pod)) {
    for (const field of ['requests', 'limits']) {
      const list = parseList(c.resources?.[field]);
      for (const r of ['cpu', 'memory']) if ((list.get(r)?.sign() ?? 0) !== 0) return false;
    }
  }
  return true;
}

const crossNamespaceTerm = (t: Obj): boolean => !!t && ((Array.isArray(t.namespaces) && t.namespaces.length > 0) || (t.namespaceSelector !== undefined && t.namespaceSelector !== null));

/** A pod (anti-)affinity term names other namespaces. */
export function usesCrossNamespaceAffinity(pod: Obj): boolean {
  const a = pod.spec?.affinity;
  if (!a) return false;
  for (const kind of [a.podAffinity, a.podAntiAffinity]) {
    if (!kind) continue;
    const req = Array.isArray(kind.requiredDuringSchedulingIgnoredDuringExecution) ? kind.requiredDuringSchedulingIgnoredDuringExecution : [];
    const pref = Array.isArray(kind.preferredDuringSchedulingIgnoredDuringExecution) ? kind.preferredDuringSchedulingIgnoredDuringExecution : [];
    if (req.some(crossNamespaceTerm) || pref.some((w: Obj) => crossNamespaceTerm(w?.podAffinityTerm))) return true;
  }
  return false;
}

export function podMatchesScope(scope: ScopeRequirement, pod: Obj): boolean {
  switch (scope.scopeName) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const pc = typeof pod.spec?.priorityClassName === 'string' ? pod.spec.priorityClassName : '';
      if (scope.operator === 'Exists') return pc !== '';
      const labels: Record<string, string> = pc ? { PriorityClass: pc } : {};
      return selectorMatches({ matchExpressions: [{ key: 'PriorityClass', operator: scope.operator, values: scope.values }] }, labels);
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespaceAffinity(pod);
    default:
      return false;
  }
}

/** Whether a pod still counts for compute quota: not finished, not past its deletion grace period. */
export function podCharged(pod: Obj, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const ts = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (ts && typeof grace === 'number' && now > Date.parse(ts) + grace * 1000) return false;
  return true;
}

const podEvaluator: Evaluator = {
  group: '',
  resource: 'pods',
  // containers cannot change after create (in-place resize is off by default in 1.31)
  handles: (w) => w.operation === 'CREATE',
  matchingResources(input) {
    return input.filter((n) => (POD_RESOURCES as readonly string[]).includes(n) || n.startsWith(HUGEPAGES) || n.startsWith(`requests.${HUGEPAGES}`) || (!isNative(n) && n.startsWith('requests.')));
  },
  matchesScope: podMatchesScope,
  constraints(required, pod) {
    const want = required.filter((r) => VALIDATION_SET.includes(r));
    const missing = new Map<string, Set<string>>();
    for (const c of containersOf(pod)) {
      const has = computeUsage(parseList(c.resources?.requests), parseList(c.resources?.limits));
      for (const r of want) {
        if (has.has(r)) continue;
        if (!missing.has(r)) missing.set(r, new Set());
        missing.get(r)!.add(String(c.name ?? ''));
      }
    }
    if (!missing.size) return undefined;
    const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },
  usage(pod, now) {
    const out: ResourceList = new Map([['count/pods', ONE]]);
    if (!podCharged(pod, now)) return out;
    return add(out, computeUsage(podRequests(pod, true), podLimits(pod, true)));
  },
};

// ---- services

const SERVICE_RESOURCES = ['count/services', 'services', 'services.loadbalancers', 'services.nodeports'];

const serviceEvaluator: Evaluator = {
  group: '',
  resource: 'services',
  handles: (w) => w.operation === 'CREATE' || w.operation === 'UPDATE',
  matchingResources: (input) => intersect(input, SERVICE_RESOURCES),
  matchesScope: () => false,
  constraints: () => undefined,
  usage(svc) {
    const ports: Obj[] = Array.isArray(svc.spec?.ports) ? svc.spec.ports : [];
    const out: ResourceList = new Map([
      ['count/services', ONE],
      ['services', ONE],
      ['services.loadbalancers', count(0)],
      ['services.nodeports', count(0)],
    ]);
    const type = svc.spec?.type;
    if (type === 'NodePort') out.set('services.nodeports', count(ports.length));
    if (type === 'LoadBalancer') {
      // with node ports not allocated, only the ports that name one explicitly count
      const nodePorts = svc.spec?.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p && p.nodePort).length : ports.length;
      out.set('services.nodeports', count(nodePorts));
      out.set('services.loadbalancers', ONE);
    }
    return out;
  },
};

// ---- persistent volume claims

const PVC_RESOURCES = ['persistentvolumeclaims', 'count/persistentvolumeclaims', 'requests.storage'];
const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';

/** The claim's class: the beta annotation first, then spec.storageClassName. */
export function claimClass(pvc: Obj): string {
  const ann = pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (typeof ann === 'string') return ann;
  return typeof pvc.spec?.storageClassName === 'string' ? pvc.spec.storageClassName : '';
}

const pvcEvaluator: Evaluator = {
  group: '',
  resource: 'persistentvolumeclaims',
  handles: (w) => w.operation === 'CREATE' || w.operation === 'UPDATE',
  matchingResources: (input) => input.filter((n) => PVC_RESOURCES.includes(n) || PVC_RESOURCES.some((r) => n.endsWith(STORAGE_CLASS_SUFFIX + r))),
  matchesScope: () => false,
  constraints: () => undefined,
  usage(pvc) {
    const out: ResourceList = new Map([
      ['persistentvolumeclaims', ONE],
      ['count/persistentvolumeclaims', ONE],
    ]);
    const cls = claimClass(pvc);
    if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, ONE);
    const storage = quantityOf(pvc.spec?.resources?.requests?.storage);
    if (storage) {
      out.set('requests.storage', storage);
      if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return out;
  },
};

const LEGACY_ALIASES: Record<string, string> = { configmaps: 'configmaps', secrets: 'secrets', replicationcontrollers: 'replicationcontrollers', resourcequotas: 'resourcequotas' };

const special: Record<string, Evaluator> = { '/pods': podEvaluator, '/services': serviceEvaluator, '/persistentvolumeclaims': pvcEvaluator };
const made = new Map<string, Evaluator>();

/** The evaluator of a group-resource (an object-count one for any resource without its own). */
export function evaluatorFor(group: string, resource: string): Evaluator {
  const key = `${group}/${resource}`;
  const own = special[key];
  if (own) return own;
  let ev = made.get(key);
  if (!ev) {
    ev = objectCountEvaluator(group, resource, group === '' ? LEGACY_ALIASES[resource] : undefined);
    made.set(key, ev);
  }
  return ev;
}

/** The group-resources a quota's names count: `count/x.y`, and the named resources of the special evaluators. */
export function groupResourcesOf(names: string[]): { group: string; resource: string }[] {
  const out = new Map<string, { group: string; resource: string }>();
  for (const ev of Object.values(special)) if (ev.matchingResources(names).length) out.set(`${ev.group}/${ev.resource}`, { group: ev.group, resource: ev.resource });
  for (const n of names) {
    if (LEGACY_ALIASES[n]) out.set(`/${n}`, { group: '', resource: n });
    if (!n.startsWith('count/')) continue;
    const rest = n.slice('count/'.length);
    const dot = rest.indexOf('.');
    const gr = dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
    out.set(`${gr.group}/${gr.resource}`, gr);
  }
  return [...out.values()];
}
