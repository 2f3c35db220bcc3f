// What every node may do regardless of the graph: upstream 1.31's
// bootstrappolicy.NodeRules() with the default feature gates (no DRA, no
// ClusterTrustBundle), as data. The Node authorizer falls back to these for
// requests it does not subdivide, and RBAC's `system:node` ClusterRole holds
// the same rules. Verbs, groups and resources are sorted, as upstream's rule
// builder stores them.

import type { PolicyRule } from '../rbac/rules.ts';

const rule = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({ apiGroups, resources, verbs });

const READ = ['get', 'list', 'watch'];

/** The node rules in upstream's order. Callers get a fresh copy each time. */
export function nodeRules(): PolicyRule[] {
  return [
    // checking API access: these creates do not mutate
    rule(['authentication.k8s.io'], ['tokenreviews'], ['create']),
    rule(['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews'], ['create']),
    // service environment variables
    rule([''], ['services'], READ),
    // registering the Node and reporting its status (NodeRestriction limits both to the node's own object)
    rule([''], ['nodes'], ['create', 'get', 'list', 'watch']),
    rule([''], ['nodes/status'], ['patch', 'update']),
    rule([''], ['nodes'], ['patch', 'update']),
    rule([''], ['events'], ['create', 'patch', 'update']),
    rule([''], ['pods'], READ),
    // mirror pods (NodeRestriction: only bound to the node itself)
    rule([''], ['pods'], ['create', 'delete']),
    rule([''], ['pods/status'], ['patch', 'update']),
    rule([''], ['pods/eviction'], ['create']),
    // the Node authorizer narrows these to objects its pods reference
    rule([''], ['configmaps', 'secrets'], READ),
    rule([''], ['persistentvolumeclaims', 'persistentvolumes'], ['get']),
    rule([''], ['endpoints'], ['get']),
    // client certificate rotation
    rule(['certificates.k8s.io'], ['certificatesigningrequests'], ['create', 'get', 'list', 'watch']),
    rule(['coordination.k8s.io'], ['leases'], ['create', 'delete', 'get', 'patch', 'update']),
    rule(['storage.k8s.io'], ['volumeattachments'], ['get']),
    rule([''], ['serviceaccounts/token'], ['create']),
    rule([''], ['persistentvolumeclaims/status'], ['get', 'patch', 'update']),
    rule(['storage.k8s.io'], ['csidrivers'], READ),
    rule(['storage.k8s.io'], ['csinodes'], ['create', 'delete', 'get', 'patch', 'update']),
    rule(['node.k8s.io'], ['runtimeclasses'], READ),
  ];
}
