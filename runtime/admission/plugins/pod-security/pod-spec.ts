// Where a pod's metadata and spec are in the objects PodSecurity looks at:
// a Pod itself, or the pod template of a PodTemplate, ReplicationController,
// ReplicaSet, Deployment, StatefulSet, DaemonSet, Job or CronJob (upstream's
// default pod spec extractor). Only a ReplicationController's template is
// optional; the others are read even when empty, as upstream's structs
// always hold one.

import type { Obj } from '../../../storage/interface.ts';
import type { PodMeta, PodSpec } from './checks/types.ts';

export interface PodLike {
  meta: PodMeta;
  spec: PodSpec;
}

const key = (group: string, resource: string) => `${group}/${resource}`;

type Extract = (obj: Obj) => Obj | null | undefined;

const template: Extract = (o) => o.spec?.template ?? {};

/** The template (an object with metadata and spec) of each pod-template resource. */
const TEMPLATES = new Map<string, Extract>([
  [key('', 'podtemplates'), (o) => o.template ?? {}],
  [key('', 'replicationcontrollers'), (o) => o.spec?.template],
  [key('apps', 'replicasets'), template],
  [key('apps', 'deployments'), template],
  [key('apps', 'statefulsets'), template],
  [key('apps', 'daemonsets'), template],
  [key('batch', 'jobs'), template],
  [key('batch', 'cronjobs'), (o) => o.spec?.jobTemplate?.spec?.template ?? {}],
]);

export const hasPodTemplate = (group: string, resource: string): boolean => TEMPLATES.has(key(group, resource));

/** The pod of a pod-template resource's object; undefined when it has none (an RC without a template). */
export function podTemplateOf(group: string, resource: string, obj: Obj): PodLike | undefined {
  const t = TEMPLATES.get(key(group, resource))?.(obj);
  if (t == null) return undefined;
  return { meta: t.metadata ?? {}, spec: t.spec ?? {} };
}

export const podOf = (pod: Obj): PodLike => ({ meta: pod.metadata ?? {}, spec: pod.spec ?? {} });
