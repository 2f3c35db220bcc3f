// RBAC escalation prevention through the HTTP API: a Role or ClusterRole
// granting what its writer does not hold needs `escalate`; a binding needs
// `bind` on the role or its rules; the upstream messages; system:masters
// always pass. The authorizer and the users' rules are the test's own (the
// RBAC mode is not needed to decide these).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import type { Attributes } from '../../runtime/authz/attributes.ts';
import type { RuleResolver, RulesResult } from '../../runtime/authz/authorizer.ts';
import type { PolicyRule } from '../../runtime/authz/rbac/rules.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const ROLES = `${RBAC}/namespaces/default/roles`;
const BINDINGS = `${RBAC}/namespaces/default/rolebindings`;
const json = { 'content-type': 'application/json' };

/** `x-user` names a user in system:authenticated; without it the request is an admin's (system:masters). */
const byHeader: RequestAuthenticator = {
  async authenticate(req) {
    const name = req.header('x-user');
    return { user: name ? { name, groups: ['system:authenticated'] } : { name: 'test-admin', groups: ['system:masters', 'system:authenticated'] } };
  },
};

const podsRead: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };
const everything: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** The users' RBAC rules: cluster-wide ones, and those of one namespace. */
const RULES: Record<string, { cluster: PolicyRule[]; default?: PolicyRule[] }> = {
  alice: { cluster: [], default: [podsRead] },
  carol: { cluster: [podsRead] },
  root: { cluster: everything },
};

const resolver: RuleResolver = {
  rulesFor(user, namespace): RulesResult {
    const held = RULES[user.name];
    const rules = held ? [...held.cluster, ...(namespace === 'default' ? (held.default ?? []) : [])] : [];
    return {
      resourceRules: rules.filter((r) => r.resources).map((r) => ({ verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources ?? [], resourceNames: r.resourceNames })),
      nonResourceRules: rules.filter((r) => r.nonResourceURLs).map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] })),
      incomplete: false,
    };
  },
};

/** escalate and bind as granted here; every other request allowed. */
const SPECIAL: Record<string, (a: Attributes) => boolean> = {
  escalator: (a) => a.verb === 'escalate' && a.resource === 'roles',
  binder: (a) => a.verb === 'bind' && a.resource === 'roles' && a.name === 'powerful',
  'cluster-binder': (a) => a.verb === 'bind' && a.resource === 'clusterroles' && a.name === 'all-powerful' && a.namespace === '',
};
const seen: Attributes[] = [];
const validated: string[] = [];
/** The first escalate check of the aggregation controller (an in-process writer) for `root-agg`. */
let controllerAsked: (a: Attributes) => void = () => {};
const controllerChecked = new Promise<Attributes>((resolve) => {
  controllerAsked = (a) => {
    if (a.name === 'root-agg') resolve(a);
  };
});

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({
    authenticators: [byHeader],
    ruleResolver: resolver,
    admissionPlugins: [
      {
        // mutating admission runs before the escalation check, validating admission after it
        name: 'TestRoleAdmission',
        admit(attrs) {
          if (attrs.kind === 'Role' && attrs.object?.metadata?.labels?.inject === 'delete') attrs.object.rules.push({ verbs: ['delete'], apiGroups: [''], resources: ['pods'] });
        },
        validate(attrs) {
          if (attrs.kind === 'Role') validated.push(attrs.object?.metadata?.name ?? '');
        },
      },
    ],
    authorizer: {
      authorize(a) {
        if (a.verb === 'escalate' || a.verb === 'bind') {
          // the aggregation controller's own writes (of the aggregated roles below) are not the test's
          if (a.user.name.startsWith('system:serviceaccount:')) controllerAsked(a);
          else seen.push(a);
          return { decision: SPECIAL[a.user.name]?.(a) ? 'allow' : 'noopinion', reason: '' };
        }
        return { decision: 'allow', reason: '' };
      },
    },
  });
  // roles only an admin may write
  await call('POST', ROLES, undefined, role('powerful', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]));
  await call('POST', `${RBAC}/clusterroles`, undefined, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'all-powerful' }, rules: everything });
  await call('POST', `${RBAC}/clusterroles`, undefined, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'pod-reader' }, rules: [podsRead] });
});
afterAll(async () => {
  await s?.stop();
});

async function call(method: string, path: string, user: string | undefined, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { ...json };
  if (user) headers['x-user'] = user;
  const r = await s.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const role = (name: string, rules: PolicyRule[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name, ...extra },
  rules,
});
const binding = (name: string, roleRef: { kind: string; name: string }, kind = 'RoleBinding') => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind,
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef },
  subjects: [{ kind: 'User', name: 'someone', apiGroup: 'rbac.authorization.k8s.io' }],
});

