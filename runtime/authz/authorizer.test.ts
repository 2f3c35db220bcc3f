// How modes combine (unionAuthorizer): order, the first allow or deny
// decides, reasons and errors of the modes without an opinion are joined,
// and the decision comes without a promise while every mode asked decides at once.
import { describe, expect, it } from 'vitest';
import { resourceAttributes } from './attributes.ts';
import { type AuthorizationResult, type Authorizer, unionAuthorizer } from './authorizer.ts';

const attrs = resourceAttributes({ name: 'alice', groups: [] }, 'get', { resource: 'pods', namespace: 'ns', name: 'p' });
const now = (r: AuthorizationResult): Authorizer => ({ authorize: () => r });
const later = (r: AuthorizationResult): Authorizer => ({ authorize: async () => r });
const allow: AuthorizationResult = { decision: 'allow', reason: 'ok' };
const deny: AuthorizationResult = { decision: 'deny', reason: 'no' };
const none = (reason: string, error?: string): AuthorizationResult => (error ? { decision: 'noopinion', reason, error } : { decision: 'noopinion', reason });

describe('unionAuthorizer', () => {
  const rows: [string, Authorizer[], AuthorizationResult, boolean][] = [
    ['the first allow decides, at once', [now(none('a')), now(allow), now(deny)], allow, false],
    ['the first deny decides, at once', [now(deny), now(allow)], deny, false],
    ['no opinion from all: reasons joined, at once', [now(none('a')), now(none('')), now(none('b'))], none('a\nb'), false],
    ['one error kept', [now(none('a', 'down')), now(none('b'))], none('a\nb', 'down'), false],
    ['several errors listed', [now(none('', 'x')), now(none('', 'y'))], none('', '[x, y]'), false],
    ['a mode deciding later makes it a promise', [now(none('a')), later(allow)], allow, true],
    ['reasons before and after a later mode are all kept', [now(none('a')), later(none('b')), now(none('c'))], none('a\nb\nc'), true],
    ['modes after a final decision are not asked', [later(deny), { authorize: () => Promise.reject(new Error('asked')) }], deny, true],
  ];
  it.each(rows)('%s', async (_n, modes, want, promised) => {
    const out = unionAuthorizer(modes).authorize(attrs);
    expect(out instanceof Promise).toBe(promised);
    expect(await out).toEqual(want);
  });
});
