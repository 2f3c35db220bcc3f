// Facts of built-in kinds that kube-apiserver keeps in Go, not in its OpenAPI
// documents, so that an upstream document dropped into api-specs/ (whose
// resources are read from its paths, docs/spec-format.md) serves them as
// kube-apiserver does. Only what changes how requests are answered and
// differs from the defaults of a path-declared resource (names are DNS-1123
// subdomains; PUT of a missing object is 404): the name rule of the kinds
// validated otherwise (RBAC's path-segment names; Service and Namespace
// names are DNS labels; an IPAddress is named by its address; a
// CertificateSigningRequest's name is any path segment) and the
// strategies whose AllowCreateOnUpdate is true; and, per group-version, what
// x-specserver-group-version would say where the defaults (GA served, a beta
// served only when introduced before 1.22) are not 1.31's: flowcontrol's
// v1beta3 is still served (deprecated in 1.29, removed in 1.32) and
// networking's v1beta1 is not. Our own documents state the same facts in
// x-specserver-resources and x-specserver-group-version.
import type { DeclaredResource } from './compact.ts';

type Facts = Partial<Pick<DeclaredResource, 'nameRule' | 'allowCreateOnUpdate'>>;

const RBAC: Facts = { nameRule: 'path-segment', allowCreateOnUpdate: true };

/** Keyed by `group/Kind` (core: `/Kind`). */
const BUILTIN_FACTS: Record<string, Facts> = {
  '/Service': { nameRule: 'label' },
  '/Namespace': { nameRule: 'label' },
  '/Endpoints': { allowCreateOnUpdate: true },
  '/LimitRange': { allowCreateOnUpdate: true },
  '/Event': { allowCreateOnUpdate: true },
  'events.k8s.io/Event': { allowCreateOnUpdate: true },
  'coordination.k8s.io/Lease': { allowCreateOnUpdate: true },
  'networking.k8s.io/IPAddress': { nameRule: 'path-segment' },
  'certificates.k8s.io/CertificateSigningRequest': { nameRule: 'path-segment' },
  'rbac.authorization.k8s.io/Role': RBAC,
  'rbac.authorization.k8s.io/ClusterRole': RBAC,
  'rbac.authorization.k8s.io/RoleBinding': RBAC,
  'rbac.authorization.k8s.io/ClusterRoleBinding': RBAC,
};

/** A resource read from upstream paths with the built-in facts of its kind applied. */
export function withBuiltinFacts(group: string, d: DeclaredResource): DeclaredResource {
  const f = BUILTIN_FACTS[`${group}/${d.kind}`];
  return f ? { ...d, ...f } : d;
}

/** Keyed by `group/version`; the shape of x-specserver-group-version. */
const BUILTIN_GROUP_VERSIONS: Record<string, Record<string, unknown>> = {
  'flowcontrol.apiserver.k8s.io/v1beta3': { introduced: '1.26', enabledByDefault: true, deprecatedIn: '1.29', removedIn: '1.32', replacement: 'flowcontrol.apiserver.k8s.io/v1' },
  'networking.k8s.io/v1beta1': { introduced: '1.31', enabledByDefault: false },
};

/** The group-version settings of a built-in group-version whose document does not state them (empty when the defaults hold). */
export function builtinGroupVersionFacts(group: string, version: string): Record<string, unknown> {
  return { ...(BUILTIN_GROUP_VERSIONS[`${group}/${version}`] ?? {}) };
}
