// A JSON parser that also reports duplicate object keys with their field
// paths (`metadata.name`, `spec.containers[0].image`), which JSON.parse
// silently collapses. Used on every write body, so it is a single pass with
// no backtracking. Syntax errors carry the offset and a Go-like description.
// Iterative (an explicit stack of open containers), so no input can overflow
// the call stack; nesting deeper than the limit (MAX_NESTING_DEPTH unless
// given) fails like Go's encoding/json at its own limit of 10,000:
// `invalid character '[' exceeded max depth`.
// Most bodies have neither duplicates nor deep nesting nor syntax errors: a
// first pass counts their keys and nesting without building anything and
// lets the engine's JSON.parse build the value; the full parser runs only
// when that pass finds something to report (a key count that JSON.parse's
// value does not have, nesting over the limit, a syntax error).
import { fieldPathIn, MAX_NESTING_DEPTH } from './limits.ts';

export class JSONSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export interface ParsedJSON {
  value: unknown;
  /** Field paths of keys that appeared more than once in one object. */
  duplicates: string[];
}

const WS = new Uint8Array(128);
WS[0x20] = WS[0x09] = WS[0x0a] = WS[0x0d] = 1;

/** An array or object being filled; `seg` is its key or index in its parent. */
interface Frame {
  arr: boolean;
  value: unknown[] | Record<string, unknown>;
  /** The key whose value comes next (objects). */
  key: string;
  seg: string | number;
}

export function parseJSONStrict(text: string, opts: { maxDepth?: number } = {}): ParsedJSON {
  const maxDepth = opts.maxDepth ?? MAX_NESTING_DEPTH;
  return parseClean(text, maxDepth) ?? parseReporting(text, maxDepth);
}

/**
 * The value of a text with no duplicate keys nested at most maxDepth deep,
 * by JSON.parse; undefined for any other text (and for a syntax error).
 * The keys of a valid JSON text are the strings followed by a colon, so a
 * count of the colons outside strings is the number of keys written; the
 * value has that many only when no object repeated one.
 */
function parseClean(text: string, maxDepth: number): ParsedJSON | undefined {
  let keys = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x3a) keys++;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return undefined;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return countKeys(value) === keys ? { value, duplicates: [] } : undefined;
}

/** The number of object keys in a parsed value, at every depth. */
function countKeys(value: unknown): number {
  let n = 0;
  const open: unknown[] = [value];
  while (open.length) {
    const v = open.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') open.push(x);
      continue;
    }
    for (const k in v) {
      n++;
      const x = (v as Record<string, unknown>)[k];
      if (x !== null && typeof x === 'object') open.push(x);
    }
  }
  return n;
}

