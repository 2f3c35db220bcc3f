// Review kinds (TokenReview, SelfSubjectReview, SubjectAccessReview and its
// local and self forms, SelfSubjectRulesReview): a POST is answered with the
// object and its computed status, and nothing is stored.

import type { AuthResult } from '../../auth/authenticator.ts';
import type { UserInfo } from '../../auth/user.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import type { Obj } from '../../storage/interface.ts';
import { readObjectBody } from '../body.ts';
import { errors } from '../../api/errors.ts';
import { type RequestContext, bodyProtobuf } from './context.ts';
import { checkBody } from './body-check.ts';
import { respondObject } from './write-common.ts';

export interface AccessAttributes {
  user: UserInfo;
  verb: string;
  namespace: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  name: string;
  path: string;
  resourceRequest: boolean;
}

export interface Decision {
  allowed: boolean;
  denied?: boolean;
  reason: string;
}

/** What the authorization stage answers for an access question. */
export interface AccessDecider {
  decide(attrs: AccessAttributes): Promise<Decision> | Decision;
  /** The rules a user has in a namespace (SelfSubjectRulesReview). */
  rules(user: UserInfo, namespace: string): Promise<Obj> | Obj;
}

function attributesFrom(spec: Obj, user: UserInfo): AccessAttributes {
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  if (ra) {
    return {
      user,
      verb: ra.verb ?? '',
      namespace: ra.namespace ?? '',
      group: ra.group ?? '',
      version: ra.version ?? '',
      resource: ra.resource ?? '',
      subresource: ra.subresource ?? '',
      name: ra.name ?? '',
      path: '',
      resourceRequest: true,
    };
  }
  return {
    user,
    verb: nra?.verb ?? '',
    namespace: '',
    group: '',
    version: '',
    resource: '',
    subresource: '',
    name: '',
    path: nra?.path ?? '',
    resourceRequest: false,
  };
}

function userFromSpec(spec: Obj): UserInfo {
  return { name: spec.user ?? '', uid: spec.uid, groups: spec.groups ?? [], extra: spec.extra };
}

/** What TokenReview asks of authentication. */
export interface TokenReviewer {
  authenticateToken(token: string, audiences: string[]): Promise<AuthResult | undefined>;
  readonly apiAudiences: string[];
}

export async function handleReview(rc: RequestContext, decider: AccessDecider, tokens: TokenReviewer): Promise<Response> {
  const { def } = rc.res;
  const { value, duplicates } = await readObjectBody(rc.c, `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}`, bodyProtobuf(rc));
  const obj = value as Obj;
  await checkBody(rc, obj, duplicates);
  const spec: Obj = obj.spec ?? {};
  const invalid = (errs: ReturnType<typeof fieldErrors.required>[]) => errors.invalid({ group: def.group, kind: def.kind }, '', errs);
  const withStatus = (status: Obj) => ({ ...obj, metadata: { ...(obj.metadata ?? {}), creationTimestamp: null }, status });
  switch (def.kind) {
    case 'SelfSubjectReview': {
      const u = rc.user;
      const userInfo: Obj = { username: u.name, groups: u.groups };
      if (u.uid) userInfo.uid = u.uid;
      if (u.extra) userInfo.extra = u.extra;
      return respondObject(rc, withStatus({ userInfo }), 201);
    }
    case 'TokenReview': {
      if (!spec.token) throw invalid([fieldErrors.required('spec.token', '')]);
      // the token authenticators decide, for the audiences asked about (default: the server's own)
      const audiences: string[] = Array.isArray(spec.audiences) && spec.audiences.length ? spec.audiences : tokens.apiAudiences;
      const r = await tokens.authenticateToken(String(spec.token), audiences);
      if (!r) return respondObject(rc, withStatus({ user: {}, error: 'invalid bearer token' }), 201);
      const user: Obj = { username: r.user.name, groups: r.user.groups };
      if (r.user.uid) user.uid = r.user.uid;
      if (r.user.extra && Object.keys(r.user.extra).length) user.extra = r.user.extra;
      const status: Obj = { authenticated: true, user };
      const auds = r.audiences ?? audiences;
      if (auds.length) status.audiences = auds;
      return respondObject(rc, withStatus(status), 201);
    }
    case 'SelfSubjectAccessReview':
    case 'SubjectAccessReview':
    case 'LocalSubjectAccessReview': {
      if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
        throw invalid([fieldErrors.required('spec.resourceAttributes', 'exactly one of nonResourceAttributes or resourceAttributes must be specified')]);
      }
      if (spec.resourceAttributes && spec.nonResourceAttributes) {
        throw invalid([fieldErrors.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes')]);
      }
      let user = rc.user;
      if (def.kind !== 'SelfSubjectAccessReview') {
        if (!spec.user && !spec.groups?.length) throw invalid([fieldErrors.required('spec.user', 'at least one of user or group must be specified')]);
        user = userFromSpec(spec);
      }
      if (def.kind === 'LocalSubjectAccessReview') {
        const ns = spec.resourceAttributes?.namespace;
        if (ns !== rc.info.namespace) {
          throw invalid([fieldErrors.invalid('spec.resourceAttributes.namespace', ns ?? '', `must match metadata.namespace`)]);
        }
      }
      const d = await decider.decide(attributesFrom(spec, user));
      const status: Obj = { allowed: d.allowed };
      if (d.denied) status.denied = true;
      if (d.reason) status.reason = d.reason;
      return respondObject(rc, withStatus(status), 201);
    }
    case 'SelfSubjectRulesReview': {
      if (!spec.namespace) throw invalid([fieldErrors.required('spec.namespace', '')]);
      return respondObject(rc, withStatus(await decider.rules(rc.user, spec.namespace)), 201);
    }
    default:
      throw errors.methodNotAllowed();
  }
}

/** The decider of --authorization-mode=AlwaysAllow. */
export const alwaysAllow: AccessDecider = {
  decide: () => ({ allowed: true, reason: '' }),
  rules: () => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  }),
};
