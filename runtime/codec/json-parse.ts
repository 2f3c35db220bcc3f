// A JSON parser that also reports duplicate object keys with their field
// paths (`metadata.name`, `spec.containers[0].image`), which JSON.parse
// silently collapses. Used on every write body, so it is a single pass with
// no backtracking. Syntax errors carry the offset and a Go-like description.

export class JSONSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
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

export function parseJSONStrict(text: string): ParsedJSON {
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
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            const hex = text.slice(i + 2, i + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) { i += 2; fail('in \\u hexadecimal character escape'); }
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

  const parseValue = (path: string): unknown => {
    ws();
    const c = text[i];
    if (c === '{') return parseObject(path);
    if (c === '[') return parseArray(path);
    if (c === '"') return parseString();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    if (c === '-' || (c >= '0' && c <= '9')) return parseNumber();
    return fail('looking for beginning of value');
  };

  const parseObject = (path: string): Record<string, unknown> => {
    i++;
    const obj: Record<string, unknown> = {};
    ws();
    if (text[i] === '}') { i++; return obj; }
    for (;;) {
      ws();
      if (text[i] !== '"') fail('looking for beginning of object key string');
      const key = parseString();
      ws();
      if (text[i] !== ':') fail('after object key');
      i++;
      const childPath = path ? `${path}.${key}` : key;
      const v = parseValue(childPath);
      if (Object.prototype.hasOwnProperty.call(obj, key)) duplicates.push(childPath);
      if (key === '__proto__') Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
      else obj[key] = v;
      ws();
      if (text[i] === ',') { i++; continue; }
      if (text[i] === '}') { i++; return obj; }
      fail('after object key:value pair');
    }
  };

  const parseArray = (path: string): unknown[] => {
    i++;
    const arr: unknown[] = [];
    ws();
    if (text[i] === ']') { i++; return arr; }
    for (;;) {
      arr.push(parseValue(`${path}[${arr.length}]`));
      ws();
      if (text[i] === ',') { i++; continue; }
      if (text[i] === ']') { i++; return arr; }
      fail('after array element');
    }
  };

  const value = parseValue('');
  ws();
  if (i < n) fail('after top-level value');
  return { value, duplicates };
}
