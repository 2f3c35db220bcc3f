// LimitRange arithmetic, as upstream's LimitRanger plugin does it
// (plugin/pkg/admission/limitranger): the defaults a `type: Container`
// item gives containers (recorded in the pod's `kubernetes.io/limit-ranger`
// annotation), and the min, max and maxLimitRequestRatio checks of
// Container and Pod items on pods and of PersistentVolumeClaim items on
// claims' storage requests, with upstream's messages. Values are compared
// in milli-units when all fit (upstream's int64 MilliValue), else in units.

import type { QuantityValue } from '../../../cel/libs/quantity-parse.ts';
import type { Obj } from '../../../storage/interface.ts';
import { podLimits, podRequests } from '../pod-resources.ts';
import { type ResourceList, parseList } from '../resource-quota/resources.ts';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

const MAX_INT64 = (1n << 63n) - 1n;
const MAX_MILLI = MAX_INT64 / 1000n;

/** ceil(q * 10^scale), capped at int64 as Go's Quantity.ScaledValue saturates. */
function scaledCeil(q: QuantityValue, scale: number): bigint {
  const e = q.exp + scale;
  let v: bigint;
  if (e >= 0) v = q.unscaled * 10n ** BigInt(e);
  else {
    const div = 10n ** BigInt(-e);
    v = q.unscaled / div;
    if (v * div !== q.unscaled && q.unscaled > 0n) v += 1n;
  }
  return v > MAX_INT64 ? MAX_INT64 : v;
}
const value = (q: QuantityValue | undefined): bigint => (q ? scaledCeil(q, 0) : 0n);
const milli = (q: QuantityValue | undefined): bigint => (q ? scaledCeil(q, 3) : 0n);

/** Upstream's requestLimitEnforcedValues: the three at one precision. */
function comparable(req: QuantityValue | undefined, lim: QuantityValue | undefined, enforced: QuantityValue): [bigint, bigint, bigint] {
  const v: [bigint, bigint, bigint] = [value(req), value(lim), value(enforced)];
  if (v.every((x) => x <= MAX_MILLI)) return [milli(req), milli(lim), milli(enforced)];
  return v;
}

export function minConstraint(type: string, name: string, enforced: QuantityValue, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req, lim, enforced);
  if (!req) return `minimum ${name} usage per ${type} is ${enforced}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${type} is ${enforced}, but request is ${req}`;
  if (lim && l < e) return `minimum ${name} usage per ${type} is ${enforced}, but limit is ${lim}`;
  return undefined;
}

export function maxConstraint(type: string, name: string, enforced: QuantityValue, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req, lim, enforced);
  if (!lim) return `maximum ${name} usage per ${type} is ${enforced}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${type} is ${enforced}, but limit is ${lim}`;
  if (req && r > e) return `maximum ${name} usage per ${type} is ${enforced}, but request is ${req}`;
  return undefined;
}

/** The max of a claim's storage request (claims have no limits). */
export function maxRequestConstraint(type: string, name: string, enforced: QuantityValue, requests: ResourceList): string | undefined {
  const req = requests.get(name);
  const [r, , e] = comparable(req, undefined, enforced);
  if (!req) return `maximum ${name} usage per ${type} is ${enforced}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${type} is ${enforced}, but request is ${req}`;
  return undefined;
}

export function ratioConstraint(type: string, name: string, enforced: QuantityValue, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l] = comparable(req, lim, enforced);
  if (!req || r === 0n) return `${name} max limit to request ratio per ${type} is ${enforced}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${name} max limit to request ratio per ${type} is ${enforced}, but no limit is specified or limit is 0`;
  const observed = Number(l) / Number(r);
  const ev = value(enforced);
  const [seen, max] = ev <= MAX_MILLI ? [observed * 1000, Number(milli(enforced))] : [observed, Number(ev)];
  if (seen > max) return `${name} max limit to request ratio per ${type} is ${enforced}, but provided ratio is ${observed.toFixed(6)}`;
  return undefined;
}

