// NodeRestriction admission (upstream 1.31's plugin, default feature gates):
// a user identified as a node (`system:node:<name>` in `system:nodes`) may
// create only mirror pods bound to itself, owned by its own Node and naming
// nothing it could read through the Node authorizer; delete and update the
// status of only pods bound to itself (without touching their labels or
// resource-claim statuses); evict only its pods; modify only its own Node
// (no configSource, no taint changes, no node-restriction.kubernetes.io/
// labels nor kubernetes.io and k8s.io labels outside the kubelet's set);
// update only the status of PVCs (capacity and conditions); touch only its
// own Lease in kube-node-lease and its own CSINode; and request service-account
// tokens only bound to a pod on itself. Refusals are upstream's 403 texts.
// Other users pass untouched.

import { ApiError, errors } from '../../api/errors.ts';
import { NODE_LEASE_NAMESPACE, nodeIdentity } from '../../authz/node/authorizer.ts';
import { MIRROR_POD_ANNOTATION } from '../../authz/node/graph.ts';
import { podConfigMapNames, podSecretNames } from '../../authz/node/references.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';
import { forbiddenNodeLabels } from './node-labels.ts';

/** Reads a live object (undefined when it does not exist). */
export type NodeRestrictionLookup = (namespace: string, name: string) => Promise<Obj | undefined>;

export interface NodeRestrictionSources {
  pod: NodeRestrictionLookup;
  node: (name: string) => Promise<Obj | undefined>;
}

const POD_GR = { group: '', resource: 'pods' };
const NODE_GR = { group: '', resource: 'nodes' };

/** upstream's admission.NewForbidden: the name from the request, else the object's, else "Unknown". */
function forbidden(a: AdmissionAttributes, why: string): ApiError {
  const name = a.name || a.object?.metadata?.name || 'Unknown';
  return errors.forbidden({ group: a.group, resource: a.resource }, name, why);
}

const creating = (a: AdmissionAttributes) => a.operation === 'CREATE' || (a.operation === 'UPDATE' && a.oldObject === null);

/** Deep equality of JSON values where a missing list or map equals an empty one (upstream's semantic equality). */
function semanticEqual(x: unknown, y: unknown): boolean {
  const empty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  if (empty(x) && empty(y)) return true;
  if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => semanticEqual(v, y[i]));
  if (typeof x === 'object' && x !== null && typeof y === 'object' && y !== null && !Array.isArray(x) && !Array.isArray(y)) {
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    return [...keys].every((k) => semanticEqual((x as Obj)[k], (y as Obj)[k]));
  }
  return x === y;
}

