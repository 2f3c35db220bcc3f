// Impersonation as kube-apiserver does it: the `Impersonate-User`,
// `Impersonate-Group` (repeatable), `Impersonate-Uid` and
// `Impersonate-Extra-<key>` headers become a list of authorization checks
// (verb `impersonate` on users / groups / serviceaccounts in the core group,
// uids and userextras/<key> in authentication.k8s.io), each of which the
// requesting user must pass; then the request runs as the impersonated user.
// Upstream's rules: a service-account user name is checked as that
// serviceaccount in its namespace and, without Impersonate-Group, gets the
// service-account groups; system:authenticated (or, for system:anonymous,
// system:unauthenticated) is added; groups, extra or uid without a user are
// refused. The headers are consumed: the caller removes them.

import { ApiError, errors } from '../api/errors.ts';
import { goQuote } from '../api/go-format.ts';
import { GROUP_AUTHENTICATED, GROUP_SERVICE_ACCOUNTS, GROUP_UNAUTHENTICATED, SERVICE_ACCOUNT_GROUP_PREFIX, SERVICE_ACCOUNT_USER_PREFIX, USER_ANONYMOUS } from '../api/k8s-names.ts';
import { validateDNS1123Label, validateDNS1123Subdomain } from '../api/validation.ts';
import type { AuthRequest } from './authenticator.ts';
import { extraKey } from './extra-key.ts';
import type { UserInfo } from './user.ts';

export const IMPERSONATE_USER = 'impersonate-user';
export const IMPERSONATE_GROUP = 'impersonate-group';
export const IMPERSONATE_UID = 'impersonate-uid';
export const IMPERSONATE_EXTRA_PREFIX = 'impersonate-extra-';

const AUTHN_GROUP = 'authentication.k8s.io';

/** One authorization check, as upstream's authorizer attributes for it. */
export interface ImpersonationCheck {
  verb: 'impersonate';
  /** '' (core) for users, groups and serviceaccounts; authentication.k8s.io for uids and userextras. */
  group: string;
  /** The version of the reference's kind ('' for the core kinds, 'v1' for authentication.k8s.io). */
  version: string;
  resource: 'users' | 'groups' | 'serviceaccounts' | 'uids' | 'userextras';
  /** The extra key, for userextras. */
  subresource?: string;
  /** The namespace, for serviceaccounts. */
  namespace?: string;
  name: string;
}

export interface ParsedImpersonation {
  checks: ImpersonationCheck[];
  /** Lower-case names of the Impersonate-* headers present, which the caller removes from the request. */
  consumedHeaders: string[];
}

export type ImpersonationDecision = boolean | { allowed: boolean; reason?: string };

/** Decides one check for the requesting user (the authorizer; injected). */
export type ImpersonationAuthorize = (check: ImpersonationCheck, requestor: UserInfo) => Promise<ImpersonationDecision>;

/** Go's serviceaccount.SplitUsername: namespace and name, or undefined when not a valid service-account user name. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USER_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USER_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts;
  if (validateDNS1123Label(namespace).length || validateDNS1123Subdomain(name).length) return undefined;
  return { namespace, name };
}

/** Whether the request has any Impersonate-* header (else impersonate() has nothing to do). */
export function requestsImpersonation(req: AuthRequest): boolean {
  return req.headerNames().some((h) => h.startsWith('impersonate-'));
}

/**
 * Reads the Impersonate-* headers. Undefined when there are none; a 400
 * when groups, extra or a uid are asked for without a user.
 */
export function parseImpersonation(req: AuthRequest): ParsedImpersonation | undefined {
  // the common case: no Impersonate-* header at all
  if (!requestsImpersonation(req)) return undefined;
  const names = req.headerNames();
  const checks: ImpersonationCheck[] = [];
  const consumedHeaders = names.filter((h) => h === IMPERSONATE_USER || h === IMPERSONATE_GROUP || h === IMPERSONATE_UID || h.startsWith(IMPERSONATE_EXTRA_PREFIX));

  const requestedUser = req.header(IMPERSONATE_USER) ?? '';
  if (requestedUser) {
    const sa = splitServiceAccountUsername(requestedUser);
    if (sa) checks.push({ verb: 'impersonate', group: '', version: '', resource: 'serviceaccounts', namespace: sa.namespace, name: sa.name });
    else checks.push({ verb: 'impersonate', group: '', version: '', resource: 'users', name: requestedUser });
  }
  const groups = req.headerValues(IMPERSONATE_GROUP);
  for (const g of groups) checks.push({ verb: 'impersonate', group: '', version: '', resource: 'groups', name: g });

  let hasExtra = false;
  for (const h of names) {
    if (!h.startsWith(IMPERSONATE_EXTRA_PREFIX)) continue;
    hasExtra = true;
    const key = extraKey(h.slice(IMPERSONATE_EXTRA_PREFIX.length));
    for (const value of req.headerValues(h)) {
      checks.push({ verb: 'impersonate', group: AUTHN_GROUP, version: 'v1', resource: 'userextras', subresource: key, name: value });
    }
  }
  const uid = req.header(IMPERSONATE_UID) ?? '';
  if (uid) checks.push({ verb: 'impersonate', group: AUTHN_GROUP, version: 'v1', resource: 'uids', name: uid });

  if ((groups.length > 0 || hasExtra || uid) && !requestedUser) {
    throw errors.badRequest(`requested ${goReferences(checks)} without impersonating a user`);
  }
  if (checks.length === 0) return undefined;
  return { checks, consumedHeaders };
}

