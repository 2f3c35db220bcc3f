// Tests of impersonation: headers to checks, upstream's group rules, the 400 and 403 texts.

import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { authRequestFromPairs } from './header-list.ts';
import { impersonate, parseImpersonation, splitServiceAccountUsername, type ImpersonationCheck, type ImpersonationAuthorize, requestsImpersonation } from './impersonation.ts';
import type { UserInfo } from './user.ts';

const ALICE: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const allowAll: ImpersonationAuthorize = async () => true;

function caught(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('did not throw');
}

describe('splitServiceAccountUsername', () => {
  it.each([
    ['system:serviceaccount:ns:sa', { namespace: 'ns', name: 'sa' }],
    ['system:serviceaccount:ns:sa.with.dots', { namespace: 'ns', name: 'sa.with.dots' }],
    ['system:serviceaccount:ns', undefined],
    ['system:serviceaccount:ns:sa:x', undefined],
    ['system:serviceaccount:Bad_NS:sa', undefined],
    ['system:serviceaccount:ns:Bad_Name', undefined],
    ['system:serviceaccount::sa', undefined],
    ['serviceaccount:ns:sa', undefined],
  ])('%s', (name, want) => {
    expect(splitServiceAccountUsername(name)).toEqual(want);
  });
});

describe('parseImpersonation', () => {
  const core = (resource: ImpersonationCheck['resource'], name: string, namespace?: string): ImpersonationCheck =>
    namespace ? { verb: 'impersonate', group: '', version: '', resource, namespace, name } : { verb: 'impersonate', group: '', version: '', resource, name };
  const authn = (resource: ImpersonationCheck['resource'], name: string, subresource?: string): ImpersonationCheck =>
    subresource !== undefined
      ? { verb: 'impersonate', group: 'authentication.k8s.io', version: 'v1', resource, subresource, name }
      : { verb: 'impersonate', group: 'authentication.k8s.io', version: 'v1', resource, name };
  const rows: [string, [string, string][], unknown][] = [
    ['no headers', [['Accept', '*/*']], undefined],
    ['an empty user header alone is no impersonation', [['Impersonate-User', '']], undefined],
    ['a user', [['Impersonate-User', 'bob']], { checks: [core('users', 'bob')], consumedHeaders: ['impersonate-user'] }],
    ['a service account', [['Impersonate-User', 'system:serviceaccount:kube-system:default']], { checks: [core('serviceaccounts', 'default', 'kube-system')], consumedHeaders: ['impersonate-user'] }],
    [
      'an invalid service-account name is a user',
      [['Impersonate-User', 'system:serviceaccount:a:b:c']],
      { checks: [core('users', 'system:serviceaccount:a:b:c')], consumedHeaders: ['impersonate-user'] },
    ],
    [
      'everything, in upstream order (user, groups, extra, uid)',
      [
        ['Impersonate-Uid', 'u-1'],
        ['Impersonate-Extra-Scopes', 'view'],
        ['Impersonate-Extra-Scopes', 'edit'],
        ['Impersonate-Group', 'dev'],
        ['Impersonate-Group', 'ops'],
        ['Impersonate-User', 'bob'],
        ['Impersonate-Extra-Example.com%2FTeam', 'x'],
      ],
      {
        checks: [
          core('users', 'bob'),
          core('groups', 'dev'),
          core('groups', 'ops'),
          authn('userextras', 'view', 'scopes'),
          authn('userextras', 'edit', 'scopes'),
          authn('userextras', 'x', 'example.com/team'),
          authn('uids', 'u-1'),
        ],
        consumedHeaders: ['impersonate-uid', 'impersonate-extra-scopes', 'impersonate-group', 'impersonate-user', 'impersonate-extra-example.com%2fteam'],
      },
    ],
    [
      'malformed percent-encoding in an extra key is kept as sent, as upstream',
      [
        ['Impersonate-User', 'bob'],
        ['Impersonate-Extra-A%zz', 'v'],
      ],
      { checks: [core('users', 'bob'), authn('userextras', 'v', 'a%zz')], consumedHeaders: ['impersonate-user', 'impersonate-extra-a%zz'] },
    ],
  ];
  it.each(rows)('%s', (_name, headers, want) => {
    expect(parseImpersonation(authRequestFromPairs(headers))).toEqual(want);
  });

  const bad: [string, [string, string][], string][] = [
    ['a group without a user', [['Impersonate-Group', 'devs']], 'requested [{Group  devs    }] without impersonating a user'],
    ['extra without a user', [['Impersonate-Extra-Scopes', 'v']], 'requested [{UserExtra  v  authentication.k8s.io/v1  scopes}] without impersonating a user'],
    ['a uid without a user', [['Impersonate-Uid', '42']], 'requested [{UID  42  authentication.k8s.io/v1  }] without impersonating a user'],
    [
      'a group with an empty user',
      [
        ['Impersonate-User', ''],
        ['Impersonate-Group', 'a'],
        ['Impersonate-Group', 'b'],
      ],
      'requested [{Group  a    } {Group  b    }] without impersonating a user',
    ],
  ];
  it.each(bad)('400 for %s', (_name, headers, message) => {
    const err = caught(() => parseImpersonation(authRequestFromPairs(headers)));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status()).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });
});

