// What a Pod or PersistentVolume names that a kubelet must read: upstream's
// VisitPodSecretNames, VisitPodConfigmapNames (image pull secrets, env and
// envFrom of init, regular and ephemeral containers, volume sources,
// projected sources), the PVCs of persistentVolumeClaim and ephemeral
// volumes, the ResourceClaims of spec.resourceClaims, and VisitPVSecretNames
// (with whether the kubelet sees the secret). Used by the Node authorizer's
// graph and by NodeRestriction admission.

import type { Obj } from '../../storage/interface.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter((x): x is Obj => typeof x === 'object' && x !== null) : []);
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);

/** Init, regular and ephemeral containers (upstream's AllContainers). */
function containers(spec: Obj): Obj[] {
  return [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)];
}

function uniqueNonEmpty(names: string[]): string[] {
  return [...new Set(names.filter((n) => n !== ''))];
}

/** Names of the Secrets a Pod references (its own namespace). */
export function podSecretNames(pod: Obj): string[] {
  const spec = obj(pod.spec) ?? {};
  const out: string[] = list(spec.imagePullSecrets).map((r) => str(r.name));
  for (const c of containers(spec)) {
    for (const e of list(c.envFrom)) if (obj(e.secretRef)) out.push(str(e.secretRef.name));
    for (const e of list(c.env)) if (obj(obj(e.valueFrom)?.secretKeyRef)) out.push(str(e.valueFrom.secretKeyRef.name));
  }
  for (const v of list(spec.volumes)) {
    // the first source present counts, as upstream's switch
    if (obj(v.azureFile)) out.push(str(v.azureFile.secretName));
    else if (obj(v.cephfs)) out.push(str(obj(v.cephfs.secretRef)?.name));
    else if (obj(v.cinder)) out.push(str(obj(v.cinder.secretRef)?.name));
    else if (obj(v.flexVolume)) out.push(str(obj(v.flexVolume.secretRef)?.name));
    else if (obj(v.projected)) for (const s of list(v.projected.sources)) out.push(str(obj(s.secret)?.name));
    else if (obj(v.rbd)) out.push(str(obj(v.rbd.secretRef)?.name));
    else if (obj(v.secret)) out.push(str(v.secret.secretName));
    else if (obj(v.scaleIO)) out.push(str(obj(v.scaleIO.secretRef)?.name));
    else if (obj(v.iscsi)) out.push(str(obj(v.iscsi.secretRef)?.name));
    else if (obj(v.storageos)) out.push(str(obj(v.storageos.secretRef)?.name));
    else if (obj(v.csi)) out.push(str(obj(v.csi.nodePublishSecretRef)?.name));
  }
  return uniqueNonEmpty(out);
}

/** Names of the ConfigMaps a Pod references. */
export function podConfigMapNames(pod: Obj): string[] {
  const spec = obj(pod.spec) ?? {};
  const out: string[] = [];
  for (const c of containers(spec)) {
    for (const e of list(c.envFrom)) if (obj(e.configMapRef)) out.push(str(e.configMapRef.name));
    for (const e of list(c.env)) if (obj(obj(e.valueFrom)?.configMapKeyRef)) out.push(str(e.valueFrom.configMapKeyRef.name));
  }
  for (const v of list(spec.volumes)) {
    if (obj(v.projected)) for (const s of list(v.projected.sources)) out.push(str(obj(s.configMap)?.name));
    else if (obj(v.configMap)) out.push(str(v.configMap.name));
  }
  return uniqueNonEmpty(out);
}

/** Claims of persistentVolumeClaim volumes and of generic ephemeral volumes (`<pod>-<volume>`). */
export function podClaimNames(pod: Obj): string[] {
  const spec = obj(pod.spec) ?? {};
  const podName = str(obj(pod.metadata)?.name);
  const out: string[] = [];
  for (const v of list(spec.volumes)) {
    if (obj(v.persistentVolumeClaim)) out.push(str(v.persistentVolumeClaim.claimName));
    else if (obj(v.ephemeral)) out.push(`${podName}-${str(v.name)}`);
  }
  return uniqueNonEmpty(out);
}

/**
 * ResourceClaims of spec.resourceClaims: a claim named directly, or the one
 * generated from a template once status.resourceClaimStatuses names it (a
 * null name there: no claim was needed).
 */
export function podResourceClaimNames(pod: Obj): string[] {
  const spec = obj(pod.spec) ?? {};
  const statuses = list(obj(pod.status)?.resourceClaimStatuses);
  const out: string[] = [];
  for (const c of list(spec.resourceClaims)) {
    if (typeof c.resourceClaimName === 'string') out.push(c.resourceClaimName);
    else if (typeof c.resourceClaimTemplateName === 'string') {
      const st = statuses.find((s) => s.name === c.name);
      if (st) out.push(str(st.resourceClaimName));
    }
  }
  return uniqueNonEmpty(out);
}

export interface PVSecretRef {
  namespace: string;
  name: string;
  /** The kubelet reads it (node publish, stage and expand secrets; not the controller's). */
  kubeletVisible: boolean;
}

/** Secrets a PersistentVolume names; a reference without a namespace is in the bound claim's namespace where upstream says so. */
export function pvSecretRefs(pv: Obj): PVSecretRef[] {
  const spec = obj(pv.spec) ?? {};
  const claimNs = str(obj(spec.claimRef)?.namespace);
  const out: PVSecretRef[] = [];
  const add = (namespace: string, name: string, kubeletVisible = true) => {
    if (name) out.push({ namespace, name, kubeletVisible });
  };
  const withClaimNs = (ref: Obj | undefined) => {
    if (ref) add(str(ref.namespace) || claimNs, str(ref.name));
  };
  if (obj(spec.azureFile)) add(str(spec.azureFile.secretNamespace) || claimNs, str(spec.azureFile.secretName));
  else if (obj(spec.cephfs)) withClaimNs(obj(spec.cephfs.secretRef));
  else if (obj(spec.cinder)) add(str(obj(spec.cinder.secretRef)?.namespace), str(obj(spec.cinder.secretRef)?.name));
  else if (obj(spec.flexVolume)) withClaimNs(obj(spec.flexVolume.secretRef));
  else if (obj(spec.rbd)) withClaimNs(obj(spec.rbd.secretRef));
  else if (obj(spec.scaleIO)) withClaimNs(obj(spec.scaleIO.secretRef));
  else if (obj(spec.iscsi)) withClaimNs(obj(spec.iscsi.secretRef));
  else if (obj(spec.storageos)) add(str(obj(spec.storageos.secretRef)?.namespace), str(obj(spec.storageos.secretRef)?.name));
  else if (obj(spec.csi)) {
    const csi = spec.csi as Obj;
    for (const [field, visible] of [
      ['controllerPublishSecretRef', false],
      ['controllerExpandSecretRef', false],
      ['nodePublishSecretRef', true],
      ['nodeStageSecretRef', true],
      ['nodeExpandSecretRef', true],
    ] as const) {
      const ref = obj(csi[field]);
      if (ref) add(str(ref.namespace), str(ref.name), visible);
    }
  }
  return out;
}
