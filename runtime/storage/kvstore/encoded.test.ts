// servedJSON against the parse-stamp-serialize road it replaces, over a table
// of stored shapes and a seeded random sample: the same string every time.
// Stored text is always JSON.stringify output (encodeObject), so every input
// here is too.
import { describe, expect, it } from 'vitest';
import { encodeObject, decodeValue } from './codec.ts';
import { servedJSON } from './encoded.ts';

const slow = (text: string, rev: number) => JSON.stringify(decodeValue(text, rev));

describe('servedJSON', () => {
  const rows: [string, string][] = [
    ['usual object', encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns', labels: { x: 'y' } }, data: { k: 'v' } })],
    ['metadata first, apiVersion last', encodeObject({ metadata: { name: 'a' }, kind: 'X', apiVersion: 'g/v1' })],
    ['empty metadata', '{"apiVersion":"v1","metadata":{},"kind":"X"}'],
    ['no metadata', '{"apiVersion":"v1","kind":"X"}'],
    ['empty object', '{}'],
    ['metadata null', '{"apiVersion":"v1","metadata":null}'],
    ['metadata a string', '{"metadata":"x","apiVersion":"v1"}'],
    ['stored resourceVersion', '{"metadata":{"name":"a","resourceVersion":"3"}}'],
    ["nested resourceVersion is not metadata's", '{"metadata":{"labels":{"resourceVersion":"x"},"name":"a"},"spec":{"resourceVersion":"y"}}'],
    ['keys that look like metadata inside strings', '{"data":{"k":"\\"metadata\\":{\\"a\\":1}"},"metadata":{"name":"a\\\\"},"x":"}"}'],
    ['escaped apiVersion', encodeObject({ apiVersion: 'a"b\\/v1\n', metadata: {} })],
    ['apiVersion not a string', '{"apiVersion":5,"metadata":{"name":"a"}}'],
    ['a metadata key in a nested object', '{"spec":{"metadata":{"name":"t"}},"metadata":{"name":"a"}}'],
    ['arrays and braces in strings', '{"a":[{"b":"]}"},[1,2,{"c":"{["}]],"metadata":{"annotations":{"q":"\\\\\\""}}}'],
    ['unicode and a trailing metadata', encodeObject({ kind: 'K', spec: { s: 'é\u2028😀\ud800' }, metadata: { name: 'ü' } })],
  ];
  it.each(rows)('%s', (_, text) => {
    for (const rev of [1, 42, 1234567890123]) {
      const out = servedJSON(text, rev);
      expect(out.json).toBe(slow(text, rev));
      const parsed = JSON.parse(slow(text, rev));
      expect(out.apiVersion).toBe(typeof parsed.apiVersion === 'string' ? parsed.apiVersion : '');
    }
  });

  it('agrees with the slow road on random objects', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const chars = ['a', '"', '\\', '{', '}', '[', ']', ',', ':', 'é', '\n', 'metadata', 'apiVersion', 'resourceVersion'];
    const str = () => Array.from({ length: Math.floor(rnd() * 6) }, () => chars[Math.floor(rnd() * chars.length)]).join('');
    const value = (d: number): unknown => {
      const r = rnd();
      if (d > 3 || r < 0.3) return str();
      if (r < 0.4) return Math.floor(rnd() * 1000) / 7;
      if (r < 0.5) return rnd() < 0.5 ? null : true;
      if (r < 0.7) return Array.from({ length: Math.floor(rnd() * 3) }, () => value(d + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(rnd() * 4) }, () => [str(), value(d + 1)]));
    };
    for (let i = 0; i < 2000; i++) {
      const obj: Record<string, unknown> = {};
      const keys = ['apiVersion', 'kind', 'metadata', 'spec', str()].sort(() => rnd() - 0.5);
      for (const k of keys) if (rnd() < 0.8) obj[k] = k === 'metadata' && rnd() < 0.8 ? { name: str(), labels: { [str()]: str() }, [str()]: value(2) } : value(1);
      const text = encodeObject(obj);
      const rev = 1 + Math.floor(rnd() * 1e6);
      expect(servedJSON(text, rev).json).toBe(slow(text, rev));
    }
  });
});
