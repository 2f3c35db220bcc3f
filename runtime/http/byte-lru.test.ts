// ByteLRU: the weight bound holds after every operation, the least recently
// used go first, a hit refreshes, replacing a key re-weighs it, and a value
// heavier than the bound is not kept; checked against a plain-array model.
import { describe, expect, it } from 'vitest';
import { ByteLRU } from './byte-lru.ts';

const bytes = (n: number) => new Uint8Array(n);

describe('ByteLRU', () => {
  it('evicts the least recently used once past the bound', () => {
    const c = new ByteLRU<string>(10);
    c.set('a', bytes(4));
    c.set('b', bytes(4));
    expect(c.get('a')?.byteLength).toBe(4); // a is now the most recent
    c.set('c', bytes(4)); // 12 > 10: b goes
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBeDefined();
    expect(c.get('c')).toBeDefined();
    expect(c.weight).toBe(8);
    c.set('a', bytes(9)); // re-weighed: c goes
    expect(c.get('c')).toBeUndefined();
    expect([c.size, c.weight]).toEqual([1, 9]);
    c.set('big', bytes(11)); // heavier than the bound: not kept, nothing evicted
    expect(c.get('big')).toBeUndefined();
    expect([c.size, c.weight]).toEqual([1, 9]);
    c.delete('a');
    expect([c.size, c.weight]).toEqual([0, 0]);
  });

  it('counts what the key keeps alive when told to', () => {
    const c = new ByteLRU<{ json: string }>(100, (k, v) => k.json.length + v.byteLength);
    const keys = Array.from({ length: 5 }, (_, i) => ({ json: 'x'.repeat(20 + i) }));
    for (const k of keys) c.set(k, bytes(10));
    // 30+31+32 = 93; a fourth (33) would pass 100
    expect(c.size).toBe(3);
    expect(c.get(keys[0])).toBeUndefined();
    expect(c.get(keys[4])).toBeDefined();
    expect(c.weight).toBe(32 + 33 + 34);
  });

  it.each([
    ['set a, b; get a; get b; set c', (c: ByteLRU<string>) => (c.get('a'), c.get('b')), 'a'],
    ['set a, b; get b; get a; set c', (c: ByteLRU<string>) => (c.get('b'), c.get('a')), 'b'],
    ['set a, b; get b twice; set c', (c: ByteLRU<string>) => (c.get('b'), c.get('b')), 'a'],
    ['set a, b; get a twice; set c', (c: ByteLRU<string>) => (c.get('a'), c.get('a')), 'b'],
    ['set a, b; delete b; set b; get a; set c', (c: ByteLRU<string>) => (c.delete('b'), c.set('b', bytes(1)), c.get('a')), 'b'],
    ['set a, b; clear; set a, b; get a; set c', (c: ByteLRU<string>) => (c.clear(), c.set('a', bytes(1)), c.set('b', bytes(1)), c.get('a')), 'b'],
  ])('%s: evicts the least recently used whatever was read last', (_what, reads, evicted) => {
    const c = new ByteLRU<string>(2);
    c.set('a', bytes(1));
    c.set('b', bytes(1));
    reads(c);
    c.set('c', bytes(1));
    const kept = ['a', 'b'].filter((k) => k !== evicted);
    expect(c.size).toBe(2);
    // read the one expected to stay first: reading the evicted one must find nothing
    expect(c.get(kept[0])).toBeDefined();
    expect(c.get(evicted)).toBeUndefined();
  });

  it('matches a model under random use, never over the bound', () => {
    const max = 50;
    const c = new ByteLRU<number>(max);
    let model: [number, number][] = []; // [key, size], least recent first
    let seed = 11;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let step = 0; step < 3000; step++) {
      const k = rnd(20);
      const op = rnd(10);
      if (op === 0 && model.length) {
        // the most recently used key, read again (it stays where it is)
        const [key, size] = model[model.length - 1];
        expect(c.get(key)?.byteLength).toBe(size);
      } else if (op === 1) {
        c.delete(k);
        model = model.filter(([key]) => key !== k);
      } else if (op === 2 && rnd(20) === 0) {
        c.clear();
        model = [];
      } else if (op < 6) {
        const hit = model.find(([key]) => key === k);
        expect(c.get(k)?.byteLength).toBe(hit?.[1]);
        if (hit) model = [...model.filter(([key]) => key !== k), hit];
      } else {
        const size = 1 + rnd(12);
        c.set(k, bytes(size));
        model = [...model.filter(([key]) => key !== k), [k, size]];
        while (model.reduce((s, [, n]) => s + n, 0) > max) model.shift();
      }
      expect(c.weight).toBeLessThanOrEqual(max);
      expect(c.weight).toBe(model.reduce((s, [, n]) => s + n, 0));
      expect(c.size).toBe(model.length);
    }
  });
});
