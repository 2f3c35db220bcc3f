// ABAC: the policy file's forms and errors, upstream's matching (subjects
// incl. `*` vs anonymous, readonly, resources, non-resource paths) and the
// rules it lists.
import { describe, expect, it } from 'vitest';
import { FileError } from '../../auth/file-error.ts';
import { ANONYMOUS, type UserInfo } from '../../auth/user.ts';
import { type Attributes, pathAttributes, resourceAttributes } from '../attributes.ts';
import { abacMode, abacRulesFor } from './authorizer.ts';
import { parsePolicyFile } from './policy.ts';

const v1 = (spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };
const bob: UserInfo = { name: 'bob', groups: ['system:authenticated'] };
const pods = (u: UserInfo, verb: string, ns = 'default', apiGroup = ''): Attributes => resourceAttributes(u, verb, { resource: 'pods', namespace: ns, apiGroup, apiVersion: 'v1' });

describe('policy lines', () => {
  const rows: [string, string, Record<string, unknown>][] = [
    [
      'v1beta1 kept as written',
      v1({ user: 'alice', resource: 'pods', namespace: 'ns', apiGroup: '*', readonly: true }),
      { user: 'alice', group: '', resource: 'pods', namespace: 'ns', apiGroup: '*', readonly: true, nonResourcePath: '' },
    ],
    ['v1beta1 * user becomes system:authenticated', v1({ user: '*', nonResourcePath: '*' }), { user: '', group: 'system:authenticated', nonResourcePath: '*' }],
    ['v1beta1 * group becomes system:authenticated', v1({ user: 'alice', group: '*' }), { user: '', group: 'system:authenticated' }],
    ['legacy: empty subject, namespace and resource', '{}', { user: '', group: 'system:authenticated', namespace: '*', resource: '*', apiGroup: '*', nonResourcePath: '*' }],
    ['legacy: user kept, namespace set (no paths)', '{"user":"bob","namespace":"myns"}', { user: 'bob', namespace: 'myns', resource: '*', nonResourcePath: '' }],
    ['legacy: * user', '{"user":"*","readonly":true}', { user: '', group: 'system:authenticated', readonly: true }],
  ];
  it.each(rows)('%s', (_n, line, want) => {
    expect(parsePolicyFile('/p', line).policies).toMatchObject([want]);
  });

  it('skips blank and comment lines; names the line of a bad one with upstream text', () => {
    const text = ['# comment', '', '   ', v1({ user: 'a', resource: 'pods', namespace: '*', apiGroup: '*' }), '{"user": 5}'].join('\n');
    let err: unknown;
    try {
      parsePolicyFile('/p.jsonl', text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FileError);
    expect((err as FileError).line).toBe(5);
    expect((err as Error).message).toMatch(/^error reading policy file \/p\.jsonl, line 5: \{"user": 5\}: json: cannot unmarshal number into Go struct field Policy\.user of type string$/);
  });
  it("a line that is not JSON is refused with Go's words", () => {
    expect(() => parsePolicyFile('/p', 'garbage')).toThrow(
      "error reading policy file /p, line 1: garbage: couldn't get version/kind; json parse error: invalid character 'g' looking for beginning of value",
    );
  });
  it.each([
    ['not JSON', 'garbage'],
    ['an array', '[1]'],
    ['an unknown kind', JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Nope', spec: {} })],
    ['a bool field as string', v1({ readonly: 'yes' })],
  ])('refuses %s', (_n, line) => {
    expect(() => parsePolicyFile('/p', line)).toThrow(/^error reading policy file \/p, line 1: /);
  });
  it('warns about unversioned lines as upstream', () => {
    expect(parsePolicyFile('/p', '{"user":"a"}').warnings).toEqual(['Policy file /p contained unversioned rules. See docs/admin/authorization.md#abac-mode for ABAC file format details.']);
    expect(parsePolicyFile('/p', v1({ user: 'a' })).warnings).toEqual([]);
  });
});

describe('matching', () => {
  const file = [
    v1({ user: 'alice', namespace: 'projectCaribou', resource: 'pods', apiGroup: '*', readonly: true }),
    v1({ group: 'dev', namespace: '*', resource: 'deployments', apiGroup: 'apps' }),
    v1({ user: '*', nonResourcePath: '/version', readonly: true }),
    v1({ user: 'bob', nonResourcePath: '/logs/*' }),
    v1({ user: 'bob', namespace: 'bobs', resource: '*', apiGroup: '*' }),
  ].join('\n');
  const { authorizer } = abacMode(parsePolicyFile('/p', file).policies);
  const rows: [string, Attributes, 'allow' | 'noopinion'][] = [
    ['readonly user policy allows get', pods(alice, 'get', 'projectCaribou'), 'allow'],
    ['readonly user policy allows watch', pods(alice, 'watch', 'projectCaribou'), 'allow'],
    ['readonly refuses create', pods(alice, 'create', 'projectCaribou'), 'noopinion'],
    ['other namespace', pods(alice, 'get', 'default'), 'noopinion'],
    ['other user', pods(bob, 'get', 'projectCaribou'), 'noopinion'],
    ['group and apiGroup match', resourceAttributes(alice, 'delete', { apiGroup: 'apps', resource: 'deployments', namespace: 'x' }), 'allow'],
    ['apiGroup must match', resourceAttributes(alice, 'delete', { apiGroup: 'extensions', resource: 'deployments', namespace: 'x' }), 'noopinion'],
    ['* user: an authenticated user reads /version', pathAttributes(bob, 'get', '/version'), 'allow'],
    ['* user: not anonymous', pathAttributes(ANONYMOUS, 'get', '/version'), 'noopinion'],
    ['* user: not a user without system:authenticated', pathAttributes({ name: 'x', groups: [] }, 'get', '/version'), 'noopinion'],
    ['exact path only', pathAttributes(bob, 'get', '/version/x'), 'noopinion'],
    ['prefix path', pathAttributes(bob, 'post', '/logs/kube/x'), 'allow'],
    ['prefix path itself', pathAttributes(bob, 'get', '/logs/'), 'allow'],
    ['prefix is a prefix', pathAttributes(bob, 'get', '/logsx'), 'noopinion'],
    ['resource policy never matches a path', pathAttributes(bob, 'get', '/api'), 'noopinion'],
    ['path policy never matches a resource', pods(bob, 'get', 'other'), 'noopinion'],
    ['resource * in a namespace', resourceAttributes(bob, 'create', { apiGroup: 'batch', resource: 'jobs', namespace: 'bobs' }), 'allow'],
  ];
  it.each(rows)('%s', async (_n, a, want) => {
    const r = await authorizer.authorize(a);
    expect(r.decision).toBe(want);
    if (want === 'noopinion') expect(r.reason).toBe('No policy matched.');
  });
  it('a legacy empty policy grants every authenticated user everything, but not anonymous', async () => {
    const m = abacMode(parsePolicyFile('/p', '{}').policies);
    expect((await m.authorizer.authorize(pods(bob, 'delete'))).decision).toBe('allow');
    expect((await m.authorizer.authorize(pods(ANONYMOUS, 'get'))).decision).toBe('noopinion');
    expect((await m.authorizer.authorize(pathAttributes(ANONYMOUS, 'get', '/healthz'))).decision).toBe('noopinion');
  });
  it('a policy for system:unauthenticated does reach anonymous', async () => {
    const m = abacMode(parsePolicyFile('/p', v1({ group: 'system:unauthenticated', nonResourcePath: '/healthz', readonly: true })).policies);
    expect((await m.authorizer.authorize(pathAttributes(ANONYMOUS, 'get', '/healthz'))).decision).toBe('allow');
  });
});

describe('rules', () => {
  it('lists the matching policies for the namespace, as upstream', () => {
    const file = [
      v1({ user: 'alice', namespace: 'a', resource: 'pods', apiGroup: '', readonly: true }),
      v1({ user: 'alice', namespace: '*', resource: 'secrets', apiGroup: '*' }),
      v1({ user: 'alice', namespace: 'b', resource: 'configmaps', apiGroup: '' }),
      v1({ user: '*', nonResourcePath: '/version', readonly: true }),
      v1({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*' }),
    ].join('\n');
    const policies = parsePolicyFile('/p', file).policies;
    expect(abacRulesFor(policies, alice, 'a')).toEqual({
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['*'], apiGroups: ['*'], resources: ['secrets'] },
      ],
      nonResourceRules: [],
      incomplete: false,
    });
    // a v1beta1 non-resource policy has namespace "", so it is listed for the empty namespace only
    expect(abacRulesFor(policies, alice, '').nonResourceRules).toEqual([{ verbs: ['get', 'list', 'watch'], nonResourceURLs: ['/version'] }]);
    expect(abacRulesFor(policies, ANONYMOUS, '')).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
  });
});