describe('roles', () => {
  it('refuses a role granting what its writer does not hold, with upstream message', async () => {
    const r = await call(
      'POST',
      ROLES,
      'alice',
      role('deployer', [
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['create', 'delete'], apiGroups: ['apps'], resources: ['deployments'] },
        { verbs: ['get'], nonResourceURLs: ['/metrics'] },
      ]),
    );
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      details: { name: 'deployer', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      message:
        'roles.rbac.authorization.k8s.io "deployer" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["apps"], Resources:["deployments"], Verbs:["create" "delete"]}\n' +
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    });
    expect((await call('GET', `${ROLES}/deployer`, undefined)).status).toBe(404);
  });

  it('allows a role within what its writer holds, and refuses an update that goes beyond', async () => {
    expect((await call('POST', ROLES, 'alice', role('reader', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]))).status).toBe(201);
    const more = await call('PUT', `${ROLES}/reader`, 'alice', role('reader', [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }]));
    expect(more.status).toBe(403);
    expect(more.body.message).toContain('{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}');
    const patch = await s.app.request(`${ROLES}/reader`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json', 'x-user': 'alice' },
      body: JSON.stringify({ metadata: { labels: { a: 'b' } } }),
    });
    expect(patch.status).toBe(200);
  });

  it('checks what mutating admission made of the object, before validation and validating admission', async () => {
    const injected = await call('POST', ROLES, 'alice', role('injected', [podsRead], { labels: { inject: 'delete' } }));
    expect(injected.status).toBe(403);
    expect(injected.body.message).toContain('{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}');
    // an invalid role that escalates is refused as an escalation, not as invalid, and validating admission never sees it
    validated.length = 0;
    const invalid = await call(
      'POST',
      ROLES,
      'alice',
      role('invalid', [
        { verbs: ['delete'], apiGroups: [''], resources: ['pods'] },
        { verbs: [], apiGroups: [''], resources: ['pods'] },
      ]),
    );
    expect(invalid.status).toBe(403);
    expect(validated).toEqual([]);
    // one within alice's rules is then validated
    expect((await call('POST', ROLES, 'alice', role('invalid', [podsRead, { verbs: [], apiGroups: [''], resources: ['pods'] }]))).status).toBe(422);
  });

  it('allows anything to a writer who may escalate roles (asked with the request name and namespace)', async () => {
    seen.length = 0;
    expect((await call('POST', ROLES, 'escalator', role('anything', everything.slice(0, 1)))).status).toBe(201);
    expect(seen.map((a) => [a.verb, a.apiGroup, a.apiVersion, a.resource, a.namespace, a.name])).toEqual([['escalate', 'rbac.authorization.k8s.io', '*', 'roles', 'default', '']]);
    seen.length = 0;
    expect((await call('PUT', `${ROLES}/anything`, 'escalator', role('anything', everything.slice(0, 1), { labels: { x: 'y' } }))).status).toBe(200);
    expect(seen.map((a) => a.name)).toEqual(['anything']);
  });

  it('lets an update through that only changes owner references or finalizers, and checks one that changes labels', async () => {
    const patch = (body: unknown) =>
      s.app.request(`${ROLES}/powerful`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json', 'x-user': 'alice' }, body: JSON.stringify(body) });
    expect((await patch({ metadata: { finalizers: ['example.com/keep'] } })).status).toBe(200);
    expect((await patch({ metadata: { finalizers: null } })).status).toBe(200);
    const labels = await patch({ metadata: { labels: { a: 'b' } } });
    expect(labels.status).toBe(403);
    expect(((await labels.json()) as { message: string }).message).toContain('{APIGroups:["*"], Resources:["*"], Verbs:["*"]}');
  });

  it('checks a ClusterRole against cluster-wide rules only', async () => {
    const cr = (name: string, extra: Record<string, unknown> = {}) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name },
      rules: [podsRead],
      ...extra,
    });
    // alice reads pods in default only
    const r = await call('POST', `${RBAC}/clusterroles`, 'alice', cr('alice-pods'));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(
      'clusterroles.rbac.authorization.k8s.io "alice-pods" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
    );
    expect((await call('POST', `${RBAC}/clusterroles`, 'carol', cr('carol-pods'))).status).toBe(201);
    // an aggregationRule needs cluster-admin's rules
    const agg = { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/agg': 'true' } }] } };
    const refused = await call('POST', `${RBAC}/clusterroles`, 'carol', cr('carol-agg', agg));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('clusterroles.rbac.authorization.k8s.io "carol-agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
    expect((await call('POST', `${RBAC}/clusterroles`, 'root', cr('root-agg', agg))).status).toBe(201);
    // in-process writers are checked too: the aggregation controller may not escalate here and holds no rules
    const asked = await controllerChecked;
    expect([asked.user.name, asked.verb, asked.resource, asked.name]).toEqual(['system:serviceaccount:kube-system:clusterrole-aggregation-controller', 'escalate', 'clusterroles', 'root-agg']);
    expect((await call('GET', `${RBAC}/clusterroles/root-agg`, undefined)).body.rules).toEqual([podsRead]);
  });
});

