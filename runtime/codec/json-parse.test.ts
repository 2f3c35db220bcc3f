import { describe, expect, it } from 'vitest';
import { JSONSyntaxError, parseJSONStrict } from './json-parse.ts';

describe('parseJSONStrict', () => {
  it.each([
    ['{"a":1,"b":[1,2,{"c":null}],"d":"x\\ny\\u0041","e":-1.5e3,"f":true}'],
    ['[]'], ['{}'], ['"s"'], ['0'], ['  {"a" : { } } '],
  ])('parses %s like JSON.parse', (text) => {
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
});
