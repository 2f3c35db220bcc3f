// What a DELETE answers once the object is gone, per kind: kube-apiserver's
// generic store answers a Status (Success, with the name, group, resource
// and uid of what was deleted: finalizeDelete in registry/generic/registry/
// store.go), except for the stores built with ReturnDeletedObject, which
// answer the deleted object (pkg/registry/*/*/storage/storage.go of 1.31).
// A delete still pending (finalizers, a namespace terminating) answers the
// object for every kind; that is the handler's, not this table's.

import type { ResourceDef } from '../../generated/api-types.ts';
import type { Obj } from '../storage/interface.ts';

/** The kinds (group/Kind) whose store sets ReturnDeletedObject: true. */
const RETURN_DELETED_OBJECT = new Set([
  '/Namespace',
  '/PersistentVolume',
  '/PersistentVolumeClaim',
  '/Pod',
  '/ResourceQuota',
  '/Service',
  '/ServiceAccount',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/VolumeAttachment',
]);

export function returnsDeletedObject(def: ResourceDef): boolean {
  return RETURN_DELETED_OBJECT.has(`${def.group}/${def.kind}`);
}

/**
 * The Status of a finished delete, as upstream builds it: no code, and the
 * resource (plural) in details.kind ("we set Kind field to resource").
 */
export function deletedStatus(def: ResourceDef, obj: Obj): Obj {
  const details: Obj = { name: obj.metadata?.name ?? '' };
  if (def.group) details.group = def.group;
  details.kind = def.resource;
  if (obj.metadata?.uid) details.uid = obj.metadata.uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}
