// The Node authorization mode (upstream's NodeAuthorizer, 1.31 with default
// feature gates): only for users named `system:node:<name>` in group
// `system:nodes`. Secrets and ConfigMaps (get, list, watch of one named
// object), PVCs, PVs, ResourceClaims and VolumeAttachments (get) only when the
// graph links them to the node; `serviceaccounts/token` create only for
// accounts of its pods; PVC status updates only for its claims; its own Lease
// in kube-node-lease and its own CSINode; everything else by the static node
// rules. No opinion (with upstream's reason) otherwise, so a later mode may
// still allow. Rules cannot be listed for nodes.

import { GROUP_NODES, NODE_USER_PREFIX } from '../../api/k8s-names.ts';
import type { UserInfo } from '../../auth/user.ts';
import type { Attributes } from '../attributes.ts';
import { type AuthorizationMode, type AuthorizationResult, ALLOW, NO_OPINION } from '../authorizer.ts';
import { type PolicyRule, ruleAllows } from '../rbac/rules.ts';
import type { NodeGraph, VertexType } from './graph.ts';
import { nodeRules } from './node-rules.ts';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/**
 * Upstream's default node identifier: the node's name for a user
 * `system:node:<name>` in `system:nodes` (possibly empty), undefined for
 * anyone else.
 */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.name.startsWith(NODE_USER_PREFIX)) return undefined;
  if (!user.groups.includes(GROUP_NODES)) return undefined;
  return user.name.slice(NODE_USER_PREFIX.length);
}

const noOpinion = (reason: string): AuthorizationResult => ({ decision: 'noopinion', reason });

export class NodeAuthorizer {
  private readonly rules: PolicyRule[];

  constructor(
    private readonly graph: NodeGraph,
    rules: PolicyRule[] = nodeRules(),
  ) {
    this.rules = rules;
  }

  authorize(a: Attributes): AuthorizationResult {
    const nodeName = nodeIdentity(a.user);
    if (nodeName === undefined) return NO_OPINION;
    if (!nodeName) return noOpinion(`unknown node for user ${JSON.stringify(a.user.name)}`);
    if (a.isResourceRequest) {
      const decided = this.subdivided(nodeName, a);
      if (decided) return decided;
    }
    return this.rules.some((r) => ruleAllows(a, r)) ? ALLOW : NO_OPINION;
  }

  /** The resources upstream decides itself; undefined for the rest. */
  private subdivided(nodeName: string, a: Attributes): AuthorizationResult | undefined {
    switch (`${a.apiGroup}/${a.resource}`) {
      case '/secrets':
        return this.readNamespaced(nodeName, 'secret', a);
      case '/configmaps':
        return this.readNamespaced(nodeName, 'configmap', a);
      case '/persistentvolumeclaims':
        return a.subresource === 'status' ? this.statusUpdate(nodeName, 'pvc', a) : this.get(nodeName, 'pvc', a);
      case '/persistentvolumes':
        return this.get(nodeName, 'pv', a);
      case 'resource.k8s.io/resourceclaims':
        return this.get(nodeName, 'resourceclaim', a);
      case 'storage.k8s.io/volumeattachments':
        return this.get(nodeName, 'volumeattachment', a);
      case '/serviceaccounts':
        return this.createToken(nodeName, a);
      case 'coordination.k8s.io/leases':
        return this.lease(nodeName, a);
      case 'storage.k8s.io/csinodes':
        return this.csiNode(nodeName, a);
      case 'resource.k8s.io/resourceslices':
        return this.resourceSlice(nodeName, a);
      default:
        return undefined;
    }
  }

  private statusUpdate(nodeName: string, type: VertexType, a: Attributes): AuthorizationResult {
    if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('can only get/update/patch this type');
    return this.related(nodeName, type, a);
  }

  private get(nodeName: string, type: VertexType, a: Attributes): AuthorizationResult {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource) return noOpinion('cannot get subresource');
    return this.related(nodeName, type, a);
  }

  private readNamespaced(nodeName: string, type: VertexType, a: Attributes): AuthorizationResult {
    if (a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch') return noOpinion('can only read resources of this type');
    if (a.subresource) return noOpinion('cannot read subresource');
    if (!a.namespace) return noOpinion('can only read namespaced object of this type');
    return this.related(nodeName, type, a);
  }

  private related(nodeName: string, type: VertexType, a: Attributes): AuthorizationResult {
    if (!a.name) return noOpinion('No Object name found');
    return this.graph.hasPathFrom(nodeName, type, a.namespace, a.name) ? ALLOW : noOpinion(noRelationship(nodeName));
  }

  private createToken(nodeName: string, a: Attributes): AuthorizationResult {
    if (a.verb !== 'create' || !a.name) return noOpinion('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return this.graph.hasPathFrom(nodeName, 'serviceAccount', a.namespace, a.name) ? ALLOW : noOpinion(noRelationship(nodeName));
  }

  private lease(nodeName: string, a: Attributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the ${JSON.stringify(NODE_LEASE_NAMESPACE)} system namespace`);
    // the name of a create is not known here: NodeRestriction admission checks it
    if (a.verb !== 'create' && a.name !== nodeName) return noOpinion('can only access node lease with the same name as the requesting node');
    return ALLOW;
  }

  private csiNode(nodeName: string, a: Attributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a CSINode');
    if (a.subresource) return noOpinion('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== nodeName) return noOpinion('can only access CSINode with the same name as the requesting node');
    return ALLOW;
  }

  private resourceSlice(nodeName: string, a: Attributes): AuthorizationResult {
    if (a.subresource) return noOpinion('cannot authorize ResourceSlice subresources');
    // without field-selector authorization (alpha in 1.31) lists and watches are not narrowed
    switch (a.verb) {
      case 'create':
      case 'watch':
      case 'list':
      case 'deletecollection':
        return ALLOW;
      case 'get':
      case 'update':
      case 'patch':
      case 'delete':
        return this.related(nodeName, 'resourceslice', a);
      default:
        return noOpinion('only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection');
    }
  }
}

const noRelationship = (nodeName: string) => `no relationship found between node '${nodeName}' and this object`;

/** The `Node` mode over a graph kept current elsewhere. */
export function nodeMode(graph: NodeGraph): AuthorizationMode {
  const authorizer = new NodeAuthorizer(graph);
  return {
    name: 'Node',
    authorizer,
    ruleResolver: {
      rulesFor: (user) =>
        nodeIdentity(user) !== undefined
          ? { resourceRules: [], nonResourceRules: [], incomplete: true, error: 'node authorizer does not support user rule resolution' }
          : { resourceRules: [], nonResourceRules: [], incomplete: false },
    },
  };
}
