// The access reviews answered by the authorization chain: SubjectAccessReview,
// LocalSubjectAccessReview, SelfSubjectAccessReview (the attributes each asks,
// allowed / denied / reason / evaluationError) and SelfSubjectRulesReview (the
// modes' rules), with upstream's validation errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import type { Attributes } from '../../runtime/authz/attributes.ts';
import type { AuthorizationResult } from '../../runtime/authz/authorizer.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';

const AUTHZ = '/apis/authorization.k8s.io/v1';

/** `x-user` names a user outside system:masters; without it, the admin. */
const byHeader: RequestAuthenticator = {
  async authenticate(req) {
    const name = req.header('x-user');
    return { user: name ? { name, uid: 'u-1', groups: ['system:authenticated'], extra: { scopes: ['a'] } } : { name: 'test-admin', groups: ['system:masters'] } };
  },
};

describe('access reviews ask the chain', () => {
  let s: RunningServer;
  const asked: Attributes[] = [];
  // the decision: allow for get, deny (with a reason) for delete, an error for 'explode', no opinion otherwise
  const decide = (a: Attributes): AuthorizationResult => {
    asked.push(a);
    if (a.verb === 'create' && a.resource.endsWith('accessreviews')) return { decision: 'allow', reason: '' };
    if (a.verb === 'create' && a.resource === 'selfsubjectrulesreviews') return { decision: 'allow', reason: '' };
    if (a.verb === 'get') return { decision: 'allow', reason: 'get is fine' };
    if (a.verb === 'delete') return { decision: 'deny', reason: 'never delete' };
    if (a.verb === 'explode') return { decision: 'noopinion', reason: '', error: 'webhook down' };
    return { decision: 'noopinion', reason: 'nothing matched' };
  };
  beforeAll(async () => {
    s = await startServer({ authenticators: [byHeader], authorizer: { authorize: decide } });
  });
  afterAll(() => s.stop());
  const post = async (path: string, body: object, user?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (user) headers['x-user'] = user;
    const r = await s.app.request(path, { method: 'POST', headers, body: JSON.stringify(body) });
    return { code: r.status, body: await r.json() };
  };
  const sar = (spec: object, kind = 'SubjectAccessReview', metadata: object = {}) => ({ apiVersion: 'authorization.k8s.io/v1', kind, metadata, spec });

  it('SubjectAccessReview: the spec user, groups, uid and extra; allowed with the reason', async () => {
    asked.length = 0;
    const r = await post(
      `${AUTHZ}/subjectaccessreviews`,
      sar({
        user: 'alice',
        uid: '7',
        groups: ['g1'],
        extra: { k: ['v'] },
        resourceAttributes: { verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'web' },
      }),
    );
    expect(r.code).toBe(201);
    expect(r.body.status).toEqual({ allowed: true, reason: 'get is fine' });
    expect(asked.at(-1)).toEqual({
      user: { name: 'alice', uid: '7', groups: ['g1'], extra: { k: ['v'] } },
      verb: 'get',
      isResourceRequest: true,
      path: '',
      namespace: 'ns',
      apiGroup: 'apps',
      apiVersion: 'v1',
      resource: 'deployments',
      subresource: 'scale',
      name: 'web',
    });
  });
  it('denied, no opinion and an evaluation error', async () => {
    const ask = async (verb: string) => (await post(`${AUTHZ}/subjectaccessreviews`, sar({ user: 'alice', resourceAttributes: { verb, resource: 'pods' } }))).body.status;
    expect(await ask('delete')).toEqual({ allowed: false, denied: true, reason: 'never delete' });
    expect(await ask('list')).toEqual({ allowed: false, reason: 'nothing matched' });
    expect(await ask('explode')).toEqual({ allowed: false, evaluationError: 'webhook down' });
  });
  it('a non-resource review asks about the path', async () => {
    asked.length = 0;
    const r = await post(`${AUTHZ}/subjectaccessreviews`, sar({ groups: ['g'], nonResourceAttributes: { verb: 'get', path: '/healthz' } }));
    expect(r.body.status.allowed).toBe(true);
    expect(asked.at(-1)).toMatchObject({ user: { name: '', groups: ['g'] }, isResourceRequest: false, path: '/healthz', verb: 'get' });
  });
  it('SelfSubjectAccessReview asks for the requesting user (uid and extra included)', async () => {
    asked.length = 0;
    const r = await post(`${AUTHZ}/selfsubjectaccessreviews`, sar({ resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'x' } }, 'SelfSubjectAccessReview'), 'bob');
    expect(r.code).toBe(201);
    expect(r.body.status).toEqual({ allowed: true, reason: 'get is fine' });
    expect(asked.at(-1)?.user).toEqual({ name: 'bob', uid: 'u-1', groups: ['system:authenticated'], extra: { scopes: ['a'] } });
  });
  it('LocalSubjectAccessReview: the namespace of the path', async () => {
    const ok = await post(`${AUTHZ}/namespaces/ns/localsubjectaccessreviews`, sar({ user: 'a', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'ns' } }, 'LocalSubjectAccessReview'));
    expect(ok.code).toBe(201);
    expect(ok.body.status.allowed).toBe(true);
    const other = await post(
      `${AUTHZ}/namespaces/ns/localsubjectaccessreviews`,
      sar({ user: 'a', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'other' } }, 'LocalSubjectAccessReview'),
    );
    expect(other.code).toBe(422);
    expect(other.body.message).toContain('spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace');
    const nonResource = await post(`${AUTHZ}/namespaces/ns/localsubjectaccessreviews`, sar({ user: 'a', nonResourceAttributes: { verb: 'get', path: '/x' } }, 'LocalSubjectAccessReview'));
    expect(nonResource.code).toBe(422);
    expect(nonResource.body.message).toContain('disallowed on this kind of request');
    const mismatch = await post(
      `${AUTHZ}/namespaces/ns/localsubjectaccessreviews`,
      sar({ user: 'a', resourceAttributes: { verb: 'get', namespace: 'ns' } }, 'LocalSubjectAccessReview', { namespace: 'zz' }),
    );
    expect(mismatch.code).toBe(400);
  });
  const invalidRows: [string, string, object, string[]][] = [
    [
      'neither attribute set',
      'subjectaccessreviews',
      sar({ user: 'a' }),
      ['spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified'],
    ],
    [
      'both attributes set',
      'subjectaccessreviews',
      sar({ user: 'a', resourceAttributes: { verb: 'get' }, nonResourceAttributes: { verb: 'get', path: '/' } }),
      ['cannot be specified in combination with resourceAttributes'],
    ],
    ['no user or group', 'subjectaccessreviews', sar({ resourceAttributes: { verb: 'get' } }), ['spec.user: Invalid value: "": at least one of user or group must be specified']],
    ['metadata set', 'subjectaccessreviews', sar({ user: 'a', resourceAttributes: { verb: 'get' } }, 'SubjectAccessReview', { name: 'x' }), ['metadata: Invalid value:', 'must be empty']],
    ['self review without attributes', 'selfsubjectaccessreviews', sar({}, 'SelfSubjectAccessReview'), ['exactly one of nonResourceAttributes or resourceAttributes must be specified']],
  ];
  it.each(invalidRows)('422 for %s', async (_n, resource, body, texts) => {
    const r = await post(`${AUTHZ}/${resource}`, body);
    expect(r.code).toBe(422);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'Invalid' });
    for (const t of texts) expect(r.body.message).toContain(t);
  });
  it('a SelfSubjectAccessReview does not need a user in the spec', async () => {
    const r = await post(`${AUTHZ}/selfsubjectaccessreviews`, sar({ nonResourceAttributes: { verb: 'get', path: '/version' } }, 'SelfSubjectAccessReview'), 'bob');
    expect(r.code).toBe(201);
  });
});

describe('SelfSubjectRulesReview lists the modes rules', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authenticators: [byHeader], authorizationMode: ['AlwaysDeny', 'AlwaysAllow'] });
  });
  afterAll(() => s.stop());
  const rules = (body: object) => s.app.request(`${AUTHZ}/selfsubjectrulesreviews`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  it('AlwaysAllow lists everything; AlwaysDeny adds nothing', async () => {
    const r = await rules({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } });
    expect(r.status).toBe(201);
    expect((await r.json()).status).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
  });
  it('no namespace is a 400', async () => {
    const r = await rules({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: {} });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ reason: 'BadRequest', message: 'no namespace on request' });
  });
});
