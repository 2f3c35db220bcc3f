// Which Node labels a kubelet may not add, remove or change (upstream's
// NodeRestriction getForbiddenLabels with kubelet's IsKubeletLabel): any key
// in the node-restriction.kubernetes.io namespace (or a subdomain of it), and
// any kubernetes.io or k8s.io key that is not one of the kubelet's own labels
// (hostname, topology, instance type, os, arch, and the kubelet.kubernetes.io
// and node.kubernetes.io namespaces).

const NODE_RESTRICTION_NAMESPACE = 'node-restriction.kubernetes.io';

const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

const labelNamespace = (key: string): string => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inNamespace = (ns: string, base: string) => ns === base || ns.endsWith(`.${base}`);

function isKubeletLabel(key: string): boolean {
  if (KUBELET_LABELS.has(key)) return true;
  const ns = labelNamespace(key);
  return KUBELET_LABEL_NAMESPACES.some((base) => inNamespace(ns, base));
}

function isKubernetesLabel(key: string): boolean {
  const ns = labelNamespace(key);
  return inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
}

type Labels = Record<string, string> | undefined | null;

/** Keys added, removed or changed between the two label maps that a node may not touch, sorted. */
export function forbiddenNodeLabels(now: Labels, before: Labels): string[] {
  const a = now ?? {};
  const b = before ?? {};
  const modified = new Set<string>();
  for (const k of Object.keys(a)) if (!(k in b) || a[k] !== b[k]) modified.add(k);
  for (const k of Object.keys(b)) if (!(k in a) || a[k] !== b[k]) modified.add(k);
  const out = [...modified].filter((k) => inNamespace(labelNamespace(k), NODE_RESTRICTION_NAMESPACE) || (isKubernetesLabel(k) && !isKubeletLabel(k)));
  return out.sort();
}