export function nodeRestrictionPlugin(src: NodeRestrictionSources): AdmissionPlugin {
  const livePod = async (a: AdmissionAttributes, name: string): Promise<Obj> => {
    const pod = await src.pod(a.namespace, name);
    if (!pod) throw errors.notFound(POD_GR, name);
    return pod;
  };

  async function podCreate(nodeName: string, a: AdmissionAttributes): Promise<void> {
    const pod = a.object ?? {};
    const q = JSON.stringify(nodeName);
    if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] === undefined) {
      throw forbidden(a, `pod does not have ${JSON.stringify(MIRROR_POD_ANNOTATION)} annotation, node ${q} can only create mirror pods`);
    }
    if (pod.spec?.nodeName !== nodeName) throw forbidden(a, `node ${q} can only create pods with spec.nodeName set to itself`);
    const owners: Obj[] = Array.isArray(pod.metadata?.ownerReferences) ? pod.metadata.ownerReferences : [];
    if (owners.length > 1) throw forbidden(a, `node ${q} can only create pods with a single owner reference set to itself`);
    if (owners.length === 0) throw forbidden(a, `node ${q} can only create pods with an owner reference set to itself`);
    const owner = owners[0];
    if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== nodeName) throw forbidden(a, `node ${q} can only create pods with an owner reference set to itself`);
    if (owner.controller !== true) throw forbidden(a, `node ${q} can only create pods with a controller owner reference set to itself`);
    if (owner.blockOwnerDeletion === true) throw forbidden(a, `node ${q} must not set blockOwnerDeletion on an owner reference`);
    const node = await src.node(nodeName);
    if (!node) throw errors.notFound(NODE_GR, nodeName);
    const uid = node.metadata?.uid ?? '';
    if ((owner.uid ?? '') !== uid) throw forbidden(a, `node ${nodeName} UID mismatch: expected ${owner.uid ?? ''} got ${uid}`);
    if (pod.spec?.serviceAccountName) throw forbidden(a, `node ${q} can not create pods that reference a service account`);
    if (podSecretNames(pod).length) throw forbidden(a, `node ${q} can not create pods that reference secrets`);
    if (podConfigMapNames(pod).length) throw forbidden(a, `node ${q} can not create pods that reference configmaps`);
    const volumes: Obj[] = Array.isArray(pod.spec?.volumes) ? pod.spec.volumes : [];
    for (const v of volumes) {
      for (const s of Array.isArray(v?.projected?.sources) ? v.projected.sources : []) {
        if (s?.clusterTrustBundle) throw forbidden(a, `node ${q} can not create pods that reference clustertrustbundles`);
      }
    }
    if (volumes.some((v) => v?.persistentVolumeClaim)) throw forbidden(a, `node ${q} can not create pods that reference persistentvolumeclaims`);
  }

  async function pod(nodeName: string, a: AdmissionAttributes): Promise<void> {
    const q = JSON.stringify(nodeName);
    switch (a.subresource) {
      case '':
        if (creating(a)) return podCreate(nodeName, a);
        if (a.operation === 'DELETE') {
          if (a.oldObject?.spec?.nodeName !== nodeName) throw forbidden(a, `node ${q} can only delete pods with spec.nodeName set to itself`);
          return;
        }
        throw forbidden(a, `unexpected operation ${JSON.stringify(a.operation)}, node ${q} can only create and delete mirror pods`);
      case 'status': {
        if (a.operation !== 'UPDATE' || !a.oldObject) throw forbidden(a, `unexpected operation ${JSON.stringify(a.operation)}`);
        if (a.oldObject.spec?.nodeName !== nodeName) throw forbidden(a, `node ${q} can only update pod status for pods with spec.nodeName set to itself`);
        if (!semanticEqual(a.oldObject.metadata?.labels, a.object?.metadata?.labels)) throw forbidden(a, `node ${q} cannot update labels through pod status`);
        if (!semanticEqual(a.oldObject.status?.resourceClaimStatuses, a.object?.status?.resourceClaimStatuses)) throw forbidden(a, `node ${q} cannot update resource claim statues`);
        return;
      }
      case 'eviction': {
        if (a.operation !== 'CREATE') throw forbidden(a, `unexpected operation ${a.operation}`);
        const podName = a.name || a.object?.metadata?.name;
        if (!podName) throw forbidden(a, 'could not determine pod from request data');
        const live = await livePod(a, podName);
        if (live.spec?.nodeName !== nodeName) throw forbidden(a, `node ${nodeName} can only evict pods with spec.nodeName set to itself`);
        return;
      }
      default:
        throw forbidden(a, `unexpected pod subresource ${JSON.stringify(a.subresource)}, only 'status' and 'eviction' are allowed`);
    }
  }

  function node(nodeName: string, a: AdmissionAttributes): void {
    const q = JSON.stringify(nodeName);
    if (a.name !== nodeName) throw forbidden(a, `node ${q} is not allowed to modify node ${JSON.stringify(a.name)}`);
    const obj = a.object ?? {};
    if (creating(a)) {
      if (obj.spec?.configSource) throw forbidden(a, `node ${q} is not allowed to create pods with a non-nil configSource`);
      const bad = forbiddenNodeLabels(obj.metadata?.labels, undefined);
      if (bad.length) throw forbidden(a, `node ${q} is not allowed to set the following labels: ${bad.join(', ')}`);
      return;
    }
    if (a.operation !== 'UPDATE' || !a.oldObject) return;
    const old = a.oldObject;
    if (obj.spec?.configSource && !semanticEqual(obj.spec.configSource, old.spec?.configSource)) {
      throw forbidden(a, `node ${q} is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!semanticEqual(obj.spec?.taints, old.spec?.taints)) throw forbidden(a, `node ${q} is not allowed to modify taints`);
    const bad = forbiddenNodeLabels(obj.metadata?.labels, old.metadata?.labels);
    if (bad.length) throw forbidden(a, `is not allowed to modify labels: ${bad.join(', ')}`);
  }

  function pvcStatus(nodeName: string, a: AdmissionAttributes): void {
    if (a.subresource !== 'status') throw forbidden(a, 'may only update PVC status');
    if (a.operation !== 'UPDATE' || !a.oldObject) throw forbidden(a, `unexpected operation ${JSON.stringify(a.operation)}`);
    const strip = (o: Obj): Obj => {
      const c = structuredClone(o);
      if (c.metadata) {
        delete c.metadata.resourceVersion;
        delete c.metadata.managedFields;
      }
      if (c.status) {
        delete c.status.capacity;
        delete c.status.conditions;
      }
      return c;
    };
    const before = strip(a.oldObject);
    const after = strip(a.object ?? {});
    if (!semanticEqual(before, after)) {
      const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !semanticEqual(before[k], after[k]));
      throw forbidden(a, `node ${JSON.stringify(nodeName)} is not allowed to update fields other than status.capacity and status.conditions: ${changed.join(', ')} changed`);
    }
  }

  async function tokenRequest(nodeName: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
    const ref = a.object?.spec?.boundObjectRef;
    if (!ref || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) throw forbidden(a, 'node requested token not bound to a pod');
    if (!ref.uid) throw forbidden(a, 'node requested token with a pod binding without a uid');
    const live = await livePod(a, ref.name);
    if (ref.uid !== live.metadata?.uid) {
      throw forbidden(a, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
    }
    if (live.spec?.nodeName !== nodeName) throw forbidden(a, 'node requested token bound to a pod scheduled on a different node');
  }

  function sameNameAsNode(nodeName: string, a: AdmissionAttributes, what: string): void {
    // on create the name is the object's
    const name = creating(a) ? (a.object?.metadata?.name ?? '') : a.name;
    if (name !== nodeName) throw forbidden(a, `can only access ${what} with the same name as the requesting node`);
  }

  return {
    name: 'NodeRestriction',
    // only nodes' own requests are restricted
    handles: (a) => a.operation !== 'CONNECT' && nodeIdentity(a.user) !== undefined,
    async admit(a) {
      if (a.operation === 'CONNECT') return;
      const nodeName = nodeIdentity(a.user);
      if (nodeName === undefined) return;
      if (!nodeName) throw forbidden(a, `could not determine node from user ${JSON.stringify(a.user.name)}`);
      switch (`${a.group}/${a.resource}`) {
        case '/pods':
          return pod(nodeName, a);
        case '/nodes':
          return node(nodeName, a);
        case '/persistentvolumeclaims':
          return pvcStatus(nodeName, a);
        case '/serviceaccounts':
          return tokenRequest(nodeName, a);
        case 'coordination.k8s.io/leases':
          if (a.namespace !== NODE_LEASE_NAMESPACE) throw forbidden(a, `can only access leases in the ${JSON.stringify(NODE_LEASE_NAMESPACE)} system namespace`);
          return sameNameAsNode(nodeName, a, 'node lease');
        case 'storage.k8s.io/csinodes':
          return sameNameAsNode(nodeName, a, 'CSINode');
        default:
          return;
      }
    },
  };
}
