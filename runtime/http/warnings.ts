// Warning response headers as kube-apiserver writes them: `299 - "text"`
// with `"` and `\` escaped, texts deduplicated, control characters refused,
// and the total held to 4096 runes (once over, every text is cut to 256
// runes and later ones are dropped). Non-ASCII text goes on the wire as raw
// UTF-8, as Go writes it; a header value in Node must be a latin1 string, so
// each UTF-8 byte becomes one latin1 character here (and the body must then
// be bytes: Node writes the headers of a string body in that string's
// encoding). Headers that cannot rely on that (a streamed watch) carry
// non-ASCII text as RFC 2047 encoded-words instead, which client-go decodes.

/** kube-apiserver's limits on warning text per response (filters/warning.go). */
export const WARNING_TOTAL_RUNES = 4 * 1024;
export const WARNING_ITEM_RUNES = 256;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Characters (runes) of a string, counting a surrogate pair once. */
function runes(s: string): string[] {
  return Array.from(s);
}

/**
 * One Warning header value (code 299, agent "-"), or undefined when the
 * text may not be sent (control characters, broken UTF-16), as upstream's
 * NewWarningHeader refuses them.
 */
export function formatWarning(text: string): string | undefined {
  if (CONTROL.test(text) || LONE_SURROGATE.test(text)) return undefined;
  return `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** A header value as Node writes it: UTF-8 bytes, one latin1 character each. */
export function toWire(value: string): string {
  return isAscii(value) ? value : Buffer.from(value, 'utf8').toString('latin1');
}

export function isAscii(value: string): boolean {
  return /^[\x00-\x7f]*$/.test(value);
}

/**
 * RFC 2047 encoded-words (`=?UTF-8?B?...?=`, at most 75 characters each,
 * whole characters per word), which client-go decodes in warning texts: the
 * pure-ASCII form of a text, for headers that cannot carry raw UTF-8.
 */
export function encodeWords(text: string): string {
  const words: string[] = [];
  let chunk: Buffer[] = [];
  let size = 0;
  const flush = () => {
    if (size) words.push(`=?UTF-8?B?${Buffer.concat(chunk).toString('base64')}?=`);
    chunk = [];
    size = 0;
  };
  for (const ch of text) {
    const b = Buffer.from(ch, 'utf8');
    if (size + b.length > 45) flush(); // 45 bytes are 60 base64 characters: 72 with the delimiters
    chunk.push(b);
    size += b.length;
  }
  flush();
  return words.join(' ');
}

/**
 * The Warning header values for a response's warnings, in order: empty and
 * repeated texts skipped, unsendable ones dropped, the total limited as
 * upstream's recorder does, each value ready for the wire.
 */
export function warningHeaderValues(texts: readonly string[] | undefined, limits = { total: WARNING_TOTAL_RUNES, item: WARNING_ITEM_RUNES }, opts: { ascii?: boolean } = {}): string[] {
  if (!texts?.length) return [];
  const seen = new Set<string>();
  const ordered: string[] = [];
  let out: string[] = [];
  let written = 0;
  let truncating = false;
  const cut = (t: string): [string, number] => {
    const r = runes(t);
    return r.length > limits.item ? [r.slice(0, limits.item).join(''), limits.item] : [t, r.length];
  };
  for (const text of texts) {
    if (!text) continue;
    if (truncating && written >= limits.total) break;
    if (seen.has(text)) continue;
    seen.add(text);
    ordered.push(text);
    let [t, n] = truncating ? cut(text) : [text, runes(text).length];
    const header = formatWarning(t);
    if (header === undefined) continue;
    if (written + n <= limits.total || truncating) {
      written += n;
      out.push(header);
      continue;
    }
    // over the limit: from now on every text is cut, and the ones so far are written again cut
    truncating = true;
    written = 0;
    out = [];
    for (const earlier of ordered) {
      [t, n] = cut(earlier);
      const h = formatWarning(t);
      if (h === undefined) continue;
      written += n;
      out.push(h);
    }
  }
  return opts.ascii ? out.map(asciiForm) : out.map(toWire);
}

/** A formatted warning with its non-ASCII text as encoded-words (the text between the quotes). */
function asciiForm(header: string): string {
  if (isAscii(header)) return header;
  const text = header.slice('299 - "'.length, -1).replace(/\\(.)/g, '$1');
  return formatWarning(encodeWords(text))!;
}
