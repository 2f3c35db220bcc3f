// Priority admission, as kube-apiserver's plugin of that name:
//   - a Pod created with spec.priorityClassName gets that class's value as
//     spec.priority and its preemptionPolicy (403 when no such class
//     exists); one without gets the global default class (its name too), or
//     priority 0 and PreemptLowerPriority when there is none; a priority or
//     preemptionPolicy sent that differs from the computed one is 403;
//     updates keep what the create set;
//   - a PriorityClass may be the global default only while no other class
//     is (403 naming the existing default; with several, the lowest value).

import { ApiError, errors } from '../../api/errors.ts';
import { type ClusterObjects, clusterObjects } from './cluster-objects.ts';
import type { Obj } from '../../storage/interface.ts';
import type { ApiIndex } from '../../registry/served.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';

const SCHEDULING = 'scheduling.k8s.io';

/** Where the plugin reads PriorityClasses. */
export type PriorityClassSource = ClusterObjects;

export function priorityClassSource(api: ApiIndex): PriorityClassSource {
  return clusterObjects(api, SCHEDULING, 'v1', 'priorityclasses');
}

/** The global default class: the one with the lowest value when a race left several. */
export async function defaultPriorityClass(source: PriorityClassSource): Promise<Obj | undefined> {
  let found: Obj | undefined;
  for (const pc of await source.list()) if (pc.globalDefault === true && (!found || found.value > pc.value)) found = pc;
  return found;
}

function forbidden(attrs: AdmissionAttributes, why: string): ApiError {
  return errors.forbidden({ group: attrs.group, resource: attrs.resource }, attrs.name, why);
}

async function admitPod(source: PriorityClassSource, attrs: AdmissionAttributes): Promise<void> {
  const pod = attrs.object;
  if (!pod || typeof pod !== 'object') return;
  const spec: Obj = (pod.spec ??= {});
  if (attrs.operation === 'UPDATE') {
    const was: Obj = attrs.oldObject?.spec ?? {};
    if (spec.priority == null && was.priority != null) spec.priority = was.priority;
    if (spec.preemptionPolicy == null && was.preemptionPolicy != null) spec.preemptionPolicy = was.preemptionPolicy;
    return;
  }
  if (attrs.operation !== 'CREATE') return;
  let priority = 0;
  let policy: string | undefined = 'PreemptLowerPriority';
  if (!spec.priorityClassName) {
    const dpc = await defaultPriorityClass(source);
    if (dpc) {
      spec.priorityClassName = dpc.metadata?.name;
      priority = dpc.value;
      policy = dpc.preemptionPolicy;
    }
  } else {
    const pc = await source.get(String(spec.priorityClassName));
    if (!pc) throw forbidden(attrs, `no PriorityClass with name ${spec.priorityClassName} was found`);
    priority = pc.value;
    policy = pc.preemptionPolicy;
  }
  if (spec.priority != null && spec.priority !== priority) {
    throw forbidden(attrs, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`);
  }
  spec.priority = priority;
  if (policy !== undefined) {
    if (spec.preemptionPolicy != null && spec.preemptionPolicy !== policy) {
      throw forbidden(
        attrs,
        `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
      );
    }
    spec.preemptionPolicy = policy;
  }
}

async function validateClass(source: PriorityClassSource, attrs: AdmissionAttributes): Promise<void> {
  const pc = attrs.object;
  if (!pc || pc.globalDefault !== true) return;
  const dpc = await defaultPriorityClass(source);
  if (!dpc) return;
  const name = dpc.metadata?.name;
  if (attrs.operation === 'CREATE' || (attrs.operation === 'UPDATE' && name !== pc.metadata?.name)) {
    throw forbidden(attrs, `PriorityClass ${name} is already marked as default. Only one default can exist`);
  }
}

export function priorityPlugin(source: PriorityClassSource): AdmissionPlugin {
  return {
    name: 'Priority',
    handles: (attrs) => (attrs.group === '' && attrs.resource === 'pods' && attrs.subresource === '') || (attrs.group === SCHEDULING && attrs.resource === 'priorityclasses'),
    async admit(attrs) {
      if (attrs.group === '' && attrs.resource === 'pods' && attrs.subresource === '') await admitPod(source, attrs);
    },
    async validate(attrs) {
      if (attrs.group === SCHEDULING && attrs.resource === 'priorityclasses' && attrs.subresource === '' && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')) {
        await validateClass(source, attrs);
      }
    },
  };
}
