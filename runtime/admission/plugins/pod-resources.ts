// A Pod's effective requests and limits, as upstream sums them for quota
// (k8s.io/component-helpers/resource PodRequests/PodLimits) and for the
// LimitRanger's `type: Pod` limits: the containers' sum; restartable
// (sidecar) init containers add to it and to every later init container;
// each other init container runs alone, so the pod needs the greatest of
// them if that is more. Quota adds spec.overhead (to limits only where a
// limit is set); the LimitRanger does not.

import type { Obj } from '../../storage/interface.ts';
import { type ResourceList, parseList } from './resource-quota/resources.ts';

type Field = 'requests' | 'limits';

function addInto(into: ResourceList, list: ResourceList): void {
  for (const [k, v] of list) {
    const have = into.get(k);
    into.set(k, have ? have.add(v) : v);
  }
}

function maxInto(into: ResourceList, list: ResourceList): void {
  for (const [k, v] of list) {
    const have = into.get(k);
    if (!have || v.cmp(have) > 0) into.set(k, v);
  }
}

const containersOf = (spec: Obj, field: 'containers' | 'initContainers'): Obj[] => (Array.isArray(spec[field]) ? spec[field].filter((c: unknown) => c && typeof c === 'object') : []);

/** The container's requests or limits. */
export const containerList = (c: Obj, field: Field): ResourceList => parseList(c.resources?.[field]);

function podList(pod: Obj, field: Field, overhead: boolean): ResourceList {
  const spec: Obj = pod.spec ?? {};
  const out: ResourceList = new Map();
  for (const c of containersOf(spec, 'containers')) addInto(out, containerList(c, field));
  const sidecars: ResourceList = new Map();
  const init: ResourceList = new Map();
  for (const c of containersOf(spec, 'initContainers')) {
    const own = containerList(c, field);
    if (c.restartPolicy === 'Always') {
      addInto(out, own);
      addInto(sidecars, own);
      maxInto(init, sidecars);
    } else {
      const tmp: ResourceList = new Map(own);
      addInto(tmp, sidecars);
      maxInto(init, tmp);
    }
  }
  maxInto(out, init);
  if (overhead) {
    for (const [k, v] of parseList(spec.overhead)) {
      const have = out.get(k);
      if (field === 'requests') out.set(k, have ? have.add(v) : v);
      else if (have && have.sign() !== 0) out.set(k, have.add(v));
    }
  }
  return out;
}

/** The pod's requests; with overhead as quota counts them. */
export const podRequests = (pod: Obj, overhead: boolean): ResourceList => podList(pod, 'requests', overhead);

/** The pod's limits; with overhead (added to the limits that are set) as quota counts them. */
export const podLimits = (pod: Obj, overhead: boolean): ResourceList => podList(pod, 'limits', overhead);
