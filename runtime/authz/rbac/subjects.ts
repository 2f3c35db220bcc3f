// Who a binding grants to (upstream's appliesTo): a User by name, a Group
// by membership, a ServiceAccount by its username
// `system:serviceaccount:<namespace>:<name>`, where a subject without a
// namespace takes the RoleBinding's (a ClusterRoleBinding has none to give,
// so such a subject matches nobody). Also the keys the index files subjects
// under, so a decision looks only at the bindings of the request's user.

import { goQuote } from '../../api/go-format.ts';
import type { UserInfo } from '../../auth/user.ts';

/** rbac.authorization.k8s.io/v1 Subject. */
export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';

/** The username of a service account. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${name}`;
}

/** Whether `subject` of a binding in `bindingNamespace` ('' for a ClusterRoleBinding) is `user`. */
export function appliesToUser(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const ns = subject.namespace || bindingNamespace;
      if (!ns) return false;
      return user.name === serviceAccountUsername(ns, subject.name);
    }
    default:
      return false;
  }
}

/** The index of the first subject that is `user`, or -1. */
export function firstApplying(user: UserInfo, subjects: Subject[], bindingNamespace: string): number {
  return subjects.findIndex((s) => appliesToUser(user, s, bindingNamespace));
}

/** How a reason names a subject (upstream's describeSubject). */
export function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${goQuote(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}

/** The index key of a subject (undefined: it can match nobody). */
export function subjectKey(s: Subject, bindingNamespace: string): string | undefined {
  switch (s.kind) {
    case 'User':
      return `u\0${s.name}`;
    case 'Group':
      return `g\0${s.name}`;
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return ns ? `u\0${serviceAccountUsername(ns, s.name)}` : undefined;
    }
    default:
      return undefined;
  }
}

/** The keys under which the bindings that may apply to `user` are filed. */
export function userKeys(user: UserInfo): string[] {
  const keys = [`u\0${user.name}`];
  for (const g of user.groups) keys.push(`g\0${g}`);
  return keys;
}
