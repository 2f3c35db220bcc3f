import { describe, expect, it } from 'vitest';
import { andThen, isPromise } from './maybe.ts';

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
