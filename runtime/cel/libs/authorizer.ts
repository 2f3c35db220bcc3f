// Kubernetes authorizer library for CEL: `authorizer.group(g).resource(r)
// .subresource(s).namespace(ns).name(n).check(verb)`, `authorizer.path(p)
// .check(verb)`, `authorizer.serviceAccount(ns, name)`, and on the decision
// `allowed()`, `reason()`, `errored()`, `error()`. Checks are answered by an
// `Authorizer` the caller binds per evaluation. Boundary: the CEL surface;
// the authorization decision itself belongs to the caller.
import { CelScalar, type CelFunc } from '@bufbuild/cel';
import { Opaque, fail, defMethod } from '../opaque.ts';
import { GROUP_AUTHENTICATED, GROUP_SERVICE_ACCOUNTS, SERVICE_ACCOUNT_GROUP_PREFIX, SERVICE_ACCOUNT_USER_PREFIX } from '../../api/k8s-names.ts';

/** What is being asked: a resource request or a non-resource path. */
export interface AuthorizationAttributes {
  /** The user the check is for (the request's user, or a service account). */
  user: { name: string; groups?: string[] };
  verb: string;
  resourceRequest: boolean;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  path?: string;
}

export interface AuthorizationDecision {
  decision: 'allow' | 'deny' | 'noopinion';
  reason: string;
  error?: string;
}

/** The authorizer CEL expressions consult (the server's real authorizer, or a table in tests). */
export interface Authorizer {
  authorize(attrs: AuthorizationAttributes): AuthorizationDecision;
}

export class AuthorizerValue extends Opaque {
  readonly name = 'kubernetes.authorization.Authorizer';
  constructor(
    readonly authz: Authorizer,
    readonly user: { name: string; groups?: string[] },
  ) {
    super();
  }
  equals(o: Opaque): boolean {
    return o === this;
  }
}
class PathCheck extends Opaque {
  readonly name = 'kubernetes.authorization.PathCheck';
  constructor(
    readonly a: AuthorizerValue,
    readonly path: string,
  ) {
    super();
  }
  equals(o: Opaque): boolean {
    return o === this;
  }
}
export class ResourceCheck extends Opaque {
  readonly name = 'kubernetes.authorization.ResourceCheck';
  constructor(
    readonly a: AuthorizerValue,
    readonly attrs: Omit<AuthorizationAttributes, 'user' | 'verb' | 'resourceRequest'>,
    readonly stage: 'group' | 'resource',
  ) {
    super();
  }
  equals(o: Opaque): boolean {
    return o === this;
  }
  with(k: 'resource' | 'subresource' | 'namespace' | 'name', v: string): ResourceCheck {
    return new ResourceCheck(this.a, { ...this.attrs, [k]: v }, 'resource');
  }
}
export class Decision extends Opaque {
  readonly name = 'kubernetes.authorization.Decision';
  constructor(readonly d: AuthorizationDecision) {
    super();
  }
  equals(o: Opaque): boolean {
    return o === this;
  }
}

function decide(a: AuthorizerValue, attrs: AuthorizationAttributes): Decision {
  try {
    return new Decision(a.authz.authorize(attrs));
  } catch (e) {
    return new Decision({ decision: 'noopinion', reason: '', error: (e as Error).message });
  }
}

const DYN = CelScalar.DYN;
const S = CelScalar.STRING;
function as<T>(v: unknown, cls: abstract new (...a: never[]) => T, what: string): T {
  return v instanceof cls ? v : fail(`expected ${what}`);
}

export const authorizerFuncs: CelFunc[] = [
  defMethod('group', DYN, [S], DYN, function (g) {
    return new ResourceCheck(as(this, AuthorizerValue, 'an Authorizer'), { group: g }, 'group');
  }),
  defMethod('path', DYN, [S], DYN, function (p) {
    return new PathCheck(as(this, AuthorizerValue, 'an Authorizer'), p);
  }),
  defMethod('serviceAccount', DYN, [S, S], DYN, function (ns, n) {
    const a = as(this, AuthorizerValue, 'an Authorizer');
    return new AuthorizerValue(a.authz, { name: `${SERVICE_ACCOUNT_USER_PREFIX}${ns}:${n}`, groups: [GROUP_SERVICE_ACCOUNTS, `${SERVICE_ACCOUNT_GROUP_PREFIX}${ns}`, GROUP_AUTHENTICATED] });
  }),
  defMethod('resource', DYN, [S], DYN, function (r) {
    return as(this, ResourceCheck, 'a group check').with('resource', r);
  }),
  defMethod('subresource', DYN, [S], DYN, function (r) {
    return as(this, ResourceCheck, 'a resource check').with('subresource', r);
  }),
  defMethod('namespace', DYN, [S], DYN, function (r) {
    return as(this, ResourceCheck, 'a resource check').with('namespace', r);
  }),
  defMethod('name', DYN, [S], DYN, function (r) {
    return as(this, ResourceCheck, 'a resource check').with('name', r);
  }),
  defMethod('check', DYN, [S], DYN, function (verb) {
    if (this instanceof PathCheck) return decide(this.a, { user: this.a.user, verb, resourceRequest: false, path: this.path });
    const r = as(this, ResourceCheck, 'a resource or path check');
    return decide(r.a, { user: r.a.user, verb, resourceRequest: true, ...r.attrs });
  }),
  defMethod('allowed', DYN, [], CelScalar.BOOL, function () {
    return as(this, Decision, 'a Decision').d.decision === 'allow';
  }),
  defMethod('reason', DYN, [], S, function () {
    return as(this, Decision, 'a Decision').d.reason;
  }),
  defMethod('errored', DYN, [], CelScalar.BOOL, function () {
    return as(this, Decision, 'a Decision').d.error !== undefined;
  }),
  defMethod('error', DYN, [], S, function () {
    return as(this, Decision, 'a Decision').d.error ?? '';
  }),
];
