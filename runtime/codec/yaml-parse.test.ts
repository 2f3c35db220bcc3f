import { describe, expect, it } from 'vitest';
import { MAX_YAML_TOKENS, parseYAMLStrict, YAMLSyntaxError, YAMLTooLargeError } from './yaml-parse.ts';
import { MAX_NESTING_DEPTH } from './limits.ts';

const L = MAX_NESTING_DEPTH;

function failure(text: string): string {
  try {
    parseYAMLStrict(text);
  } catch (e) {
    expect(e).toBeInstanceOf(YAMLSyntaxError);
    return (e as Error).message;
  }
  throw new Error('no error');
}

/** `levels` of anchors, each a list of `fanout` aliases of the one before. */
function laughs(levels: number, fanout: number): string {
  const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i <= levels; i++)
    lines.push(
      `a${i}: &a${i} [${Array(fanout)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  return lines.join('\n') + '\n';
}

const blockMaps = (d: number) => Array.from({ length: d }, (_, i) => `${'  '.repeat(i)}a:`).join('\n') + '\n';
const blockSeqs = (d: number) => '- '.repeat(d) + 'x\n';
const flowSeqs = (d: number) => 'x: ' + '['.repeat(d - 1) + ']'.repeat(d - 1) + '\n';
const flowMaps = (d: number) => 'x: ' + '{a: '.repeat(d - 1) + '1' + '}'.repeat(d - 1) + '\n';
const mixed = (d: number) => Array.from({ length: d - 1 }, (_, i) => `${'  '.repeat(i)}${i % 2 ? 'a:' : '- '}`).join('\n') + ` [x]\n`;

function depthOf(v: unknown): number {
  let d = 0;
  while (v !== null && typeof v === 'object') {
    d++;
    v = Array.isArray(v) ? v[0] : Object.values(v as object)[0];
  }
  return d;
}

describe('parseYAMLStrict', () => {
  it('decodes a manifest', () => {
    const r = parseYAMLStrict('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: "1"\n');
    expect(r.value).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: '1' } });
    expect(r.duplicates).toEqual([]);
  });
  it('accepts JSON as YAML', () => {
    expect(parseYAMLStrict('{"a": [1, 2]}').value).toEqual({ a: [1, 2] });
  });
  it('reports duplicate keys', () => {
    const r = parseYAMLStrict('metadata:\n  name: a\n  name: b\nspec:\n  c:\n  - x: 1\n    x: 2\n');
    expect(r.duplicates).toEqual(['metadata.name', 'spec.c[0].x']);
  });
  it('rejects malformed YAML', () => {
    expect(() => parseYAMLStrict('a: [1, 2\nb: }')).toThrow(YAMLSyntaxError);
  });

  it.each([
    ['an unknown anchor', 'metadata: {name: u}\ndata: *nope\n', "unknown anchor 'nope' referenced"],
    ['an alias inside its own anchor (list)', 'data: &a [*a]\n', "anchor 'a' value contains itself"],
    ['an alias inside its own anchor (map)', 'data: &a {x: {y: *a}}\n', "anchor 'a' value contains itself"],
    ['a redefined anchor used inside itself', 'a: &x 1\nb: &x [*x]\n', "anchor 'x' value contains itself"],
    ['a billion laughs', laughs(9, 9), 'document contains excessive aliasing'],
    ['a smaller bomb', laughs(4, 10), 'document contains excessive aliasing'],
    ['a collection as a key', '[a, b]: 1\n', 'invalid map key: a sequence cannot be a key'],
    ['two documents', 'a: 1\n---\nb: 2\n', 'multiple documents are not supported in a request body'],
  ])('rejects %s with a go-yaml message', (_n, text, problem) => {
    expect(failure(text)).toBe(`error converting YAML to JSON: yaml: ${problem}`);
  });

  it('expands aliases to the anchor before them, as go-yaml binds them', () => {
    const r = parseYAMLStrict('a: &x {k: 1}\nb: *x\nc: &x [2]\nd: *x\ne: [&y 3, *y]\n');
    expect(r.value).toEqual({ a: { k: 1 }, b: { k: 1 }, c: [2], d: [2], e: [3, 3] });
    // expansions are copies
    const v = r.value as { a: object; b: object };
    expect(v.a).not.toBe(v.b);
  });

  it('accepts the aliasing go-yaml accepts', () => {
    // about 1,360 nodes decoded, 97% of them through aliases: under go-yaml's 99%
    expect(Object.keys(parseYAMLStrict(laughs(2, 10)).value as object)).toHaveLength(3);
    expect(failure(laughs(3, 10))).toBe('error converting YAML to JSON: yaml: document contains excessive aliasing');
  });

  it('decodes a pair in a flow list as a one-key map and null keys as ""', () => {
    expect(parseYAMLStrict('l: [a: 1, b]\n~: 2\n').value).toEqual({ l: [{ a: 1 }, 'b'], '': 2 });
  });

  it('turns YAML 1.1 binary, timestamps and merge keys into JSON values', () => {
    const r = parseYAMLStrict('%YAML 1.1\n---\na: !!binary aGVsbG8=\nb: 2001-12-14\n<<: {m: 1}\n');
    expect(r.value).toEqual({ a: 'hello', b: '2001-12-14T00:00:00.000Z', '<<': { m: 1 } });
  });

  it('does not let __proto__ pollute', () => {
    const r = parseYAMLStrict('__proto__: {polluted: 1}\n');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(r.value as object)).toEqual(['__proto__']);
  });

  it('reads JSON bodies like YAML, duplicates included', () => {
    const text = '{"metadata":{"name":"a","name":"b"},"l":[1,{"x":null}]}';
    const r = parseYAMLStrict(text);
    expect(r.value).toEqual({ metadata: { name: 'b' }, l: [1, { x: null }] });
    expect(r.duplicates).toEqual(['metadata.name']);
    // JSON-like flow YAML that is not JSON still works
    expect(parseYAMLStrict('{a: [1, 2], "b": c} # comment').value).toEqual({ a: [1, 2], b: 'c' });
  });

  it('refuses bodies of more than MAX_YAML_TOKENS tokens, but not JSON ones', () => {
    // block lists: `- 1` and a line break are 4 tokens
    const items = (n: number) => Array(n).fill('- 1').join('\n') + '\n';
    expect(parseYAMLStrict(items(MAX_YAML_TOKENS / 8)).value).toHaveLength(MAX_YAML_TOKENS / 8);
    expect(() => parseYAMLStrict(items(MAX_YAML_TOKENS / 2))).toThrow(YAMLTooLargeError);
    expect(() => parseYAMLStrict(items(MAX_YAML_TOKENS / 2))).toThrow(`a YAML body may have at most ${MAX_YAML_TOKENS} tokens; send large objects as JSON`);
    const json = `[${Array(MAX_YAML_TOKENS).fill('1').join(',')}]`;
    expect(parseYAMLStrict(json).value).toHaveLength(MAX_YAML_TOKENS);
  });

  describe('nesting limit', () => {
    it.each([
      ['block maps', blockMaps],
      ['block lists', blockSeqs],
      ['flow lists', flowSeqs],
      ['flow maps', flowMaps],
      ['block lists and maps', mixed],
    ])('%s: the limit passes, one more fails', (_n, make) => {
      expect(depthOf(parseYAMLStrict(make(L)).value)).toBe(L);
      expect(failure(make(L + 1))).toBe(`error converting YAML to JSON: yaml: exceeded max depth of ${L}`);
    });

    it('JSON bodies: the limit passes, one more fails with the YAML message', () => {
      const json = (d: number) => '['.repeat(d) + ']'.repeat(d);
      expect(depthOf(parseYAMLStrict(json(L)).value)).toBe(L);
      expect(failure(json(L + 1))).toBe(`error converting YAML to JSON: yaml: exceeded max depth of ${L}`);
    });

    it.each([
      ['flow lists', 'x: ' + '['.repeat(1_000_000)],
      ['flow maps', 'x: ' + '{a: '.repeat(500_000)],
      ['block lists', '- '.repeat(1_000_000) + 'x'],
    ])('stops a million levels of %s early', (_n, text) => {
      expect(failure(text)).toBe(`error converting YAML to JSON: yaml: exceeded max depth of ${L}`);
    });

    it('counts the depth that aliases add', () => {
      const half = Math.ceil(L / 2) + 1;
      const text = `a: &a ${'['.repeat(half)}${']'.repeat(half)}\nb: ${'['.repeat(half)}*a${']'.repeat(half)}\n`;
      expect(failure(text)).toBe(`error converting YAML to JSON: yaml: exceeded max depth of ${L}`);
    });
  });
});
