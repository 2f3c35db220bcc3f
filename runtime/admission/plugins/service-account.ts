// ServiceAccount admission, the part every Pod relies on:
//   - a Pod created without spec.serviceAccountName runs as its namespace's
//     `default` account (the deprecated spec.serviceAccount mirrors it);
//   - unless the Pod or its account says automountServiceAccountToken:
//     false, the Pod gets upstream's projected volume `kube-api-access-<5>`
//     (a bound service-account token, the kube-root-ca.crt ConfigMap's
//     ca.crt, the namespace) mounted read-only at
//     /var/run/secrets/kubernetes.io/serviceaccount in every container and
//     init container that has nothing mounted there;
//   - the account's imagePullSecrets, when the Pod names none;
//   - a Pod whose account does not exist is refused (403), in both halves
//     as upstream. The service-account controller creates `default`
//     asynchronously after a namespace appears, so, like upstream (which
//     asks again for a while), a missing `default` is waited for when the
//     account source can wait: the first Pod of a new namespace does not
//     race the controller.

import { randomInt } from 'node:crypto';
import { ApiError, errors } from '../../api/errors.ts';
import { ROOT_CA_CONFIGMAP } from '../../api/k8s-names.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';

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
      { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

/** Where the plugin reads ServiceAccounts. */
export interface ServiceAccountSource {
  /** The account, or undefined when it does not exist. */
  get(namespace: string, name: string): Promise<Obj | undefined>;
  /**
   * Waits, for a bounded time, for an account the service-account
   * controller is about to create; undefined when it did not appear.
   * Absent when no controller creates accounts.
   */
  awaitCreated?(namespace: string, name: string): Promise<Obj | undefined>;
}

const PODS = { group: '', resource: 'pods' };

/** The name a refusal names, as upstream's admission.NewForbidden: the request's, else the object's name or generateName, else Unknown. */
function refusedName(attrs: AdmissionAttributes, pod: Obj): string {
  if (attrs.name) return attrs.name;
  const md = pod.metadata;
  return (typeof md?.name === 'string' && md.name) || (typeof md?.generateName === 'string' && md.generateName) || 'Unknown';
}

/** The account a Pod names; a missing `default` is waited for (upstream asks again for a while). Refuses with 403 when it does not exist. */
async function accountOf(source: ServiceAccountSource, attrs: AdmissionAttributes, pod: Obj, name: string): Promise<Obj> {
  const ns = attrs.namespace;
  let sa: Obj | undefined;
  try {
    sa = await source.get(ns, name);
    if (!sa && name === DEFAULT_SERVICE_ACCOUNT_NAME && source.awaitCreated) sa = await source.awaitCreated(ns, name);
  } catch (err) {
    if (err instanceof ApiError) throw errors.forbidden(PODS, refusedName(attrs, pod), `error looking up service account ${ns}/${name}: ${err.message}`);
    throw err;
  }
  if (!sa) throw errors.forbidden(PODS, refusedName(attrs, pod), `error looking up service account ${ns}/${name}: serviceaccount "${name}" not found`);
  return sa;
}

/** A Pod created through the main resource (not a subresource), other than a mirror pod: what the plugin acts on. */
function podToCreate(attrs: AdmissionAttributes): Obj | undefined {
  if (attrs.operation !== 'CREATE' || attrs.group !== '' || attrs.resource !== 'pods' || attrs.subresource !== '') return undefined;
  const pod = attrs.object;
  if (!pod || typeof pod !== 'object') return undefined;
  // mirror pods (static pods of a kubelet) keep what they have, as upstream
  if (pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return undefined;
  return pod;
}

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

export function serviceAccountPlugin(source: ServiceAccountSource, randomSuffix = () => Array.from({ length: 5 }, () => ALPHANUMS[randomInt(ALPHANUMS.length)]).join('')): AdmissionPlugin {
  return {
    name: 'ServiceAccount',
    handles: (attrs) => podToCreate(attrs) !== undefined,
    async admit(attrs) {
      const pod = podToCreate(attrs);
      if (!pod) return;
      const spec = (pod.spec ??= {});
      const name = spec.serviceAccountName || spec.serviceAccount || DEFAULT_SERVICE_ACCOUNT_NAME;
      spec.serviceAccountName = name;
      spec.serviceAccount = name;
      const sa = await accountOf(source, attrs, pod, name);
      const automount =
        typeof spec.automountServiceAccountToken === 'boolean' ? spec.automountServiceAccountToken : typeof sa.automountServiceAccountToken === 'boolean' ? sa.automountServiceAccountToken : true;
      if (automount) mountToken(spec, randomSuffix);
      if (!spec.imagePullSecrets?.length && Array.isArray(sa.imagePullSecrets) && sa.imagePullSecrets.length) {
        spec.imagePullSecrets = sa.imagePullSecrets.map((s: Obj) => ({ name: s?.name }));
      }
    },
    // the Pod as it will be stored (a later mutating plugin may have changed it) still names an account that exists
    async validate(attrs) {
      const pod = podToCreate(attrs);
      if (!pod) return;
      const name = pod.spec?.serviceAccountName;
      if (typeof name !== 'string' || !name) throw errors.forbidden(PODS, refusedName(attrs, pod), `no service account specified for pod ${attrs.namespace}/${pod.metadata?.name ?? ''}`);
      await accountOf(source, attrs, pod, name);
    },
  };
}
