// The authorization stage's deciders until the authorization modes land
// (RBAC, Node, ABAC, Webhook): AlwaysAllow, AlwaysDeny, and the default,
// which lets every authenticated user do everything and lets the anonymous
// user only read health, version and discovery (kube-apiserver's
// system:public-info-viewer and system:discovery paths). Denials carry
// kube-apiserver's Forbidden messages.

import { type ApiError, errors } from '../api/errors.ts';
import { ANONYMOUS, type UserInfo } from '../auth/user.ts';
import type { RequestInfo } from './request-info.ts';

export interface Authorizer {
  /** Throws a 403 ApiError to deny. */
  authorize(user: UserInfo, info: RequestInfo): Promise<void> | void;
}

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

/** Paths the anonymous user may read by default: health, version, discovery and OpenAPI. */
export function publicInfoPath(path: string): boolean {
  if (['/healthz', '/livez', '/readyz', '/version', '/version/', '/api', '/apis', '/openapi'].includes(path)) return true;
  return /^\/(healthz|livez|readyz|api|apis|openapi)\//.test(path);
}

export const alwaysAllow: Authorizer = { authorize() {} };

export const alwaysDeny: Authorizer = {
  authorize(user, info) {
    throw forbidden(user, info);
  },
};

/** The default until the authorization modes land: authenticated users may do anything, anonymous only read public information. */
export const authenticatedOnly: Authorizer = {
  authorize(user, info) {
    if (user.name !== ANONYMOUS.name) return;
    if (!info.isResourceRequest && (info.verb === 'get' || info.verb === 'head') && publicInfoPath(info.path)) return;
    throw forbidden(user, info);
  },
};

/** The modes of --authorization-mode this build has (in order; the first decides, as each decides everything). */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny'] as const;

export class AuthorizationModeError extends Error {}

/** The authorizer for --authorization-mode (empty: the default above). */
export function authorizerFor(modes: string[]): Authorizer {
  if (!modes.length) return authenticatedOnly;
  for (const m of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(m)) {
      throw new AuthorizationModeError(
        `--authorization-mode ${m} is not supported by this build yet (supported: ${AUTHORIZATION_MODES.join(', ')}; unset: authenticated users may do anything, anonymous only read health, version and discovery)`,
      );
    }
  }
  // each supported mode decides every request, so the first one is the answer
  return modes[0] === 'AlwaysAllow' ? alwaysAllow : alwaysDeny;
}
