// The authenticator chain: order, the first that recognises a credential
// decides, bad credentials are 401 even where anonymous access is on, a
// request with no credential is anonymous (or 401), system:authenticated.
import { describe, expect, it } from 'vitest';
import { errors } from '../api/errors.ts';
import type { AuthRequest, RequestAuthenticator, TokenAuthenticator } from './authenticator.ts';
import { AuthenticationChain, bearerToken, MAX_TOKEN_BYTES } from './chain.ts';

const req = (headers: Record<string, string> = {}, path = '/api'): AuthRequest => ({
  path,
  header: (n) => headers[n.toLowerCase()],
  headerValues: (n) => (headers[n.toLowerCase()] === undefined ? [] : [headers[n.toLowerCase()]]),
  headerNames: () => Object.keys(headers),
});

/** A request authenticator recognising `x-who: <name>`; `x-who: bad` is a bad credential. */
const byHeader: RequestAuthenticator = {
  async authenticate(r) {
    const who = r.header('x-who');
    if (!who) return undefined;
    if (who === 'bad') throw errors.unauthorized();
    return { user: { name: who, groups: ['hdr'] } };
  },
};
/** Token authenticators: one knows `t1`, one throws for `boom`, one knows `t2`. */
const tokens = (name: string, known: string): TokenAuthenticator => ({
  async authenticateToken(t) {
    if (t === 'boom') throw new Error('backend down: token boom');
    return t === known ? { user: { name, groups: [] } } : undefined;
  },
});

const chain = (anonymous?: (p: string) => boolean) =>
  new AuthenticationChain({
    requestAuthenticators: [byHeader],
    tokenAuthenticators: [tokens('one', 't1'), tokens('two', 't2')],
    apiAudiences: ['api'],
    anonymous,
  });

describe('AuthenticationChain', () => {
  const rows: [string, Record<string, string>, string | number, ((p: string) => boolean) | undefined][] = [
    ['a request authenticator', { 'x-who': 'alice' }, 'alice', () => true],
    ['request authenticators before tokens', { 'x-who': 'alice', authorization: 'Bearer t1' }, 'alice', () => true],
    ['a token the first token authenticator knows', { authorization: 'Bearer t1' }, 'one', () => true],
    ['a token a later one knows', { authorization: 'Bearer t2' }, 'two', () => true],
    ['the scheme in any case', { authorization: 'bEaReR t2' }, 'two', () => true],
    ['a token nobody knows: 401, not anonymous', { authorization: 'Bearer nope' }, 401, () => true],
    ['a token whose authenticator fails: 401', { authorization: 'Bearer boom' }, 401, () => true],
    ['a bad request credential: 401 although a token would do', { 'x-who': 'bad', authorization: 'Bearer t1' }, 'one', () => true],
    ['a bad request credential alone: 401', { 'x-who': 'bad' }, 401, () => true],
    ['no credential: anonymous', {}, 'system:anonymous', () => true],
    ['no credential, anonymous off: 401', {}, 401, undefined],
    ['no credential, anonymous not for this path: 401', {}, 401, (p) => p === '/healthz'],
    ['Basic auth is no bearer token: anonymous', { authorization: 'Basic dTpw' }, 'system:anonymous', () => true],
    ['an empty bearer token is none', { authorization: 'Bearer ' }, 'system:anonymous', () => true],
    ['an oversized token: 401', { authorization: `Bearer ${'t'.repeat(MAX_TOKEN_BYTES + 1)}` }, 401, () => true],
  ];
  it.each(rows)('%s', async (_name, headers, want, anonymous) => {
    const p = chain(anonymous).authenticate(req(headers));
    if (typeof want === 'number') await expect(p).rejects.toMatchObject({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
    else expect((await p).name).toBe(want);
  });

  it('adds system:authenticated to identified users only', async () => {
    expect((await chain(() => true).authenticate(req({ 'x-who': 'alice' }))).groups).toEqual(['hdr', 'system:authenticated']);
    expect((await chain(() => true).authenticate(req())).groups).toEqual(['system:unauthenticated']);
  });

  it('TokenReview: the token authenticators alone, undefined for an unknown token', async () => {
    expect((await chain().authenticateToken('t2', ['x']))?.user).toEqual({ name: 'two', groups: ['system:authenticated'] });
    expect(await chain().authenticateToken('nope', ['x'])).toBeUndefined();
    expect(await chain().authenticateToken('boom', ['x'])).toBeUndefined();
  });

  it.each([
    ['Bearer abc', 'abc'],
    ['bearer  abc ', 'abc'],
    ['Bearer', undefined],
    ['Token abc', undefined],
    ['Bearer a b', undefined],
  ])('bearerToken(%j) = %j', (h, want) => {
    expect(bearerToken(req({ authorization: h }))).toBe(want);
  });
});
