// Tests of the webhook answer cache on a fake clock: TTL, errors not cached, keys, shared lookups, size bound.

import { describe, expect, it } from 'vitest';
import { AnswerCache } from './cache.ts';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('AnswerCache', () => {
  it('keeps an answer for the TTL and asks again after it', async () => {
    const c = clock();
    const cache = new AnswerCache<string>({ ttlMs: 120_000, now: c.now });
    let calls = 0;
    const compute = async () => `answer${++calls}`;
    expect(await cache.get('tok', ['api'], compute)).toBe('answer1');
    c.advance(119_999);
    expect(await cache.get('tok', ['api'], compute)).toBe('answer1');
    c.advance(1);
    expect(await cache.get('tok', ['api'], compute)).toBe('answer2');
    expect(calls).toBe(2);
  });

  it('caches "not authenticated" (undefined) answers too', async () => {
    const cache = new AnswerCache<string | undefined>({ ttlMs: 1000, now: clock().now });
    let calls = 0;
    await cache.get('t', [], async () => (calls++, undefined));
    await cache.get('t', [], async () => (calls++, undefined));
    expect(calls).toBe(1);
  });

  it('does not cache errors', async () => {
    const cache = new AnswerCache<string>({ ttlMs: 1000, now: clock().now });
    await expect(
      cache.get('t', [], async () => {
        throw new Error('down');
      }),
    ).rejects.toThrow('down');
    expect(await cache.get('t', [], async () => 'ok')).toBe('ok');
  });

  it('keys on token and audiences, unambiguously', async () => {
    const cache = new AnswerCache<string>({ ttlMs: 1000, now: clock().now });
    const keys = [cache.key('t', []), cache.key('t', ['a']), cache.key('t', ['a', 'b']), cache.key('t', ['ab']), cache.key('ta', []), cache.key('t', ['', 'a']), cache.key('u', [])];
    expect(new Set(keys).size).toBe(keys.length);
    expect(cache.key('t', ['a'])).toBe(cache.key('t', ['a']));
    expect(keys.join('')).not.toContain('t,');
  });

  it('keys are keyed by a per-cache secret (no plain digest of the token)', () => {
    const a = new AnswerCache<string>({ ttlMs: 1, now: () => 0 });
    const b = new AnswerCache<string>({ ttlMs: 1, now: () => 0 });
    expect(a.key('secret', [])).not.toBe(b.key('secret', []));
  });

  it('shares one computation between concurrent identical lookups', async () => {
    const cache = new AnswerCache<string>({ ttlMs: 1000, now: clock().now });
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const compute = async () => {
      calls++;
      await gate;
      return 'x';
    };
    const both = Promise.all([cache.get('t', [], compute), cache.get('t', [], compute)]);
    release();
    expect(await both).toEqual(['x', 'x']);
    expect(calls).toBe(1);
  });

  it('does not cache with a TTL of 0', async () => {
    const cache = new AnswerCache<string>({ ttlMs: 0, now: clock().now });
    let calls = 0;
    await cache.get('t', [], async () => `${++calls}`);
    await cache.get('t', [], async () => `${++calls}`);
    expect(calls).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('stays within its size bound, dropping expired entries first, then the oldest', async () => {
    const c = clock();
    const cache = new AnswerCache<string>({ ttlMs: 1000, now: c.now, maxEntries: 3 });
    await cache.get('old', [], async () => 'old');
    c.advance(2000);
    await cache.get('a', [], async () => 'a');
    await cache.get('b', [], async () => 'b');
    await cache.get('c', [], async () => 'c');
    expect(cache.size).toBe(3);
    await cache.get('d', [], async () => 'd');
    expect(cache.size).toBe(3);
    let recomputed = false;
    await cache.get('a', [], async () => ((recomputed = true), 'a2'));
    expect(recomputed).toBe(true);
  });
});
