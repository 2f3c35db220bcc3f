import { afterEach, describe, expect, it, vi } from 'vitest';
import { JSONSyntaxError, parseJSONStrict, parseReporting } from './json-parse.ts';
import { MAX_NESTING_DEPTH } from './limits.ts';

describe('parseJSONStrict', () => {
  it.each([['{"a":1,"b":[1,2,{"c":null}],"d":"x\\ny\\u0041","e":-1.5e3,"f":true}'], ['[]'], ['{}'], ['"s"'], ['0'], ['  {"a" : { } } ']])('parses %s like JSON.parse', (text) => {
    const r = parseJSONStrict(text);
    expect(r.value).toEqual(JSON.parse(text));
    expect(r.duplicates).toEqual([]);
  });

  it('reports duplicate keys with field paths', () => {
    const r = parseJSONStrict('{"metadata":{"name":"a","name":"b"},"spec":{"c":[{"x":1,"x":2}]},"spec":{}}');
    expect(r.duplicates).toEqual(['metadata.name', 'spec.c[0].x', 'spec']);
    expect((r.value as any).metadata.name).toBe('b');
  });

  it.each([
    ['{', 'unexpected end of JSON input'],
    ['{"a":}', "invalid character '}' looking for beginning of value"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{"a":1} x', "invalid character 'x' after top-level value"],
    ['tru', 'unexpected end of JSON input'],
    ['"\\x"', "invalid character 'x' in string escape code"],
  ])('rejects %s', (text, msg) => {
    expect(() => parseJSONStrict(text)).toThrow(JSONSyntaxError);
    expect(() => parseJSONStrict(text)).toThrow(msg);
  });

  it('does not let __proto__ pollute', () => {
    const r = parseJSONStrict('{"__proto__":{"polluted":1}}');
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.keys(r.value as object)).toEqual(['__proto__']);
  });

  describe('nesting limit', () => {
    const arrays = (d: number) => '['.repeat(d) + ']'.repeat(d);
    const objects = (d: number) => '{"a":'.repeat(d) + '1' + '}'.repeat(d);
    const depthOf = (v: unknown): number => {
      let d = 0;
      while (v !== null && typeof v === 'object') {
        d++;
        v = Array.isArray(v) ? v[0] : (v as Record<string, unknown>).a;
      }
      return d;
    };

    it.each([
      ['lists', arrays],
      ['objects', objects],
    ])('accepts %s nested exactly to the limit', (_n, make) => {
      expect(depthOf(parseJSONStrict(make(MAX_NESTING_DEPTH)).value)).toBe(MAX_NESTING_DEPTH);
    });

    it.each([
      ['lists', arrays(MAX_NESTING_DEPTH + 1), "invalid character '[' exceeded max depth"],
      ['objects', objects(MAX_NESTING_DEPTH + 1), "invalid character '{' exceeded max depth"],
      ['empty list one past the limit', `${'['.repeat(MAX_NESTING_DEPTH)}[]${']'.repeat(MAX_NESTING_DEPTH)}`, "invalid character '[' exceeded max depth"],
      ['a million levels (no stack overflow)', '['.repeat(1_000_000), "invalid character '[' exceeded max depth"],
      ['a million unclosed objects', '{"a":'.repeat(1_000_000), "invalid character '{' exceeded max depth"],
    ])('rejects %s', (_n, text, msg) => {
      let err: unknown;
      try {
        parseJSONStrict(text);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(JSONSyntaxError);
      expect((err as Error).message).toBe(msg);
      expect((err as JSONSyntaxError).offset).toBe(MAX_NESTING_DEPTH * (text.startsWith('{') ? 5 : 1));
    });

    it('takes a smaller limit when asked', () => {
      expect(() => parseJSONStrict('[[[]]]', { maxDepth: 2 })).toThrow('exceeded max depth');
      expect(parseJSONStrict('[[]]', { maxDepth: 2 }).value).toEqual([[]]);
    });

    it('reports duplicates deep inside lists and objects', () => {
      const r = parseJSONStrict('[{"a":[0,{"b":1,"b":2}]},{"c":{"d":1,"d":2}}]');
      expect(r.duplicates).toEqual(['[0].a[1].b', '[1].c.d']);
    });
  });
});

describe('parseJSONStrict without duplicates, deep nesting or errors', () => {
  afterEach(() => vi.restoreAllMocks());

  // strings holding what the key count looks for: colons, quotes, backslashes, braces
  const tricky = ['a:b', 'x\\":', '\\', '{"k":1}', ':', '"', 'image:1.2', '\u0022:', '[:]'];
  const corpus = [
    '{"a":1}',
    '{"metadata":{"name":"n","labels":{"app":"x:y"}},"data":{"k":"v:\\":\\\\"}}',
    '{"a":"\\\\","b":"\\\\\\"","c":{"d":[{"e":":"},{"e":"}"}]}}',
    '{"__proto__":{"x":1},"y":[]}',
    '[{"a":1},{"a":1},[{"b":{"c":":"}}]]',
    ...tricky.map((t) => JSON.stringify({ [t]: t, nested: { [t + t]: [t, { [t]: null }] } })),
    // the same with a duplicate hidden among them
    ...tricky.map((t) => `{"${JSON.stringify(t).slice(1, -1)}":1,"z":"${JSON.stringify(t).slice(1, -1)}","z":2}`),
    '{"a":{"b":1,"c":":","b":2}}',
    '{"a":1,"a":1}',
  ];

  it.each(corpus)('gives what the full parser gives for %s', (text) => {
    expect(parseJSONStrict(text)).toEqual(parseReporting(text, MAX_NESTING_DEPTH));
  });

  it('builds the value with JSON.parse once and reports nothing', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const text = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a:b"},"data":{"k":"\\\\"}}';
    const r = parseJSONStrict(text);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(r).toEqual({ value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a:b' }, data: { k: '\\' } }, duplicates: [] });
  });

  it('reports duplicates, depth and syntax as the full parser does', () => {
    expect(parseJSONStrict('{"a":":","a":"\\":"}').duplicates).toEqual(['a']);
    expect(() => parseJSONStrict('[[[1]]]', { maxDepth: 2 })).toThrow("invalid character '[' exceeded max depth");
    expect(parseJSONStrict('[[1]]', { maxDepth: 2 }).value).toEqual([[1]]);
    expect(() => parseJSONStrict('{"a":1,}')).toThrow("invalid character '}' looking for beginning of object key string");
  });
});
