// Review kinds (TokenReview, SelfSubjectReview, SubjectAccessReview and its
// local and self forms, SelfSubjectRulesReview): a POST is answered with the
// object and its computed status, and nothing is stored.

import type { AuthResult } from '../../auth/authenticator.ts';
import type { UserInfo } from '../../auth/user.ts';
import { type Attributes, pathAttributes, resourceAttributes } from '../../authz/attributes.ts';
import type { Authorizer, RuleResolver } from '../../authz/authorizer.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
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

/** Whether an ObjectMeta is empty, as Go's semantic equality sees it (nil and empty alike); `except` keys are ignored. */
function metadataEmpty(meta: Obj | undefined, except: string[]): boolean {
  for (const [k, v] of Object.entries(meta ?? {})) {
    if (except.includes(k) || v === null || v === undefined || v === '' || v === 0) continue;
    if (typeof v === 'object' && Object.keys(v).length === 0) continue;
    return false;
  }
  return true;
}

/** upstream's ValidateSubjectAccessReview, ValidateSelfSubjectAccessReview and ValidateLocalSubjectAccessReview. */
function accessReviewErrors(kind: string, obj: Obj, namespace: string): FieldError[] {
  const spec: Obj = obj.spec ?? {};
  const errs: FieldError[] = [];
  const local = kind === 'LocalSubjectAccessReview';
  if (!metadataEmpty(obj.metadata, local ? ['namespace', 'managedFields'] : ['managedFields'])) {
    errs.push(fieldErrors.invalid('metadata', obj.metadata, local ? 'must be empty except for namespace' : 'must be empty'));
  }
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  if (ra && nra) errs.push(fieldErrors.invalid('spec.nonResourceAttributes', nra, 'cannot be specified in combination with resourceAttributes'));
  if (!ra && !nra) errs.push(fieldErrors.invalid('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (kind !== 'SelfSubjectAccessReview' && !spec.user && !(Array.isArray(spec.groups) && spec.groups.length)) {
    errs.push(fieldErrors.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  }
  if (local) {
    if (ra && (ra.namespace ?? '') !== namespace) errs.push(fieldErrors.invalid('spec.resourceAttributes.namespace', ra.namespace ?? '', 'must match metadata.namespace'));
    if (nra) errs.push(fieldErrors.invalid('spec.nonResourceAttributes', nra, 'disallowed on this kind of request'));
  }
  return errs;
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
      const local = def.kind === 'LocalSubjectAccessReview';
      if (local && obj.metadata?.namespace && obj.metadata.namespace !== rc.info.namespace) {
        throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      const errs = accessReviewErrors(def.kind, obj, rc.info.namespace);
      if (errs.length) throw invalid(errs);
      const user = def.kind === 'SelfSubjectAccessReview' ? rc.user : userFromSpec(spec);
      const d = await decider.authorizer.authorize(attributesFrom(spec, user));
      const status: Obj = { allowed: d.decision === 'allow' };
      if (d.decision === 'deny') status.denied = true;
      if (d.reason) status.reason = d.reason;
      if (d.error) status.evaluationError = d.error;
      return respondObject(rc, withStatus(status), 201);
    }
    case 'SelfSubjectRulesReview': {
      if (!spec.namespace) throw errors.badRequest('no namespace on request');
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
