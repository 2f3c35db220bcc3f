// ServiceAccount admission, the part every Pod relies on:
//   - a Pod created without spec.serviceAccountName runs as its namespace's
//     `default` account (the deprecated spec.serviceAccount mirrors it);
//   - unless the Pod or its account says automountServiceAccountToken:
//     false, the Pod gets upstream's projected volume `kube-api-access-<5>`
//     (a bound service-account token, the kube-root-ca.crt ConfigMap's
//     ca.crt, the namespace) mounted read-only at
//     /var/run/secrets/kubernetes.io/serviceaccount in every container and
//     init container that has nothing mounted there;
//   - the account's imagePullSecrets, when the Pod names none.
// Unlike upstream, a Pod whose account does not exist (yet) is not refused:
// the account controller creates `default` asynchronously after a namespace
// appears, and refusing would make the first Pod of a new namespace race it.

import { randomInt } from 'node:crypto';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionPlugin } from '../chain.ts';

export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';
export const TOKEN_VOLUME_PREFIX = 'kube-api-access-';
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** The lifetime kubelet asks for a projected token (3607 s: upstream's warn-only bound-token lifetime). */
const TOKEN_EXPIRATION_SECONDS = 3607;
/** utilrand.String's alphabet (no vowels, no confusable digits). */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** The projected volume source upstream mounts for a service-account token. */
export function tokenVolumeSource(): Obj {
  return {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

/** Reads a ServiceAccount (undefined when it does not exist). */
export type ServiceAccountLookup = (namespace: string, name: string) => Promise<Obj | undefined>;

function mountToken(spec: Obj, randomSuffix: () => string): void {
  const volumes: Obj[] = spec.volumes ?? [];
  const existing = volumes.find((v) => typeof v?.name === 'string' && v.name.startsWith(TOKEN_VOLUME_PREFIX));
  const names = new Set(volumes.map((v) => v?.name));
  let volumeName: string = existing?.name;
  while (!volumeName || (!existing && names.has(volumeName))) volumeName = `${TOKEN_VOLUME_PREFIX}${randomSuffix()}`;
  let needed = false;
  for (const list of [spec.initContainers, spec.containers] as (Obj[] | undefined)[]) {
    for (const c of list ?? []) {
      if (!c || typeof c !== 'object') continue;
      const mounts: Obj[] = c.volumeMounts ?? [];
      if (mounts.some((m) => m?.mountPath === TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      needed = true;
    }
  }
  if (needed && !existing) spec.volumes = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
}

export function serviceAccountPlugin(lookup: ServiceAccountLookup, randomSuffix = () => Array.from({ length: 5 }, () => ALPHANUMS[randomInt(ALPHANUMS.length)]).join('')): AdmissionPlugin {
  return {
    name: 'ServiceAccount',
    async admit(attrs) {
      if (attrs.operation !== 'CREATE' || attrs.group !== '' || attrs.resource !== 'pods' || attrs.subresource !== '') return;
      const pod = attrs.object;
      if (!pod || typeof pod !== 'object') return;
      // mirror pods (static pods of a kubelet) keep what they have, as upstream
      if (pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return;
      const spec = (pod.spec ??= {});
      const name = spec.serviceAccountName || spec.serviceAccount || DEFAULT_SERVICE_ACCOUNT_NAME;
      spec.serviceAccountName = name;
      spec.serviceAccount = name;
      const sa = await lookup(attrs.namespace, name);
      const automount =
        typeof spec.automountServiceAccountToken === 'boolean' ? spec.automountServiceAccountToken : typeof sa?.automountServiceAccountToken === 'boolean' ? sa.automountServiceAccountToken : true;
      if (automount) mountToken(spec, randomSuffix);
      if (!spec.imagePullSecrets?.length && Array.isArray(sa?.imagePullSecrets) && sa.imagePullSecrets.length) {
        spec.imagePullSecrets = sa.imagePullSecrets.map((s: Obj) => ({ name: s?.name }));
      }
    },
  };
}
