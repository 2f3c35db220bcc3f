// The JSON of a stored object as a read serves it, made from the stored text
// without parsing it: the stored text (JSON.stringify output without
// metadata.resourceVersion, codec.ts) with `"resourceVersion":"<rev>"`
// spliced in where decodeValue() would put it (the last member of metadata,
// or a new metadata member at the end of the object). The result is the same
// string as JSON.stringify(decodeValue(text, rev)); anything the splice
// cannot be sure of (metadata not an object, a stored resourceVersion, text
// that is not a JSON object) takes that slower road instead. Also reports the
// object's apiVersion. The text must be JSON.stringify output, as every
// stored value is (encodeObject): for such text parse-then-serialize gives the
// text back, which is what makes the splice exact. Pure functions.
import { decodeValue } from './codec.ts';

export interface ServedJSON {
  /** JSON.stringify(decodeValue(text, rev)). */
  json: string;
  /** The top-level apiVersion ('' when absent or not a string). */
  apiVersion: string;
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** Index of the quote closing the string that opens at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let j = text.indexOf('"', start + 1);
  while (j > 0) {
    let slashes = 0;
    for (let k = j - 1; text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return j;
    j = text.indexOf('"', j + 1);
  }
  return -1;
}

/** The slow road: parse, stamp, serialize. */
function viaParse(text: string, rev: number): ServedJSON {
  const obj = decodeValue(text, rev);
  return { json: JSON.stringify(obj), apiVersion: typeof obj.apiVersion === 'string' ? obj.apiVersion : '' };
}

/** The served JSON of stored `text` at revision `rev`. */
export function servedJSON(text: string, rev: number): ServedJSON {
  const n = text.length;
  if (n < 2 || text.charCodeAt(0) !== OPEN_BRACE || text.charCodeAt(n - 1) !== CLOSE_BRACE) return viaParse(text, rev);
  const member = `"resourceVersion":"${rev}"`;
  let depth = 0;
  let apiVersion: string | undefined;
  /** Where metadata's closing brace is (its members end there), -1 until found. */
  let metaEnd = -1;
  let metaOpen = -1;
  let inMeta = false;
  // a key is a string right after '{' or ',' inside an object
  let expectKey = false;
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return viaParse(text, rev);
      if (expectKey) {
        if (depth === 1) {
          // a top-level member: apiVersion's value or metadata's object
          if (end - i === 9 && text.startsWith('"metadata"', i)) {
            if (metaOpen >= 0) return viaParse(text, rev);
            if (text.charCodeAt(end + 1) !== 58 || text.charCodeAt(end + 2) !== OPEN_BRACE) return viaParse(text, rev);
            metaOpen = end + 2;
            inMeta = true;
          } else if (end - i === 11 && text.startsWith('"apiVersion"', i) && text.charCodeAt(end + 2) === QUOTE) {
            const vEnd = stringEnd(text, end + 2);
            if (vEnd < 0) return viaParse(text, rev);
            const raw = text.slice(end + 3, vEnd);
            apiVersion = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
            if (metaEnd >= 0) break;
          }
        } else if (depth === 2 && inMeta && end - i === 16 && text.startsWith('"resourceVersion"', i)) {
          return viaParse(text, rev);
        }
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      stack.push(c);
      depth++;
      expectKey = c === OPEN_BRACE;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      stack.pop();
      depth--;
      if (inMeta && depth === 1) {
        metaEnd = i;
        inMeta = false;
        if (apiVersion !== undefined) break;
      }
    } else if (c === 44) {
      expectKey = stack[stack.length - 1] === OPEN_BRACE;
    }
  }
  if (metaOpen >= 0 && metaEnd < 0) return viaParse(text, rev);
  let json: string;
  if (metaEnd >= 0) {
    json = text.slice(0, metaEnd) + (metaEnd === metaOpen + 1 ? member : ',' + member) + text.slice(metaEnd);
  } else {
    // no metadata: decodeValue adds it as the last member
    json = text.slice(0, n - 1) + (n === 2 ? '' : ',') + `"metadata":{${member}}}`;
  }
  return { json, apiVersion: apiVersion ?? '' };
}
