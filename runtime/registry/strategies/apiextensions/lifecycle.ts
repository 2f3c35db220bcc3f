// CustomResourceDefinition deletion as apiextensions-apiserver's REST does
// it: the first delete does not remove the CRD but marks it (deletion
// timestamp), adds the customresourcecleanup.apiextensions.k8s.io finalizer
// and the Terminating condition; the CRD controller then deletes the custom
// resources and drops the finalizer. Also the condition helper the
// controller shares (upstream's SetCRDCondition), and the names' defaults
// (singular: the lower-case kind; listKind: the kind and `List`).

import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { Strategy } from '../../strategy.ts';

export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

const rfc3339 = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * Sets a condition in a CRD's status.conditions (in place): a new one or a
 * changed status gets `now` as its transition time; reason and message are
 * replaced; the order of the list is kept.
 */
export function setCrdCondition(crd: Obj, cond: CrdCondition, now: number = Date.now()): void {
  crd.status ??= {};
  const list: CrdCondition[] = Array.isArray(crd.status.conditions) ? crd.status.conditions : (crd.status.conditions = []);
  const i = list.findIndex((c) => c.type === cond.type);
  if (i < 0) {
    list.push({ ...cond, lastTransitionTime: rfc3339(now) });
    return;
  }
  const old = list[i];
  list[i] = { ...old, ...cond, lastTransitionTime: old.status !== cond.status || !old.lastTransitionTime ? rfc3339(now) : old.lastTransitionTime };
}

export function findCrdCondition(crd: Obj, type: string): CrdCondition | undefined {
  const list = crd.status?.conditions;
  return Array.isArray(list) ? (list as CrdCondition[]).find((c) => c.type === type) : undefined;
}

/** The deletion and names' defaults around the validating strategy (strategy.ts composes the two). */
export function crdLifecycleStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    // upstream's SetDefaults_CustomResourceDefinitionSpec for the names
    defaults(obj) {
      base.defaults?.(obj);
      const names = obj.spec?.names;
      if (!names || typeof names !== 'object' || typeof names.kind !== 'string') return;
      if (!names.singular) names.singular = names.kind.toLowerCase();
      if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
    },
    // the first delete always waits: the finalizer is added by prepareForGracefulDelete
    hasPendingFinalizers: (obj) => base.hasPendingFinalizers?.(obj) === true || !obj.metadata?.deletionTimestamp,
    prepareForGracefulDelete(obj, alreadyDeleting) {
      base.prepareForGracefulDelete?.(obj, alreadyDeleting);
      if (alreadyDeleting) return;
      const finalizers: string[] = obj.metadata.finalizers ?? [];
      if (!finalizers.includes(CRD_CLEANUP_FINALIZER)) obj.metadata.finalizers = [...finalizers, CRD_CLEANUP_FINALIZER];
      setCrdCondition(obj, {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionPending',
        message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
      });
    },
  };
}
