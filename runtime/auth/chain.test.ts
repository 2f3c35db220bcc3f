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
    // a verdict at hand is returned or thrown at once: the async wrapper makes both a promise
    const p = (async () => chain(anonymous).authenticate(req(headers)))();
    if (typeof want === 'number') await expect(p).rejects.toMatchObject({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
    else expect((await p).name).toBe(want);
  });

  it('adds system:authenticated to identified users only', async () => {
    expect((await chain(() => true).authenticate(req({ 'x-who': 'alice' }))).groups).toEqual(['hdr', 'system:authenticated']);
    expect((await chain(() => true).authenticate(req())).groups).toEqual(['system:unauthenticated']);
  });

  describe('answers at once while no authenticator has to wait', () => {
    /** The same request authenticator answering synchronously (as x509 does for a verified certificate). */
    const syncByHeader: RequestAuthenticator = {
      authenticate(r) {
        const who = r.header('x-who');
        if (!who) return undefined;
        if (who === 'bad') throw errors.unauthorized();
        return { user: { name: who, groups: ['hdr'] } };
      },
    };
    const syncChain = (anonymous?: (p: string) => boolean, later: RequestAuthenticator[] = []) =>
      new AuthenticationChain({ requestAuthenticators: [syncByHeader, ...later], tokenAuthenticators: [tokens('one', 't1')], apiAudiences: ['api'], anonymous });
    const sync: [string, Record<string, string>, string | number, boolean][] = [
      ['a synchronous request authenticator: the user, no promise', { 'x-who': 'alice' }, 'alice', false],
      ['no credential, anonymous on: the anonymous user, no promise', {}, 'system:anonymous', false],
      ['no credential, anonymous off: thrown 401', {}, 401, false],
      ['a bad credential: thrown 401', { 'x-who': 'bad' }, 401, false],
      ['a bearer token: a promise (token authenticators may wait)', { authorization: 'Bearer t1' }, 'one', true],
    ];
    it.each(sync)('%s', async (_name, headers, want, promised) => {
      let out: unknown;
      try {
        out = syncChain(want === 401 ? undefined : () => true).authenticate(req(headers));
      } catch (err) {
        expect(err).toMatchObject({ code: 401 });
        expect(want).toBe(401);
        return;
      }
      expect(out instanceof Promise).toBe(promised);
      expect(((await out) as { name: string }).name).toBe(want);
    });
    it('turns asynchronous at the first authenticator that answers later, and keeps what the earlier ones said', async () => {
      const later = syncChain(() => true, [byHeader]);
      const anon = later.authenticate(req());
      expect(anon instanceof Promise).toBe(true);
      expect((await anon).name).toBe('system:anonymous');
      await expect((async () => later.authenticate(req({ 'x-who': 'bad' })))()).rejects.toMatchObject({ code: 401 });
    });
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
