// The byte arena: texts come back byte for byte (ASCII, multi-byte, empty,
// bigger than a slab's share; as views and copied out), a mostly retired slab is compacted into the
// slab being filled without changing anyone's bytes (views taken before stay
// valid), a slab that is still mostly current is left alone, and retiring
// twice counts once.
import { describe, expect, it } from 'vitest';
import { ByteArena, Held } from './byte-arena.ts';

const held = (arena: ByteArena, text: string): Held => {
  const h = new Held();
  arena.put(h, text);
  return h;
};

describe('byte arena', () => {
  it.each([
    ['ASCII', '{"a":"b"}'],
    ['multi-byte characters', '{"v":"é😀\\"\\\\ü"}'],
    ['empty', ''],
    ['a quarter of a slab', 'x'.repeat(64)],
    ['bigger than a quarter of a slab: a buffer of its own', 'y'.repeat(65) + 'é'],
    ['bigger than a slab', 'z'.repeat(1000)],
  ])('%s: the same text and bytes back', (_name, text) => {
    const arena = new ByteArena(256);
    const before = held(arena, 'before');
    const h = held(arena, text);
    const after = held(arena, 'after');
    expect(h.text).toBe(text);
    expect(Buffer.compare(h.bytes, Buffer.from(text))).toBe(0);
    expect([before.text, after.text]).toEqual(['before', 'after']);
    // copied out without a view: the same bytes at the place asked for, nothing around them touched
    const out = Buffer.alloc(h.byteLength + 4, 0x2e);
    expect(h.byteLength).toBe(Buffer.byteLength(text));
    expect(h.copyBytes(out, 2)).toBe(h.byteLength);
    expect(out.toString()).toBe(`..${text}..`);
  });

  it('packs small texts into one slab', () => {
    const arena = new ByteArena(256);
    const hs = Array.from({ length: 10 }, (_, i) => held(arena, `item-${i}`));
    expect(new Set(hs.map((h) => h.slab)).size).toBe(1);
    expect(arena.filling).toEqual({ used: hs.reduce((n, h) => n + h.len, 0), live: hs.reduce((n, h) => n + h.len, 0) });
  });

  it('compacts a mostly retired slab: the current holders move, keeping their bytes; old views stay valid', () => {
    const arena = new ByteArena(100);
    const first = Array.from({ length: 10 }, (_, i) => held(arena, `${i}`.padStart(10, 'a')));
    const old = first[0].slab;
    expect(first.every((h) => h.slab === old)).toBe(true);
    held(arena, 'next slab');
    const view = first[9].bytes;
    for (let i = 0; i < 5; i++) arena.retire(first[i]);
    // half retired: not yet under half current
    expect(first[9].slab).toBe(old);
    arena.retire(first[5]);
    for (let i = 6; i < 10; i++) {
      expect(first[i].slab).not.toBe(old);
      expect(first[i].text).toBe(`${i}`.padStart(10, 'a'));
    }
    // retired holders still read their bytes from the old slab
    expect(first[0].slab).toBe(old);
    expect(first[0].text).toBe('aaaaaaaaa0');
    expect(view.toString()).toBe('aaaaaaaaa9');
    expect(old.members).toEqual([]);
  });

  it('compacts a slab left mostly retired when it is done being filled', () => {
    const arena = new ByteArena(100);
    const a = Array.from({ length: 9 }, (_, i) => held(arena, `${i}`.padStart(10, 'b')));
    const s = a[0].slab;
    for (let i = 0; i < 8; i++) arena.retire(a[i]);
    // the slab being filled is not compacted while it is filled
    expect(a[8].slab).toBe(s);
    held(arena, 'x'.repeat(20));
    expect(a[8].slab).not.toBe(s);
    expect(a[8].text).toBe('bbbbbbbbb8');
  });

  it('leaves slabs that are mostly current alone, and counts a retirement once', () => {
    const arena = new ByteArena(100);
    const a = Array.from({ length: 10 }, (_, i) => held(arena, `${i}`.padStart(10, 'c')));
    const s = a[0].slab;
    held(arena, 'next slab');
    arena.retire(a[0]);
    arena.retire(a[0]);
    arena.retire(a[0]);
    expect(s.live).toBe(90);
    expect(a.every((h) => h.slab === s)).toBe(true);
  });

  it('keeps bytes exact through many rounds of replacement, and slabs at least half current', () => {
    const arena = new ByteArena(512);
    const current = new Map<string, Held>();
    const want = new Map<string, string>();
    const write = (k: string, text: string) => {
      const prev = current.get(k);
      current.set(k, held(arena, text));
      if (prev) arena.retire(prev);
      want.set(k, text);
    };
    for (let round = 0; round < 50; round++) {
      // keys written once, in different slabs, among keys rewritten every round or two
      if (round % 5 === 0) write(`once-${round}`, `{"once":${round}}`);
      for (let k = 0; k < 20; k++) {
        if ((k * 7 + round) % 3 === 0) continue;
        write(`k${k}`, `{"k":${k},"r":${round},"pad":"${'é'.repeat((k + round) % 9)}${'p'.repeat((k * round) % 40)}"}`);
      }
      for (const [k, h] of current) expect(h.text).toBe(want.get(k));
    }
    // every slab holding current bytes is at least half current, but for the one being filled
    const slabs = new Set([...current.values()].map((h) => h.slab));
    expect([...slabs].filter((s) => s.live * 2 < s.used).length).toBeLessThanOrEqual(1);
  });
});