/**
 * Runs the checks for `requestor` and builds the impersonated user.
 * Undefined when the request does not impersonate; a 400 for malformed
 * headers, a 403 with upstream's message for the first denied check.
 */
export async function impersonate(req: AuthRequest, requestor: UserInfo, authorize: ImpersonationAuthorize): Promise<{ user: UserInfo; consumedHeaders: string[] } | undefined> {
  const parsed = parseImpersonation(req);
  if (!parsed) return undefined;
  const groupsSpecified = req.headerValues(IMPERSONATE_GROUP).length > 0;
  let name = '';
  let groups: string[] = [];
  let uid = '';
  const extra: Record<string, string[]> = {};
  for (const check of parsed.checks) {
    switch (check.resource) {
      case 'serviceaccounts':
        name = `${SERVICE_ACCOUNT_USER_PREFIX}${check.namespace}:${check.name}`;
        if (!groupsSpecified) groups = [GROUP_SERVICE_ACCOUNTS, `${SERVICE_ACCOUNT_GROUP_PREFIX}${check.namespace}`];
        break;
      case 'users':
        name = check.name;
        break;
      case 'groups':
        groups.push(check.name);
        break;
      case 'userextras':
        (extra[check.subresource ?? ''] ??= []).push(check.name);
        break;
      case 'uids':
        uid = check.name;
        break;
    }
    let decision: ImpersonationDecision;
    try {
      decision = await authorize(check, requestor);
    } catch {
      decision = false;
    }
    const allowed = typeof decision === 'boolean' ? decision : decision.allowed;
    if (!allowed) throw impersonationForbidden(check, requestor, typeof decision === 'boolean' ? '' : (decision.reason ?? ''));
  }
  if (name !== USER_ANONYMOUS) {
    if (!groups.includes(GROUP_AUTHENTICATED) && !groups.includes(GROUP_UNAUTHENTICATED)) groups.push(GROUP_AUTHENTICATED);
  } else if (!groups.includes(GROUP_UNAUTHENTICATED)) {
    groups.push(GROUP_UNAUTHENTICATED);
  }
  const user: UserInfo = { name, groups };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length) user.extra = extra;
  return { user, consumedHeaders: parsed.consumedHeaders };
}

const HTML = /[&<>]/g;
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** The 403 upstream's responsewriters.Forbidden writes for a denied check. */
export function impersonationForbidden(check: ImpersonationCheck, requestor: UserInfo, reason: string): ApiError {
  const resource = check.subresource !== undefined && check.subresource !== '' ? `${check.resource}/${check.subresource}` : check.resource;
  const scope = check.namespace ? `in the namespace ${goQuote(check.namespace)}` : 'at the cluster scope';
  const msg = `User ${goQuote(requestor.name)} cannot ${check.verb} resource ${goQuote(resource)} in API group ${goQuote(check.group)} ${scope}`.replace(HTML, (c) => HTML_ESCAPES[c]);
  const why = reason ? `${msg}: ${reason}` : msg;
  const qualified = check.group ? `${check.resource}.${check.group}` : check.resource;
  const subject = check.name ? `${qualified} ${goQuote(check.name)}` : qualified;
  const details: Record<string, string> = {};
  if (check.name) details.name = check.name;
  if (check.group) details.group = check.group;
  details.kind = check.resource;
  return new ApiError(403, 'Forbidden', `${subject} is forbidden: ${why}`, details);
}

/** Go's %v of the []v1.ObjectReference upstream builds (Kind Namespace Name UID APIVersion ResourceVersion FieldPath). */
function goReferences(checks: ImpersonationCheck[]): string {
  const kinds: Record<ImpersonationCheck['resource'], string> = {
    users: 'User',
    groups: 'Group',
    serviceaccounts: 'ServiceAccount',
    uids: 'UID',
    userextras: 'UserExtra',
  };
  const refs = checks.map((c) => {
    const apiVersion = c.group ? `${c.group}/${c.version}` : '';
    return `{${[kinds[c.resource], c.namespace ?? '', c.name, '', apiVersion, '', c.subresource ?? ''].join(' ')}}`;
  });
  return `[${refs.join(' ')}]`;
}
