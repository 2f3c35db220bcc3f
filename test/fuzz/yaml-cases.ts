// YAML bodies for the fuzz harness: alias bombs (billion laughs), an alias
// to itself, unresolved aliases, deep nesting in flow and block style, tags,
// several documents, merge keys and complex keys, each wrapped around a
// valid object so that the YAML decoder is what gets exercised.

import { stringify } from 'yaml';
import type { Rng } from './rng.ts';

/** Billion laughs with `levels` levels of `width` aliases each. */
function laughs(levels: number, width: number): string {
  const lines = ['a0: &a0 ["lol"]'];
  for (let i = 1; i <= levels; i++) {
    lines.push(`a${i}: &a${i} [${new Array(width).fill(`*a${i - 1}`).join(', ')}]`);
  }
  return lines.join('\n');
}

function deepFlow(depth: number, open: string, close: string, leaf = '1'): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

function deepBlock(depth: number, asList: boolean): string {
  // indentation grows with depth: keep depth moderate so the body stays within the limit
  const lines: string[] = [];
  for (let i = 0; i < depth; i++) lines.push(`${' '.repeat(i)}${asList ? '-' : 'k:'}`);
  lines.push(`${' '.repeat(depth)}x`);
  return lines.join('\n');
}

/** A YAML body (text) and what it is. `base` is a valid object of the target kind. */
export function yamlBody(rng: Rng, base: Record<string, any>): { text: string; note: string; variant: string } {
  const r = yamlText(rng, base);
  return { ...r.out, variant: r.variant };
}

function yamlText(rng: Rng, base: Record<string, any>): { out: { text: string; note: string }; variant: string } {
  const head = stringify({ apiVersion: base.apiVersion, kind: base.kind, metadata: base.metadata });
  const rest = { ...base };
  delete rest.apiVersion;
  delete rest.kind;
  delete rest.metadata;
  const valid = stringify(base);
  const kind = rng.pick([
    'laughs',
    'laughs-in-object',
    'self-alias',
    'self-alias-map',
    'unresolved-alias',
    'deep-flow-seq',
    'deep-flow-map',
    'deep-block',
    'tags',
    'unknown-tag',
    'multi-doc',
    'empty-doc',
    'merge-keys',
    'complex-key',
    'anchor-on-key',
    'huge-scalar',
    'tabs',
    'directive',
    'numbers',
    'binary',
    'valid',
  ]);
  switch (kind) {
    case 'laughs': {
      const levels = rng.pick([3, 6, 9, 12]);
      const width = rng.pick([5, 9, 10]);
      return { out: { text: `${head}x:\n${laughs(levels, width).replace(/^/gm, '  ')}\ndata:\n  bomb: *a${levels}\n`, note: `billion laughs ${levels}x${width}` }, variant: kind };
    }
    case 'laughs-in-object': {
      const levels = rng.pick([4, 8, 10]);
      return { out: { text: `${laughs(levels, 10)}\n${head}spec:\n  x: *a${levels}\n`, note: `billion laughs at top level ${levels}x10` }, variant: kind };
    }
    case 'self-alias':
      return { out: { text: `${head}data: &a\n  k: *a\n`, note: 'alias to itself (map)' }, variant: kind };
    case 'self-alias-map':
      return { out: { text: `${head}spec: &a [*a, *a]\n`, note: 'alias to itself (sequence)' }, variant: kind };
    case 'unresolved-alias':
      return { out: { text: `${head}data:\n  k: *nowhere\n`, note: 'unresolved alias' }, variant: kind };
    case 'deep-flow-seq': {
      const d = rng.pick([100, 1000, 5000, 10_000, 100_000, 1_000_000]);
      return { out: { text: `${head}spec: ${deepFlow(d, '[', ']')}\n`, note: `flow sequence depth ${d}` }, variant: kind };
    }
    case 'deep-flow-map': {
      const d = rng.pick([100, 1000, 5000, 10_000, 100_000, 500_000]);
      return { out: { text: `${head}spec: ${deepFlow(d, '{a: ', '}')}\n`, note: `flow map depth ${d}` }, variant: kind };
    }
    case 'deep-block': {
      const d = rng.pick([50, 500, 1500]);
      return { out: { text: `${head}spec:\n${deepBlock(d, rng.chance(0.5)).replace(/^/gm, '  ')}\n`, note: `block nesting depth ${d}` }, variant: kind };
    }
    case 'tags': {
      const tag = rng.pick([
        '!!str 5',
        '!!int "x"',
        '!!float abc',
        '!!bool maybe',
        '!!null x',
        '!!binary "$$$"',
        '!!timestamp nope',
        '!!set {a, b}',
        '!!omap [a: 1, a: 2]',
        '!!pairs [a: 1]',
        '!!map [1]',
        '!!seq {a: 1}',
        '!!int 0x7fffffffffffffffff',
        '!!float .nan',
        '!!float -.inf',
      ]);
      return { out: { text: `${head}data:\n  k: ${tag}\n`, note: `tag ${tag}` }, variant: kind };
    }
    case 'unknown-tag': {
      const tag = rng.pick(['!custom x', '!!python/object:os.system ["id"]', '!<tag:yaml.org,2002:js/function> "function(){}"', '!ruby/object:Gem::Installer {}', '!include /etc/passwd', '!<!> x']);
      return { out: { text: `${head}data:\n  k: ${tag}\n`, note: `unknown tag ${tag}` }, variant: kind };
    }
    case 'multi-doc': {
      const n = rng.pick([2, 3, 100]);
      return { out: { text: new Array(n).fill(valid).join('---\n'), note: `${n} documents` }, variant: kind };
    }
    case 'empty-doc':
      return { out: { text: rng.pick(['', '---\n', '---\n...\n', '# only a comment\n', '~\n', '[]\n', '"str"\n', '---\n---\n']), note: 'empty or non-object document' }, variant: kind };
    case 'merge-keys':
      return { out: { text: `base: &b {k: v}\n${head}data:\n  <<: *b\n  <<: [*b, *b]\n`, note: 'merge keys' }, variant: kind };
    case 'complex-key':
      return { out: { text: `${head}data:\n  ? [a, b]\n  : v\n  ? {x: 1}\n  : w\n`, note: 'complex keys' }, variant: kind };
    case 'anchor-on-key':
      return { out: { text: `${head}data:\n  &k key: v\n  *k : w\n`, note: 'anchor on a key, alias as key (duplicate)' }, variant: kind };
    case 'huge-scalar': {
      const n = rng.pick([100_000, 1_000_000, 3_000_000]);
      return { out: { text: `${head}data:\n  k: ${'x'.repeat(n)}\n`, note: `plain scalar ${n}` }, variant: kind };
    }
    case 'tabs':
      return { out: { text: `${head}data:\n\tk: v\n`, note: 'tab indentation' }, variant: kind };
    case 'directive':
      return { out: { text: `%YAML 1.1\n%TAG !e! tag:example.com,2000:\n---\n${valid}`, note: 'directives' }, variant: kind };
    case 'numbers': {
      const n = rng.pick(['0x10', '0o17', '1_000', '1e400', '.inf', '9223372036854775808', '-0', '0b101', '012']);
      return { out: { text: `${head}spec:\n  replicas: ${n}\n${stringify(rest)}`, note: `number ${n}` }, variant: kind };
    }
    case 'binary':
      return { out: { text: `${head}binaryData:\n  b: !!binary |\n    R0lGODlhDAAMAIQAAP//9/X\n`, note: 'binary block' }, variant: kind };
    default:
      return { out: { text: valid, note: 'valid' }, variant: kind };
  }
}
