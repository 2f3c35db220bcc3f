// Subject matching (upstream's appliesToUser), how reasons name subjects,
// and the index keys agreeing with the matching.
import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../auth/user.ts';
import { type Subject, appliesToUser, describeSubject, subjectKey, userKeys } from './subjects.ts';

const alice: UserInfo = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const sa: UserInfo = { name: 'system:serviceaccount:team:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] };

describe('appliesToUser', () => {
  const rows: [string, UserInfo, Subject, string, boolean][] = [
    ['user by name', alice, { kind: 'User', name: 'alice' }, '', true],
    ['another user', alice, { kind: 'User', name: 'bob' }, '', false],
    ['user names are case-sensitive', alice, { kind: 'User', name: 'Alice' }, '', false],
    ['group membership', alice, { kind: 'Group', name: 'devs' }, '', true],
    ['a group the user is not in', alice, { kind: 'Group', name: 'ops' }, '', false],
    ['a User subject never matches a group name', alice, { kind: 'User', name: 'devs' }, '', false],
    ['service account with its namespace', sa, { kind: 'ServiceAccount', name: 'builder', namespace: 'team' }, '', true],
    ['service account of another namespace', sa, { kind: 'ServiceAccount', name: 'builder', namespace: 'other' }, '', false],
    ['service account defaults to the RoleBinding namespace', sa, { kind: 'ServiceAccount', name: 'builder' }, 'team', true],
    ['defaulted to a different binding namespace', sa, { kind: 'ServiceAccount', name: 'builder' }, 'other', false],
    ['no namespace in a ClusterRoleBinding: nobody', sa, { kind: 'ServiceAccount', name: 'builder' }, '', false],
    ['service account username as a User subject', sa, { kind: 'User', name: 'system:serviceaccount:team:builder' }, '', true],
    ['unknown kind', alice, { kind: 'Robot', name: 'alice' }, '', false],
  ];
  it.each(rows)('%s', (_n, user, subject, ns, want) => {
    expect(appliesToUser(user, subject, ns)).toBe(want);
    // the index files the subject where the user's keys look for it exactly when it applies
    const k = subjectKey(subject, ns);
    expect(k !== undefined && userKeys(user).includes(k)).toBe(want);
  });
});

describe('describeSubject', () => {
  it.each([
    [{ kind: 'User', name: 'alice' }, '', 'User "alice"'],
    [{ kind: 'Group', name: 'system:masters' }, '', 'Group "system:masters"'],
    [{ kind: 'ServiceAccount', name: 'builder', namespace: 'team' }, 'x', 'ServiceAccount "builder/team"'],
    [{ kind: 'ServiceAccount', name: 'builder' }, 'team', 'ServiceAccount "builder/team"'],
  ] as [Subject, string, string][])('%j', (s, ns, want) => {
    expect(describeSubject(s, ns)).toBe(want);
  });
});
