// The uid set against a plain Set over a mixed sequence of adds and deletes
// (server-made UUIDs, uppercase and odd uids that take the other road, the
// all-zero UUID), through growth and tombstone clean-ups.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UidSet } from './uid-set.ts';

describe('uid set', () => {
  it.each([
    ['a lowercase UUID', randomUUID()],
    ['the all-zero UUID', '00000000-0000-0000-0000-000000000000'],
    ['the all-f UUID', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
    ['an uppercase UUID (kept as text)', randomUUID().toUpperCase()],
    ['not a UUID', 'uid-1'],
    ['empty', ''],
    ['a UUID with a character too many', randomUUID() + '0'],
  ])('%s: added, found, deleted', (_name, uid) => {
    const set = new UidSet(4);
    expect(set.has(uid)).toBe(false);
    set.add(uid);
    set.add(uid);
    expect([set.has(uid), set.size]).toEqual([true, 1]);
    set.delete(uid);
    expect([set.has(uid), set.size]).toEqual([false, 0]);
  });

  it('tells apart UUIDs that differ in one digit', () => {
    const set = new UidSet(4);
    const base = randomUUID();
    set.add(base);
    for (let i = 0; i < 36; i++) {
      if (base[i] === '-') continue;
      const other = base.slice(0, i) + (base[i] === '0' ? '1' : '0') + base.slice(i + 1);
      expect(set.has(other)).toBe(false);
    }
  });

  it('agrees with a Set through growth, deletions and re-adds', () => {
    const set = new UidSet(8);
    const want = new Set<string>();
    const pool = Array.from({ length: 3000 }, (_, i) => (i % 50 === 0 ? `odd-${i}` : randomUUID()));
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let step = 0; step < 20000; step++) {
      const uid = pool[next() % pool.length];
      if (next() % 3 === 0) {
        set.delete(uid);
        want.delete(uid);
      } else {
        set.add(uid);
        want.add(uid);
      }
      if (step % 1000 === 0) for (const u of pool) expect(set.has(u)).toBe(want.has(u));
    }
    expect(set.size).toBe(want.size);
    for (const u of pool) expect(set.has(u)).toBe(want.has(u));
  });
});
