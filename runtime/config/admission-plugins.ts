// --enable-admission-plugins and --disable-admission-plugins, with
// kube-apiserver 1.31's semantics: the plugins run in the server's fixed
// order (upstream's AllOrderedPlugins), whatever order the flags name them
// in; --enable-admission-plugins adds to the default set,
// --disable-admission-plugins takes from it; a name upstream does not know,
// or one named in both flags, stops the server at start with upstream's
// message. Which of upstream's plugins this server implements is
// IMPLEMENTED below. Enabling any other upstream plugin is refused (it
// would silently do nothing); disabling one is accepted, since it does not
// run here anyway. The default set is
// upstream's default-on plugins that are implemented here, plus
// NodeRestriction, which clusters set up with the Node authorizer (this
// server's default --authorization-mode is Node,RBAC) enable beside it.

export class AdmissionPluginsFlagError extends Error {}

/** kube-apiserver 1.31's admission plugins in the order it runs them (pkg/kubeapiserver/options/plugins.go). */
export const UPSTREAM_ORDER = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
] as const;

/** Upstream's default-on plugins (DefaultOffAdmissionPlugins' complement). */
export const UPSTREAM_DEFAULT_ON: ReadonlySet<string> = new Set([
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'DefaultStorageClass',
  'PersistentVolumeClaimResize',
  'DefaultTolerationSeconds',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'StorageObjectInUseProtection',
  'Priority',
  'TaintNodesByCondition',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'PodSecurity',
  'ValidatingAdmissionPolicy',
]);

/** The upstream plugins this server implements. */
export const IMPLEMENTED: ReadonlySet<string> = new Set([
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'PodSecurity',
  'Priority',
  'CertificateApproval',
  'CertificateSigning',
  'CertificateSubjectRestriction',
  'TaintNodesByCondition',
  'DefaultTolerationSeconds',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'DefaultIngressClass',
  'ResourceQuota',
  'ValidatingAdmissionPolicy',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionWebhook',
]);

const KNOWN: ReadonlySet<string> = new Set(UPSTREAM_ORDER);

/** This server's default set: the implemented default-on plugins, and NodeRestriction. */
export function defaultAdmissionPlugins(): Set<string> {
  return new Set([...IMPLEMENTED].filter((p) => UPSTREAM_DEFAULT_ON.has(p) || p === 'NodeRestriction'));
}

/** Go's %v of a sorted []string: `[A B]`. */
const goList = (names: string[]): string => `[${names.join(' ')}]`;

/**
 * The plugins to run, in the server's order. Throws AdmissionPluginsFlagError
 * with every problem (one message, or several as `[a, b]`, as upstream's
 * aggregated error prints).
 */
export function enabledAdmissionPlugins(enable: string[] = [], disable: string[] = []): string[] {
  const errs: string[] = [];
  for (const name of enable) {
    if (!KNOWN.has(name)) errs.push(`enable-admission-plugins plugin ${JSON.stringify(name)} is unknown`);
    else if (!IMPLEMENTED.has(name)) errs.push(`enable-admission-plugins plugin ${JSON.stringify(name)} is not implemented by this server`);
  }
  for (const name of disable) if (!KNOWN.has(name)) errs.push(`disable-admission-plugins plugin ${JSON.stringify(name)} is unknown`);
  const both = [...new Set(enable.filter((n) => disable.includes(n)))].sort();
  if (both.length) errs.push(`${goList(both)} in enable-admission-plugins and disable-admission-plugins overlapped`);
  if (errs.length) throw new AdmissionPluginsFlagError(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  const on = defaultAdmissionPlugins();
  for (const n of enable) on.add(n);
  for (const n of disable) on.delete(n);
  return UPSTREAM_ORDER.filter((n) => on.has(n));
}
