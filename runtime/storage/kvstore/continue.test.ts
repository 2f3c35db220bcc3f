// Continue tokens: round trip, the upstream shape, and every refusal text.
import { describe, expect, it } from 'vitest';
import { ContinueTokenError, decodeContinue, encodeContinue } from './continue.ts';

const P = '/registry/core/pods/';
const tok = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('continue tokens', () => {
  it('round-trips the next key and revision', () => {
    const t = encodeContinue(`${P}ns/b\x00`, P, 42);
    expect(JSON.parse(Buffer.from(t, 'base64url').toString())).toEqual({ v: 'meta.k8s.io/v1', rv: 42, start: 'ns/b\x00' });
    expect(decodeContinue(t, P)).toEqual({ startKey: `${P}ns/b\x00`, rev: 42 });
    expect(decodeContinue(encodeContinue(`${P}x`, P, -1), P).rev).toBe(-1);
  });
  it('refuses a key outside the prefix when encoding', () => {
    expect(() => encodeContinue('/other/x', P, 1)).toThrow('the key and key prefix do not match');
  });
  const bad: [string, string][] = [
    ['a$b', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 1'],
    ['abcde', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 4'],
    [tok({ v: 'v2', rv: 1, start: 'a' }), 'invalid continue token: continue key is not valid: server does not recognize this encoded version'],
    [tok({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }), 'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
    [tok({ v: 'meta.k8s.io/v1', rv: 3, start: '' }), 'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)'],
    [tok({ v: 'meta.k8s.io/v1', rv: 3, start: 'a/../../b' }), 'invalid continue token: continue key is not valid: a/../../b'],
    [tok([1]), 'invalid continue token: continue key is not valid: json: cannot unmarshal into Go value of type storage.continueToken'],
  ];
  for (const [t, msg] of bad) {
    it(`refuses ${t.slice(0, 16)}`, () => {
      expect(() => decodeContinue(t, P)).toThrow(new ContinueTokenError(msg.replace('invalid continue token: continue key is not valid: ', '')));
      try {
        decodeContinue(t, P);
      } catch (e) {
        expect((e as Error).message).toBe(msg);
      }
    });
  }
});
