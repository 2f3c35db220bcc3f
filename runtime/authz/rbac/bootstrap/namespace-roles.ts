// The Roles and RoleBindings kube-apiserver 1.31 creates in kube-system and
// kube-public (upstream's namespace_policy.go): leader election of the
// controller manager and scheduler, the extension-apiserver-authentication
// reader, and the bootstrap-token controllers' roles.

import type { Obj } from '../../../storage/interface.ts';
import { CORE, EVENTS_WRITE, READ, role, roleBinding, rule, serviceAccount, user } from './build.ts';

const SYSTEM = 'kube-system';
const PUBLIC = 'kube-public';
const LEADER_LOCKING = [rule('create get list update watch', ['coordination.k8s.io'], 'leases'), rule('create get list update watch', ['coordination.k8s.io'], 'leasecandidates')];

export function namespaceRoles(): Obj[] {
  return [
    role(SYSTEM, 'extension-apiserver-authentication-reader', [rule(READ, CORE, 'configmaps', 'extension-apiserver-authentication')]),
    role(SYSTEM, 'system::leader-locking-kube-controller-manager', LEADER_LOCKING),
    role(SYSTEM, 'system::leader-locking-kube-scheduler', LEADER_LOCKING),
    role(SYSTEM, 'system:controller:bootstrap-signer', [rule(READ, CORE, 'secrets')]),
    role(SYSTEM, 'system:controller:cloud-provider', [rule('create get list watch', CORE, 'configmaps')]),
    role(SYSTEM, 'system:controller:token-cleaner', [rule('delete get list watch', CORE, 'secrets'), EVENTS_WRITE]),
    role(PUBLIC, 'system:controller:bootstrap-signer', [rule(READ, CORE, 'configmaps'), rule('update', CORE, 'configmaps', 'cluster-info'), EVENTS_WRITE]),
  ];
}

export function namespaceRoleBindings(): Obj[] {
  return [
    roleBinding(SYSTEM, 'system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader', [user('system:kube-controller-manager'), user('system:kube-scheduler')]),
    roleBinding(SYSTEM, 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager', [
      user('system:kube-controller-manager'),
      serviceAccount(SYSTEM, 'kube-controller-manager'),
      serviceAccount(SYSTEM, 'leader-election-controller'),
    ]),
    roleBinding(SYSTEM, 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler', [user('system:kube-scheduler'), serviceAccount(SYSTEM, 'kube-scheduler')]),
    roleBinding(SYSTEM, 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [serviceAccount(SYSTEM, 'bootstrap-signer')]),
    roleBinding(SYSTEM, 'system:controller:cloud-provider', 'system:controller:cloud-provider', [serviceAccount(SYSTEM, 'cloud-provider')]),
    roleBinding(SYSTEM, 'system:controller:token-cleaner', 'system:controller:token-cleaner', [serviceAccount(SYSTEM, 'token-cleaner')]),
    roleBinding(PUBLIC, 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [serviceAccount(SYSTEM, 'bootstrap-signer')]),
  ];
}