describe('impersonate', () => {
  const rows: [string, [string, string][], UserInfo][] = [
    ['a user gets system:authenticated', [['Impersonate-User', 'bob']], { name: 'bob', groups: ['system:authenticated'] }],
    [
      'groups given: system:authenticated added',
      [
        ['Impersonate-User', 'bob'],
        ['Impersonate-Group', 'dev'],
      ],
      { name: 'bob', groups: ['dev', 'system:authenticated'] },
    ],
    [
      'system:authenticated given: not repeated',
      [
        ['Impersonate-User', 'bob'],
        ['Impersonate-Group', 'system:authenticated'],
      ],
      { name: 'bob', groups: ['system:authenticated'] },
    ],
    [
      'system:unauthenticated given: system:authenticated not added',
      [
        ['Impersonate-User', 'bob'],
        ['Impersonate-Group', 'system:unauthenticated'],
      ],
      { name: 'bob', groups: ['system:unauthenticated'] },
    ],
    ['system:anonymous gets system:unauthenticated', [['Impersonate-User', 'system:anonymous']], { name: 'system:anonymous', groups: ['system:unauthenticated'] }],
    [
      'system:anonymous with its group given',
      [
        ['Impersonate-User', 'system:anonymous'],
        ['Impersonate-Group', 'system:unauthenticated'],
      ],
      { name: 'system:anonymous', groups: ['system:unauthenticated'] },
    ],
    [
      'a service account gets its groups',
      [['Impersonate-User', 'system:serviceaccount:ns1:builder']],
      { name: 'system:serviceaccount:ns1:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] },
    ],
    [
      'a service account with groups given gets only those',
      [
        ['Impersonate-User', 'system:serviceaccount:ns1:builder'],
        ['Impersonate-Group', 'g'],
      ],
      { name: 'system:serviceaccount:ns1:builder', groups: ['g', 'system:authenticated'] },
    ],
    [
      'uid and extra',
      [
        ['Impersonate-User', 'bob'],
        ['Impersonate-Uid', 'u1'],
        ['Impersonate-Extra-Scopes', 'a'],
        ['Impersonate-Extra-Scopes', 'b'],
      ],
      { name: 'bob', uid: 'u1', groups: ['system:authenticated'], extra: { scopes: ['a', 'b'] } },
    ],
  ];
  it.each(rows)('%s', async (_name, headers, want) => {
    const got = await impersonate(authRequestFromPairs(headers), ALICE, allowAll);
    expect(got?.user).toEqual(want);
  });

  it('is undefined without impersonation headers, and asks nothing', async () => {
    let asked = 0;
    expect(await impersonate(authRequestFromPairs([['X', 'y']]), ALICE, async () => (asked++, true))).toBeUndefined();
    expect(asked).toBe(0);
  });

  it('asks every check for the requesting user and reports the consumed headers', async () => {
    const seen: string[] = [];
    const got = await impersonate(
      authRequestFromPairs([
        ['Impersonate-User', 'bob'],
        ['Impersonate-Group', 'g'],
        ['Accept', 'x'],
      ]),
      ALICE,
      async (c, who) => (seen.push(`${who.name}:${c.resource}/${c.name}`), true),
    );
    expect(seen).toEqual(['alice:users/bob', 'alice:groups/g']);
    expect(got?.consumedHeaders).toEqual(['impersonate-user', 'impersonate-group']);
  });

  const denied: [string, [string, string][], (c: ImpersonationCheck) => boolean | { allowed: boolean; reason?: string }, unknown][] = [
    [
      'a user',
      [['Impersonate-User', 'bob']],
      () => false,
      {
        code: 403,
        reason: 'Forbidden',
        details: { name: 'bob', kind: 'users' },
        message: 'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
      },
    ],
    [
      'a group (the user allowed)',
      [
        ['Impersonate-User', 'bob'],
        ['Impersonate-Group', 'system:masters'],
      ],
      (c) => c.resource === 'users',
      {
        code: 403,
        details: { name: 'system:masters', kind: 'groups' },
        message: 'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
      },
    ],
    [
      'a service account, in its namespace',
      [['Impersonate-User', 'system:serviceaccount:ns1:sa']],
      () => false,
      {
        details: { name: 'sa', kind: 'serviceaccounts' },
        message: 'serviceaccounts "sa" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1"',
      },
    ],
    [
      'an extra, with the key as subresource',
      [
        ['Impersonate-User', 'bob'],
        ['Impersonate-Extra-Scopes', 'view'],
      ],
      (c) => c.resource !== 'userextras',
      {
        details: { name: 'view', group: 'authentication.k8s.io', kind: 'userextras' },
        message: 'userextras.authentication.k8s.io "view" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
      },
    ],
    [
      'a uid',
      [
        ['Impersonate-User', 'bob'],
        ['Impersonate-Uid', 'u1'],
      ],
      (c) => c.resource !== 'uids',
      {
        message: 'uids.authentication.k8s.io "u1" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
      },
    ],
    [
      "with the authorizer's reason",
      [['Impersonate-User', 'bob']],
      () => ({ allowed: false, reason: 'no RBAC policy matched' }),
      {
        message: 'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: no RBAC policy matched',
      },
    ],
    [
      'an empty group name',
      [
        ['Impersonate-User', 'bob'],
        ['Impersonate-Group', ''],
      ],
      (c) => c.resource === 'users',
      {
        details: { kind: 'groups' },
        message: 'groups is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
      },
    ],
    [
      'names are Go-quoted and the message HTML-escaped',
      [['Impersonate-User', 'a"<b>']],
      () => false,
      {
        message: 'users "a\\"<b>" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
      },
    ],
  ];
  it.each(denied)('403 for %s', async (_name, headers, decide, want) => {
    let err: unknown;
    try {
      await impersonate(authRequestFromPairs(headers), ALICE, async (c) => decide(c));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status()).toMatchObject(want as object);
  });

  it('HTML-escapes the requestor part of the message as upstream does', async () => {
    await expect(impersonate(authRequestFromPairs([['Impersonate-User', 'bob']]), { name: 'x<y>&z', groups: [] }, async () => false)).rejects.toMatchObject({
      message: 'users "bob" is forbidden: User "x&lt;y&gt;&amp;z" cannot impersonate resource "users" in API group "" at the cluster scope',
    });
  });

  it('an authorizer that throws denies', async () => {
    await expect(
      impersonate(authRequestFromPairs([['Impersonate-User', 'bob']]), ALICE, async () => {
        throw new Error('boom');
      }),
    ).rejects.toMatchObject({ code: 403 });
  });
});

describe('requestsImpersonation', () => {
  it.each([
    ['no headers', [], false],
    ['other headers', [['Accept', 'x']], false],
    ['Impersonate-User', [['Impersonate-User', 'bob']], true],
    ['an Impersonate-Extra-* header alone', [['Impersonate-Extra-Scopes', 'a']], true],
    ['an empty Impersonate-Group', [['Impersonate-Group', '']], true],
  ] as [string, [string, string][], boolean][])('%s: %s', (_n, headers, want) => {
    expect(requestsImpersonation(authRequestFromPairs(headers))).toBe(want);
  });
});
