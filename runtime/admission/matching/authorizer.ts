// The server's authorizer as CEL's `authorizer` variable asks it: CEL
// evaluates synchronously, so a decision that only comes later (a webhook
// authorizer not in its cache) is an errored decision, which expressions
// see through `errored()` and `error()`.

import { isPromise } from '../../api/maybe.ts';
import type { UserInfo } from '../../auth/user.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import { resourceAttributes, pathAttributes } from '../../authz/attributes.ts';
import type { Authorizer as CelAuthorizer } from '../../cel/index.ts';

export const ASYNC_DECISION = 'the authorizer could not decide while the expression was evaluated';

/** CEL's view of the server's authorizer; `user` is the request's full identity (uid and extra kept). */
export function celAuthorizer(authz: Authorizer, user: UserInfo): CelAuthorizer {
  return {
    authorize(a) {
      // serviceAccount(ns, name) asks for another user: the one the expression names
      const who: UserInfo = a.user.name === user.name ? user : { name: a.user.name, groups: a.user.groups ?? [] };
      const attrs = a.resourceRequest
        ? resourceAttributes(who, a.verb, { apiGroup: a.group ?? '', resource: a.resource ?? '', subresource: a.subresource ?? '', namespace: a.namespace ?? '', name: a.name ?? '' })
        : pathAttributes(who, a.verb, a.path ?? '');
      const r = authz.authorize(attrs);
      if (isPromise(r)) {
        r.catch(() => undefined);
        return { decision: 'noopinion', reason: '', error: ASYNC_DECISION };
      }
      return { decision: r.decision, reason: r.reason, ...(r.error !== undefined ? { error: r.error } : {}) };
    },
  };
}