/** The full parser (what parseJSONStrict falls back to): the value, every duplicate key's path, and errors with their offsets. */
export function parseReporting(text: string, maxDepth: number): ParsedJSON {
  let i = 0;
  const n = text.length;
  const duplicates: string[] = [];

  const describe = (pos: number): string => (pos >= n ? 'end of JSON input' : `character '${text[pos]}'`);
  const fail = (what: string): never => {
    if (i >= n) throw new JSONSyntaxError('unexpected end of JSON input', i);
    throw new JSONSyntaxError(`invalid ${describe(i)} ${what}`, i);
  };
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c < 128 && WS[c]) i++;
      else break;
    }
  };

  const parseString = (): string => {
    // text[i] === '"'
    const start = ++i;
    let out = '';
    let chunkStart = start;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(chunkStart, i);
        i++;
        return out;
      }
      if (c === 0x5c) {
        out += text.slice(chunkStart, i);
        const e = text[i + 1];
        switch (e) {
          case '"':
            out += '"';
            break;
          case '\\':
            out += '\\';
            break;
          case '/':
            out += '/';
            break;
          case 'b':
            out += '\b';
            break;
          case 'f':
            out += '\f';
            break;
          case 'n':
            out += '\n';
            break;
          case 'r':
            out += '\r';
            break;
          case 't':
            out += '\t';
            break;
          case 'u': {
            const hex = text.slice(i + 2, i + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
              i += 2;
              fail('in \\u hexadecimal character escape');
            }
            out += String.fromCharCode(parseInt(hex, 16));
            i += 4;
            break;
          }
          default:
            i++;
            fail('in string escape code');
        }
        i += 2;
        chunkStart = i;
        continue;
      }
      if (c < 0x20) fail('in string literal');
      i++;
    }
    throw new JSONSyntaxError('unexpected end of JSON input', i);
  };

  const parseNumber = (): number => {
    const start = i;
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (text[i] >= '1' && text[i] <= '9') while (text[i] >= '0' && text[i] <= '9') i++;
    else fail('in numeric literal');
    if (text[i] === '.') {
      i++;
      if (!(text[i] >= '0' && text[i] <= '9')) fail('after decimal point in numeric literal');
      while (text[i] >= '0' && text[i] <= '9') i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!(text[i] >= '0' && text[i] <= '9')) fail('in exponent of numeric literal');
      while (text[i] >= '0' && text[i] <= '9') i++;
    }
    return Number(text.slice(start, i));
  };

  const literal = (word: string, v: unknown): unknown => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return v;
    }
    // point at the first differing character
    let k = 0;
    while (k < word.length && text[i + k] === word[k]) k++;
    i += k;
    return fail(`in literal ${word} (expecting '${word[k]}')`);
  };

  /** Reads `"key" :` of an object member (the key's string and the colon). */
  const readKey = (): string => {
    ws();
    if (text[i] !== '"') fail('looking for beginning of object key string');
    const key = parseString();
    ws();
    if (text[i] !== ':') fail('after object key');
    i++;
    return key;
  };

  // The containers being filled, outermost first. A frame remembers how its
  // parent reaches it (`seg`), so field paths are only built for duplicates.
  const stack: Frame[] = [];
  const pathTo = (key: string): string => fieldPathIn(stack, key);

  let value: unknown;
  parse: for (;;) {
    // a value starts here
    ws();
    const c = text[i];
    let v: unknown;
    if (c === '{' || c === '[') {
      if (stack.length >= maxDepth) throw new JSONSyntaxError(`invalid character '${c}' exceeded max depth`, i);
      i++;
      const top = stack[stack.length - 1];
      const seg = top === undefined ? '' : top.arr ? (top.value as unknown[]).length : top.key;
      const frame: Frame = c === '[' ? { arr: true, value: [], key: '', seg } : { arr: false, value: {}, key: '', seg };
      ws();
      if (text[i] === (c === '[' ? ']' : '}')) {
        i++;
        v = frame.value;
      } else {
        stack.push(frame);
        if (!frame.arr) frame.key = readKey();
        continue parse;
      }
    } else if (c === '"') v = parseString();
    else if (c === 't') v = literal('true', true);
    else if (c === 'f') v = literal('false', false);
    else if (c === 'n') v = literal('null', null);
    else if (c === '-' || (c >= '0' && c <= '9')) v = parseNumber();
    else fail('looking for beginning of value');

    // the value is complete: store it, then close every container that ends here
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        value = v;
        break parse;
      }
      ws();
      if (top.arr) {
        (top.value as unknown[]).push(v);
        if (text[i] === ',') {
          i++;
          continue parse;
        }
        if (text[i] !== ']') fail('after array element');
      } else {
        const obj = top.value as Record<string, unknown>;
        const key = top.key;
        if (Object.prototype.hasOwnProperty.call(obj, key)) duplicates.push(pathTo(key));
        if (key === '__proto__') Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
        else obj[key] = v;
        if (text[i] === ',') {
          i++;
          top.key = readKey();
          continue parse;
        }
        if (text[i] !== '}') fail('after object key:value pair');
      }
      i++;
      v = top.value;
      stack.pop();
    }
  }
  ws();
  if (i < n) fail('after top-level value');
  return { value, duplicates };
}
