// Review kinds (TokenReview, SelfSubjectReview, SubjectAccessReview and its
// local and self forms, SelfSubjectRulesReview): a POST is answered with the
// object and its computed status, and nothing is stored.

import type { AuthResult } from '../../auth/authenticator.ts';
import type { UserInfo } from '../../auth/user.ts';
import { type Attributes, pathAttributes, resourceAttributes } from '../../authz/attributes.ts';
import type { Authorizer, RuleResolver } from '../../authz/authorizer.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import type { Obj } from '../../storage/interface.ts';
import { readObjectBody } from '../body.ts';
import { errors } from '../../api/errors.ts';
import { type RequestContext, bodyProtobuf } from './context.ts';
import { checkBody } from './body-check.ts';
import { respondObject } from './write-common.ts';

/** What answers the access reviews: the server's authorization chain and its modes' rules. */
export interface AccessDecider {
  authorizer: Authorizer;
  ruleResolver: RuleResolver;
}

/** The attributes a review asks about (resourceAttributes or nonResourceAttributes) for `user`. */
function attributesFrom(spec: Obj, user: UserInfo): Attributes {
  const ra = spec.resourceAttributes;
  if (ra) {
    return resourceAttributes(user, ra.verb ?? '', {
      namespace: ra.namespace,
      apiGroup: ra.group,
      apiVersion: ra.version,
      resource: ra.resource,
      subresource: ra.subresource,
      name: ra.name,
    });
  }
  const nra = spec.nonResourceAttributes;
  return pathAttributes(user, nra?.verb ?? '', nra?.path ?? '');
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
      const d = await decider.authorizer.authorize(attributesFrom(spec, user));
      const status: Obj = { allowed: d.decision === 'allow' };
      if (d.decision === 'deny') status.denied = true;
      if (d.reason) status.reason = d.reason;
      if (d.error) status.evaluationError = d.error;
      return respondObject(rc, withStatus(status), 201);
    }
    case 'SelfSubjectRulesReview': {
      if (!spec.namespace) throw invalid([fieldErrors.required('spec.namespace', '')]);
      const rules = await decider.ruleResolver.rulesFor(rc.user, spec.namespace);
      const status: Obj = {
        resourceRules: rules.resourceRules.map((r) => (r.resourceNames?.length ? r : { verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources })),
        nonResourceRules: rules.nonResourceRules,
        incomplete: rules.incomplete,
      };
      if (rules.error) status.evaluationError = rules.error;
      return respondObject(rc, withStatus(status), 201);
    }
    default:
      throw errors.methodNotAllowed();
  }
}
