// The authorization stage: the request's attributes go to the chain that
// --authorization-mode built (runtime/authz/); anything but an allow is a 403
// with kube-apiserver's Forbidden message (the modes' reason after a colon),
// or a 500 when a mode failed to decide and no later one allowed. The same
// chain decides impersonation checks.

import { type ApiError, errors } from '../api/errors.ts';
import type { ImpersonationAuthorize } from '../auth/impersonation.ts';
import type { UserInfo } from '../auth/user.ts';
import { type Attributes, resourceAttributes } from '../authz/attributes.ts';
import type { AuthorizationResult, Authorizer } from '../authz/authorizer.ts';
import { isPromise, type Maybe } from '../api/maybe.ts';
import type { RequestInfo } from './request-info.ts';
import { addAuditAnnotation, type RequestRecord } from '../api/request-record.ts';

/** The audit annotations of authorization's decision (upstream's WithAuthorization). */
const DECISION = 'authorization.k8s.io/decision';
const REASON = 'authorization.k8s.io/reason';

/** `User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"`, or `... cannot get path "/x"`. */
export function deniedAction(user: UserInfo, info: RequestInfo): string {
  if (!info.isResourceRequest) return `User ${JSON.stringify(user.name)} cannot ${info.verb} path ${JSON.stringify(info.path)}`;
  const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  const scope = info.namespace ? `in the namespace ${JSON.stringify(info.namespace)}` : 'at the cluster scope';
  return `User ${JSON.stringify(user.name)} cannot ${info.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(info.apiGroup)} ${scope}`;
}

/** The 403 of a denied request (`reason`: what the authorizer adds after a colon, if anything). */
export function forbidden(user: UserInfo, info: RequestInfo, reason = ''): ApiError {
  const why = deniedAction(user, info) + (reason ? `: ${reason}` : '');
  if (!info.isResourceRequest) return errors.forbiddenRequest(why);
  return errors.forbidden({ group: info.apiGroup, resource: info.resource }, info.name, why);
}

/** The attributes of a parsed request. */
export function requestAttributes(user: UserInfo, info: RequestInfo): Attributes {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}

/**
 * Lets the request on, or throws its 403 (500 when a mode errored and none
 * allowed, as upstream). At once when the authorizer decides at once; else
 * a promise.
 */
export function authorizeRequest(authorizer: Authorizer, user: UserInfo, info: RequestInfo, record?: RequestRecord): Maybe<void> {
  const r = authorizer.authorize(requestAttributes(user, info));
  return isPromise(r) ? r.then((v) => verdict(v, user, info, record)) : verdict(r, user, info, record);
}

function verdict(r: AuthorizationResult, user: UserInfo, info: RequestInfo, record: RequestRecord | undefined): void {
  if (r.decision === 'allow') {
    if (record?.audit) {
      addAuditAnnotation(record, DECISION, 'allow');
      addAuditAnnotation(record, REASON, r.reason ?? '');
    }
    return;
  }
  if (r.error) {
    if (record?.audit) addAuditAnnotation(record, REASON, 'internal error');
    throw errors.internal(new Error(r.error));
  }
  if (record?.audit) {
    addAuditAnnotation(record, DECISION, 'forbid');
    addAuditAnnotation(record, REASON, r.reason ?? '');
  }
  throw forbidden(user, info, r.reason);
}

/** Impersonation checks decided by the chain (verb impersonate on users, groups, serviceaccounts, uids, userextras). */
export function impersonationBy(authorizer: Authorizer): ImpersonationAuthorize {
  return async (check, requestor) => {
    const r = await authorizer.authorize(
      resourceAttributes(requestor, check.verb, {
        apiGroup: check.group,
        apiVersion: check.version,
        resource: check.resource,
        subresource: check.subresource,
        namespace: check.namespace,
        name: check.name,
      }),
    );
    return { allowed: r.decision === 'allow', reason: r.reason };
  };
}
