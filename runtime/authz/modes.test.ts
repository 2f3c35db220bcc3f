// The chain --authorization-mode builds: system:masters first, the modes in
// order, the default, and upstream's flag errors.
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, type UserInfo } from '../auth/user.ts';
import { type Attributes, pathAttributes, resourceAttributes } from './attributes.ts';
import { AuthorizationModeError, buildAuthorization, publicInfoPath, validateModes } from './modes.ts';

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const admin: UserInfo = { name: 'root', groups: ['system:masters', 'system:authenticated'] };
const get = (u: UserInfo, path: string): Attributes => pathAttributes(u, 'get', path);
const listSecrets = (u: UserInfo): Attributes => resourceAttributes(u, 'list', { apiVersion: 'v1', resource: 'secrets', namespace: 'default' });

describe('--authorization-mode validation', () => {
  const rows: [string[], string | undefined][] = [
    [[], undefined],
    [['AlwaysAllow'], undefined],
    [['AlwaysDeny', 'AlwaysAllow'], undefined],
    [['Foo'], 'authorization-mode "Foo" is not a valid mode'],
    [['AlwaysAllow', 'AlwaysAllow'], 'authorization-mode "AlwaysAllow" has mode specified more than once'],
  ];
  it.each(rows)('%j', (modes, err) => {
    if (err) expect(() => validateModes(modes)).toThrow(new AuthorizationModeError(err));
    else expect(() => validateModes(modes)).not.toThrow();
  });
});

describe('the chain', () => {
  it('AlwaysDeny has no opinion (a later mode may allow) and says why; system:masters pass it', async () => {
    const deny = buildAuthorization(['AlwaysDeny']);
    expect(await deny.authorizer.authorize(listSecrets(alice))).toEqual({ decision: 'noopinion', reason: 'Everything is forbidden.' });
    expect(await deny.authorizer.authorize(listSecrets(admin))).toMatchObject({ decision: 'allow' });
    const both = buildAuthorization(['AlwaysDeny', 'AlwaysAllow']);
    expect(await both.authorizer.authorize(listSecrets(alice))).toMatchObject({ decision: 'allow' });
  });
  it('rules: AlwaysAllow lists everything, AlwaysDeny nothing, together both', async () => {
    expect(await buildAuthorization(['AlwaysDeny']).ruleResolver.rulesFor(alice, 'default')).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
    const r = await buildAuthorization(['AlwaysDeny', 'AlwaysAllow']).ruleResolver.rulesFor(alice, 'default');
    expect(r.resourceRules).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    expect(r.nonResourceRules).toEqual([{ verbs: ['*'], nonResourceURLs: ['*'] }]);
  });
  it('a custom authorizer replaces the modes, after system:masters', async () => {
    const asked: string[] = [];
    const b = buildAuthorization([], {}, { authorize: (a) => (asked.push(a.user.name), { decision: 'deny', reason: 'custom' }) });
    expect(await b.authorizer.authorize(listSecrets(admin))).toMatchObject({ decision: 'allow' });
    expect(await b.authorizer.authorize(listSecrets(alice))).toEqual({ decision: 'deny', reason: 'custom' });
    expect(asked).toEqual(['alice']);
    expect((await b.ruleResolver.rulesFor(alice, 'x')).incomplete).toBe(true);
  });
});

describe('the default (no modes)', () => {
  const { authorizer } = buildAuthorization([]);
  it.each(['/healthz', '/livez', '/readyz', '/readyz/etcd', '/version', '/api', '/apis', '/apis/apps', '/apis/apps/v1', '/api/v1', '/openapi/v2', '/openapi/v3/apis/apps/v1'])(
    'lets anonymous read %s',
    async (p) => {
      expect((await authorizer.authorize(get(ANONYMOUS, p))).decision).toBe('allow');
    },
  );
  it.each([
    resourceAttributes(ANONYMOUS, 'list', { resource: 'secrets', namespace: 'default' }),
    resourceAttributes(ANONYMOUS, 'create', { resource: 'configmaps', namespace: 'default' }),
    pathAttributes(ANONYMOUS, 'get', '/metrics'),
    pathAttributes(ANONYMOUS, 'post', '/healthz'),
    resourceAttributes(ANONYMOUS, 'create', { apiGroup: 'authentication.k8s.io', resource: 'selfsubjectreviews' }),
  ])('refuses anonymous %j', async (a) => {
    expect((await authorizer.authorize(a)).decision).toBe('noopinion');
  });
  it('lets an authenticated user do anything', async () => {
    expect((await authorizer.authorize(resourceAttributes(alice, 'delete', { resource: 'secrets', namespace: 'default', name: 's' }))).decision).toBe('allow');
  });
  it('publicInfoPath: no prefix tricks', () => {
    expect(publicInfoPath('/healthzfoo')).toBe(false);
    expect(publicInfoPath('/apis-x')).toBe(false);
    expect(publicInfoPath('/version/')).toBe(true);
  });
});
