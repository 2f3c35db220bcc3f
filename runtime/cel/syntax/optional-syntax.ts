// Source front end for the optional syntax the @bufbuild/cel parser lacks:
// `a.?b`, `a[?k]`, `[?x]` and `{?k: v}` are rewritten into plain CEL with
// marker identifiers before parsing (parse.ts turns the markers into calls to
// the `@opt*` functions). Strings and comments are left untouched.
// Boundary: text rewriting only.

export const OPT_SELECT_PREFIX = '__celoptsel__';
export const OPT_INDEX_MARK = '__celoptidx__';
export const OPT_ELEM_MARK = '__celoptelem__';

interface Tok {
  start: number;
  end: number;
  text: string;
  kind: 'str' | 'ident' | 'num' | 'punct' | 'space';
}

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const start = i;
    const c = src[i];
    if (/\s/.test(c)) {
      while (i < src.length && /\s/.test(src[i])) i++;
      out.push({ start, end: i, text: src.slice(start, i), kind: 'space' });
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
      out.push({ start, end: i, text: src.slice(start, i), kind: 'space' });
      continue;
    }
    const pm = /^(?:[rRbB]{1,2})?("""|'''|"|')/.exec(src.slice(i, i + 5));
    if (pm && (pm[0].length === pm[1].length || /^[rRbB]+$/.test(pm[0].slice(0, pm[0].length - pm[1].length)))) {
      const prefix = pm[0].slice(0, pm[0].length - pm[1].length);
      const raw = /[rR]/.test(prefix);
      const q = pm[1];
      i += pm[0].length;
      while (i < src.length && !src.startsWith(q, i)) {
        if (src[i] === '\\' && !raw) i++;
        i++;
      }
      i += q.length;
      out.push({ start, end: i, text: src.slice(start, i), kind: 'str' });
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      while (i < src.length && /[A-Za-z0-9_]/.test(src[i])) i++;
      out.push({ start, end: i, text: src.slice(start, i), kind: 'ident' });
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (i < src.length && /[0-9a-fA-FxXuU.eE]/.test(src[i])) i++;
      out.push({ start, end: i, text: src.slice(start, i), kind: 'num' });
      continue;
    }
    i++;
    out.push({ start, end: i, text: c, kind: 'punct' });
  }
  return out;
}

/** True when the source uses optional syntax (cheap pre-check). */
export function hasOptionalSyntax(src: string): boolean {
  return src.includes('?');
}

/** Rewrites the optional syntax into marker form; returns the source unchanged when there is none. */
export function rewriteOptionalSyntax(src: string): string {
  if (!hasOptionalSyntax(src)) return src;
  const toks = lex(src);
  const sig = (k: number, dir: -1 | 1): Tok | undefined => {
    for (let j = k + dir; j >= 0 && j < toks.length; j += dir) if (toks[j].kind !== 'space') return toks[j];
    return undefined;
  };
  const insertAfter = new Map<number, string>(); // token index -> text appended after it
  const replace = new Map<number, string>();
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.kind !== 'punct' || t.text !== '?') continue;
    const prev = sig(k, -1);
    if (prev?.text === '.') {
      // a.?b
      const next = sig(k, 1);
      if (next?.kind === 'ident') {
        replace.set(k, OPT_SELECT_PREFIX);
        continue;
      }
    }
    if (prev && (prev.text === '[' || prev.text === ',' || prev.text === '{')) {
      // find the element end at the same depth
      let depth = 0;
      let endTok = -1;
      for (let j = k + 1; j < toks.length; j++) {
        const x = toks[j].text;
        if (toks[j].kind !== 'punct') continue;
        if (x === '(' || x === '[' || x === '{') depth++;
        else if (x === ')' || x === ']' || x === '}') {
          if (depth === 0) {
            endTok = j;
            break;
          }
          depth--;
        } else if ((x === ',' || x === ':') && depth === 0) {
          endTok = j;
          break;
        }
      }
      if (endTok < 0) continue;
      const prevIdx = toks.indexOf(prev);
      const before = prevIdx > 0 ? sig(prevIdx, -1) : undefined;
      const isIndex =
        prev.text === '[' && before !== undefined && (before.kind === 'ident' || before.kind === 'num' || before.kind === 'str' || before.text === ')' || before.text === ']' || before.text === '}');
      replace.set(k, `${isIndex ? OPT_INDEX_MARK : OPT_ELEM_MARK}(`);
      // close before endTok: find last non-space token before endTok
      let last = endTok - 1;
      while (last > k && toks[last].kind === 'space') last--;
      insertAfter.set(last, (insertAfter.get(last) ?? '') + ')');
    }
  }
  let out = '';
  toks.forEach((t, k) => {
    out += replace.get(k) ?? t.text;
    out += insertAfter.get(k) ?? '';
  });
  return out;
}
