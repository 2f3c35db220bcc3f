// The whole bootstrap policy kube-apiserver reconciles at start: ClusterRoles
// (people's, components', controllers'), their ClusterRoleBindings, and the
// Roles and RoleBindings of kube-system and kube-public, in the order they
// are reconciled (roles before the bindings that name them).

import type { Obj } from '../../../storage/interface.ts';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './cluster-roles.ts';
import { controllerRoleBindings, controllerRoles } from './controller-roles.ts';
import { namespaceRoleBindings, namespaceRoles } from './namespace-roles.ts';

export interface BootstrapPolicy {
  clusterRoles: Obj[];
  clusterRoleBindings: Obj[];
  roles: Obj[];
  roleBindings: Obj[];
}

export function bootstrapPolicy(): BootstrapPolicy {
  return {
    clusterRoles: [...bootstrapClusterRoles(), ...controllerRoles()],
    clusterRoleBindings: [...bootstrapClusterRoleBindings(), ...controllerRoleBindings()],
    roles: namespaceRoles(),
    roleBindings: namespaceRoleBindings(),
  };
}
