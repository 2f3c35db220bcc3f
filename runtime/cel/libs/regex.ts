// Kubernetes regex library: `string.find(regex)`, `string.findAll(regex)`,
// `string.findAll(regex, limit)`. Patterns are RE2: they are validated and
// tested with @bufbuild/re2 (the linear-time engine @bufbuild/cel uses for
// `matches`), which answers only whether a match exists. Match positions
// come from a JavaScript RegExp translated from the RE2 pattern, run only
// when RE2 has already found a match (so a pattern that cannot match never
// reaches the backtracking engine). Compiled patterns are cached.
// Boundary: these functions and the translation.
import { celMethod, CelScalar, listType, type CelFunc } from '@bufbuild/cel';
import { RE2JS } from '@bufbuild/re2';
import { fail } from '../opaque.ts';

interface Compiled {
  re2: RE2JS;
  js: RegExp;
}
const cache = new Map<string, Compiled>();

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** Translates RE2 syntax to an equivalent JavaScript `u`-mode pattern and flags. */
export function re2ToJs(pattern: string): { source: string; flags: string } {
  let flags = 'gu';
  let src = pattern;
  const lead = /^\(\?([imsU]+)\)/.exec(src);
  if (lead) {
    if (lead[1].includes('i')) flags += 'i';
    if (lead[1].includes('m')) flags += 'm';
    if (lead[1].includes('s')) flags += 's';
    src = src.slice(lead[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      const n = src[i + 1];
      if (n === 'A') {
        out += '^';
        i++;
        continue;
      }
      if (n === 'z') {
        out += '$(?![\\s\\S])';
        i++;
        continue;
      }
      if ((n === 'p' || n === 'P') && src[i + 2] !== '{') {
        out += `\\${n}{${src[i + 2]}}`;
        i += 2;
        continue;
      }
      if (n === 'Q') {
        const end = src.indexOf('\\E', i + 2);
        const lit = src.slice(i + 2, end < 0 ? undefined : end);
        out += lit.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
        i = end < 0 ? src.length : end + 1;
        continue;
      }
      out += c + (n ?? '');
      i++;
      continue;
    }
    if (inClass) {
      const pm = /^\[:(\^?)(\w+):\]/.exec(src.slice(i));
      if (pm && POSIX[pm[2]]) {
        if (pm[1]) return fail(`negated POSIX classes are not supported in find: ${pattern}`);
        out += POSIX[pm[2]];
        i += pm[0].length - 1;
        continue;
      }
      if (c === ']') inClass = false;
      else if (c === '-' && src[i + 1] === ']') {
        out += '\\-';
        continue;
      }
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      if (src[i + 1] === '^') {
        out += '^';
        i++;
      }
      if (src[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && src.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
      continue;
    }
    out += c;
  }
  return { source: out, flags };
}

export function compileRegex(pattern: string): Compiled {
  let c = cache.get(pattern);
  if (!c) {
    let re2: RE2JS;
    try {
      re2 = RE2JS.compile(pattern);
    } catch (e) {
      return fail(`invalid regular expression '${pattern}': ${(e as Error).message}`);
    }
    const { source, flags } = re2ToJs(pattern);
    let js: RegExp;
    try {
      js = new RegExp(source, flags);
    } catch (e) {
      return fail(`unsupported regular expression '${pattern}': ${(e as Error).message}`);
    }
    c = { re2, js };
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, c);
  }
  return c;
}

/** Every non-overlapping match, up to limit (negative: all). */
export function findAll(pattern: string, input: string, limit = -1): string[] {
  const c = compileRegex(pattern);
  if (limit === 0 || !c.re2.test(input)) return [];
  const out: string[] = [];
  c.js.lastIndex = 0;
  let m: RegExpExecArray | null;
  let prevEnd = -1;
  while ((limit < 0 || out.length < limit) && (m = c.js.exec(input)) !== null) {
    // As RE2 does, an empty match abutting the previous match is not reported.
    if (!(m[0] === '' && m.index === prevEnd)) out.push(m[0]);
    prevEnd = m.index + m[0].length;
    if (m[0] === '') c.js.lastIndex = m.index + (input.codePointAt(m.index)! > 0xffff ? 2 : 1);
    if (c.js.lastIndex > input.length) break;
  }
  return out;
}

export const regexFuncs: CelFunc[] = [
  celMethod('find', CelScalar.STRING, [CelScalar.STRING], CelScalar.STRING, function (re) {
    return findAll(re, this, 1)[0] ?? '';
  }),
  celMethod('findAll', CelScalar.STRING, [CelScalar.STRING], listType(CelScalar.STRING), function (re) {
    return findAll(re, this);
  }),
  celMethod('findAll', CelScalar.STRING, [CelScalar.STRING, CelScalar.INT], listType(CelScalar.STRING), function (re, n) {
    return findAll(re, this, Number(n));
  }),
];