describe('bindings', () => {
  it('refuses binding a role whose rules the writer does not hold', async () => {
    const r = await call('POST', BINDINGS, 'alice', binding('to-powerful', { kind: 'Role', name: 'powerful' }));
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      reason: 'Forbidden',
      details: { name: 'to-powerful', group: 'rbac.authorization.k8s.io', kind: 'rolebindings' },
      message:
        'rolebindings.rbac.authorization.k8s.io "to-powerful" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}',
    });
  });

  it('allows binding a role to a writer who may bind it (asked in the binding namespace, with the role name)', async () => {
    seen.length = 0;
    expect((await call('POST', BINDINGS, 'binder', binding('by-binder', { kind: 'Role', name: 'powerful' }))).status).toBe(201);
    expect(seen.map((a) => [a.verb, a.apiGroup, a.resource, a.namespace, a.name])).toEqual([['bind', 'rbac.authorization.k8s.io', 'roles', 'default', 'powerful']]);
    // bind on one role is not bind on another
    expect((await call('POST', BINDINGS, 'binder', binding('by-binder-2', { kind: 'ClusterRole', name: 'all-powerful' }))).status).toBe(403);
  });

  it("allows binding a role whose rules the writer holds, in the binding's namespace", async () => {
    expect((await call('POST', BINDINGS, 'alice', binding('alice-readers', { kind: 'ClusterRole', name: 'pod-reader' }))).status).toBe(201);
    // a ClusterRoleBinding needs them cluster-wide
    const crb = await call('POST', `${RBAC}/clusterrolebindings`, 'alice', binding('alice-readers', { kind: 'ClusterRole', name: 'pod-reader' }, 'ClusterRoleBinding'));
    expect(crb.status).toBe(403);
    expect(crb.body.message).toContain('clusterrolebindings.rbac.authorization.k8s.io "alice-readers" is forbidden: user "alice"');
    expect((await call('POST', `${RBAC}/clusterrolebindings`, 'carol', binding('carol-readers', { kind: 'ClusterRole', name: 'pod-reader' }, 'ClusterRoleBinding'))).status).toBe(201);
    expect((await call('POST', `${RBAC}/clusterrolebindings`, 'cluster-binder', binding('by-cluster-binder', { kind: 'ClusterRole', name: 'all-powerful' }, 'ClusterRoleBinding'))).status).toBe(201);
  });

  it('leaves a reference validation refuses to it (422, not a look-up)', async () => {
    const r = await call('POST', BINDINGS, 'alice', binding('to-group', { kind: 'Group', name: 'g' }));
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('roleRef.kind: Unsupported value: "Group"');
    const c = await call('POST', `${RBAC}/clusterrolebindings`, 'alice', binding('to-role', { kind: 'Role', name: 'powerful' }, 'ClusterRoleBinding'));
    expect(c.status).toBe(422);
  });

  it('answers 404 for a referenced role that does not exist', async () => {
    const r = await call('POST', BINDINGS, 'alice', binding('to-nothing', { kind: 'Role', name: 'nope' }));
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ reason: 'NotFound', message: 'roles.rbac.authorization.k8s.io "nope" not found', details: { name: 'nope', group: 'rbac.authorization.k8s.io', kind: 'roles' } });
    const c = await call('POST', BINDINGS, 'alice', binding('to-nothing', { kind: 'ClusterRole', name: 'nope' }));
    expect(c.status).toBe(404);
    expect(c.body.message).toBe('clusterroles.rbac.authorization.k8s.io "nope" not found');
  });
});

describe('system:masters', () => {
  it('always passes, without asking the authorizer', async () => {
    seen.length = 0;
    expect((await call('POST', ROLES, undefined, role('admin-made', everything.slice(0, 1)))).status).toBe(201);
    expect((await call('POST', BINDINGS, undefined, binding('admin-bound', { kind: 'ClusterRole', name: 'all-powerful' }))).status).toBe(201);
    expect(
      (
        await call('POST', `${RBAC}/clusterroles`, undefined, {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: 'admin-agg' },
          aggregationRule: { clusterRoleSelectors: [{}] },
        })
      ).status,
    ).toBe(201);
    expect(seen).toEqual([]);
  });
});

describe('with AlwaysAllow', () => {
  it('every writer may escalate and bind', async () => {
    const allow = await startServer({ authorizationMode: ['AlwaysAllow'], authenticators: [byHeader] });
    try {
      const r = await allow.app.request(ROLES, { method: 'POST', headers: { ...json, 'x-user': 'nobody' }, body: JSON.stringify(role('any', everything.slice(0, 1))) });
      expect(r.status).toBe(201);
    } finally {
      await allow.stop();
    }
  });
});
