import { describe, expect, it } from 'vitest';
import { andThen, isPromise, settled } from './maybe.ts';

describe('isPromise', () => {
  const rows: [string, unknown, boolean][] = [
    ['a native promise', Promise.resolve(1), true],
    ['a thenable', { then: () => undefined }, true],
    ['a number', 1, false],
    ['undefined', undefined, false],
    ['null', null, false],
    ['an object with a then field that is no function', { then: 1 }, false],
  ];
  it.each(rows)('%s', (_, v, want) => expect(isPromise(v)).toBe(want));
});

describe('andThen', () => {
  it('applies f at once to a value that is there (no promise, same turn)', () => {
    const out = andThen(2, (x) => x * 3);
    expect(out).toBe(6);
  });
  it('applies f later to a promised value', async () => {
    const out = andThen(Promise.resolve(2), (x) => x * 3);
    expect(isPromise(out)).toBe(true);
    expect(await out).toBe(6);
  });
  it('lets f turn the chain asynchronous', async () => {
    expect(await andThen(2, (x) => Promise.resolve(x + 1))).toBe(3);
  });
  it('skips f when the promise rejects', async () => {
    let called = false;
    await expect(
      andThen(Promise.reject(new Error('no')), () => {
        called = true;
      }),
    ).rejects.toThrow('no');
    expect(called).toBe(false);
  });
});

describe('settled', () => {
  const boom = new Error('boom');
  const rows: [string, () => unknown, boolean, string][] = [
    ['a value now: told at once, no promise', () => 5, false, 'ok 5'],
    [
      'a throw now: told, thrown on',
      () => {
        throw boom;
      },
      false,
      'failed boom',
    ],
    ['a promise that resolves', () => Promise.resolve(7), true, 'ok 7'],
    ['a promise that rejects', () => Promise.reject(boom), true, 'failed boom'],
  ];
  it.each(rows)('%s', async (_n, run, async, want) => {
    const told: string[] = [];
    const done = (ok: boolean, value: unknown, err: unknown) => told.push(ok ? `ok ${String(value)}` : `failed ${(err as Error).message}`);
    let out: unknown;
    try {
      out = settled(run, done);
    } catch (err) {
      expect(err).toBe(boom);
    }
    expect(isPromise(out)).toBe(async);
    if (async) await (out as Promise<unknown>).catch((err: unknown) => expect(err).toBe(boom));
    expect(told).toEqual([want]);
  });
});
