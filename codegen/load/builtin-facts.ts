// Facts of built-in kinds that kube-apiserver keeps in Go, not in its OpenAPI
// documents, so that an upstream document dropped into api-specs/ (whose
// resources are read from its paths, docs/spec-format.md) serves them as
// kube-apiserver does. Only what changes how requests are answered and
// differs from the defaults of a path-declared resource (names are DNS-1123
// subdomains; PUT of a missing object is 404): the name rule of the kinds
// validated otherwise (RBAC's path-segment names; Service and Namespace
// names are DNS labels; an IPAddress is named by its address) and the
// strategies whose AllowCreateOnUpdate is true. Our own documents state the
// same facts in x-specserver-resources.
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
