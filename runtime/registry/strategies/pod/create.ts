// What a Pod (not a template) gets on create, as upstream's SetDefaults_Pod
// and the pod strategy's PrepareForCreate give it: enableServiceLinks true,
// each container's requests defaulted from its limits, and a status of
// phase Pending with the pod's QoS class (plus the PodScheduled=False
// condition of a pod held by scheduling gates). No PodScheduled condition
// otherwise: a scheduler (or a binding) adds it.

import type { Obj } from '../../../storage/interface.ts';
import { QuantityValue } from '../../../cel/libs/quantity-parse.ts';

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** SetDefaults_Pod's part that templates do not get. */
export function defaultPodOnly(pod: Obj): void {
  const spec = pod.spec;
  if (!isObj(spec)) return;
  for (const c of [...list(spec.containers), ...list(spec.initContainers)]) {
    const res = c.resources;
    if (!isObj(res) || !isObj(res.limits)) continue;
    const requests: Obj = isObj(res.requests) ? res.requests : {};
    for (const [name, q] of Object.entries(res.limits)) if (requests[name] === undefined) requests[name] = q;
    if (Object.keys(requests).length) res.requests = requests;
  }
  spec.enableServiceLinks ??= true;
}

/** The compute resources the QoS class looks at. */
const QOS_RESOURCES = ['cpu', 'memory'];

function quantity(v: unknown): QuantityValue | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  try {
    return QuantityValue.parse(String(v));
  } catch {
    return undefined;
  }
}

function addTo(sums: Map<string, QuantityValue>, name: string, q: QuantityValue): void {
  const had = sums.get(name);
  sums.set(name, had ? had.add(q) : q);
}

/** GetPodQOS: Guaranteed, Burstable or BestEffort from the containers' and init containers' cpu and memory. */
export function podQOSClass(spec: Obj | undefined): string {
  const requests = new Map<string, QuantityValue>();
  const limits = new Map<string, QuantityValue>();
  let guaranteed = true;
  for (const c of [...list(spec?.containers), ...list(spec?.initContainers)]) {
    const res: Obj = isObj(c.resources) ? c.resources : {};
    for (const [name, raw] of Object.entries(isObj(res.requests) ? res.requests : {})) {
      const q = quantity(raw);
      if (QOS_RESOURCES.includes(name) && q && q.sign() > 0) addTo(requests, name, q);
    }
    const found = new Set<string>();
    for (const [name, raw] of Object.entries(isObj(res.limits) ? res.limits : {})) {
      if (!QOS_RESOURCES.includes(name)) continue;
      const q = quantity(raw);
      // a zero limit is no limit: it neither counts as found nor adds up (upstream's ComputePodQOS)
      if (q && q.sign() > 0) {
        found.add(name);
        addTo(limits, name, q);
      }
    }
    if (!QOS_RESOURCES.every((r) => found.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || lim.cmp(req) !== 0) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/**
 * The status a new Pod is stored with (whatever the client sent). A gated
 * pod's PodScheduled condition is added as upstream's UpdatePodCondition
 * adds it: stamped with the time of the write, no probe time.
 */
export function initialPodStatus(pod: Obj, now: () => Date = () => new Date()): Obj {
  const status: Obj = { phase: 'Pending', qosClass: podQOSClass(pod.spec) };
  if (list(pod.spec?.schedulingGates).length > 0) {
    status.conditions = [
      {
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: now()
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z'),
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
      },
    ];
  }
  return status;
}