const items = (lr: Obj): Obj[] => (Array.isArray(lr.spec?.limits) ? lr.spec.limits.filter((i: unknown) => i && typeof i === 'object') : []);
const sortedEntries = (raw: unknown): [string, QuantityValue][] => [...parseList(raw)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const containersOf = (pod: Obj, field: 'containers' | 'initContainers'): Obj[] => (Array.isArray(pod.spec?.[field]) ? pod.spec[field].filter((c: unknown) => c && typeof c === 'object') : []);

/** Go's aggregate error text: one message alone, several (duplicates dropped) as `[a, b]`. */
export function aggregate(msgs: string[]): string | undefined {
  const unique = [...new Set(msgs)];
  if (!unique.length) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

function checkAll(type: string, item: Obj, requests: ResourceList, limits: ResourceList, out: string[]): void {
  for (const [k, v] of sortedEntries(item.min)) {
    const m = minConstraint(type, k, v, requests, limits);
    if (m) out.push(m);
  }
  for (const [k, v] of sortedEntries(item.max)) {
    const m = maxConstraint(type, k, v, requests, limits);
    if (m) out.push(m);
  }
  for (const [k, v] of sortedEntries(item.maxLimitRequestRatio)) {
    const m = ratioConstraint(type, k, v, requests, limits);
    if (m) out.push(m);
  }
}

/** The problems of a pod under one LimitRange (upstream's PodValidateLimitFunc). */
export function podViolations(lr: Obj, pod: Obj): string[] {
  const out: string[] = [];
  for (const item of items(lr)) {
    if (item.type === 'Container') {
      for (const c of [...containersOf(pod, 'containers'), ...containersOf(pod, 'initContainers')]) {
        checkAll('Container', item, parseList(c.resources?.requests), parseList(c.resources?.limits), out);
      }
    }
    if (item.type === 'Pod') checkAll('Pod', item, podRequests(pod, false), podLimits(pod, false), out);
  }
  return out;
}

/** The problems of a claim under one LimitRange (upstream's PersistentVolumeClaimValidateLimitFunc). */
export function claimViolations(lr: Obj, pvc: Obj): string[] {
  const out: string[] = [];
  const requests = parseList(pvc.spec?.resources?.requests);
  for (const item of items(lr)) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of sortedEntries(item.min)) {
      const m = minConstraint('PersistentVolumeClaim', k, v, requests, new Map());
      if (m) out.push(m);
    }
    for (const [k, v] of sortedEntries(item.max)) {
      const m = maxRequestConstraint('PersistentVolumeClaim', k, v, requests);
      if (m) out.push(m);
    }
  }
  return out;
}

/** The Container items' default limits and requests, later items overriding earlier ones. */
function containerDefaults(lr: Obj): { limits: Record<string, unknown>; requests: Record<string, unknown> } {
  const limits: Record<string, unknown> = {};
  const requests: Record<string, unknown> = {};
  for (const item of items(lr)) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest ?? {});
    Object.assign(limits, item.default ?? {});
  }
  return { limits, requests };
}

function mergeContainer(c: Obj, defs: { limits: Record<string, unknown>; requests: Record<string, unknown> }, what: string, notes: string[]): void {
  const res: Obj = (c.resources ??= {});
  const set = (field: 'limits' | 'requests', from: Record<string, unknown>): string[] => {
    const names: string[] = [];
    for (const [k, v] of Object.entries(from)) {
      const have: Obj = (res[field] ??= {});
      if (k in have) continue;
      have[k] = v;
      names.push(k);
    }
    if (res[field] && !Object.keys(res[field]).length) delete res[field];
    return names.sort();
  };
  const limits = set('limits', defs.limits);
  const requests = set('requests', defs.requests);
  if (requests.length) notes.push(`${requests.join(', ')} request for ${what} ${c.name ?? ''}`);
  if (limits.length) notes.push(`${limits.join(', ')} limit for ${what} ${c.name ?? ''}`);
}

/** Fills the containers' missing requests and limits from one LimitRange and records what it set (upstream's PodMutateLimitFunc). */
export function applyDefaults(lr: Obj, pod: Obj): void {
  const defs = containerDefaults(lr);
  if (!Object.keys(defs.limits).length && !Object.keys(defs.requests).length) return;
  const notes: string[] = [];
  for (const c of containersOf(pod, 'containers')) mergeContainer(c, defs, 'container', notes);
  for (const c of containersOf(pod, 'initContainers')) mergeContainer(c, defs, 'init container', notes);
  if (!notes.length) return;
  pod.metadata ??= {};
  pod.metadata.annotations = { ...pod.metadata.annotations, [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
}
