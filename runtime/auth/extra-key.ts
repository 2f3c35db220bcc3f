// The key of a user-extra header (`X-Remote-Extra-<key>`,
// `Impersonate-Extra-<key>`): lower-cased, then percent-decoded as Go's
// url.PathUnescape does. As upstream, a key whose percent-encoding is
// malformed is kept as it was sent (lower-cased) rather than refused.

const HEX = /^[0-9a-fA-F]{2}$/;

/** Go's url.PathUnescape; undefined for malformed escapes or bytes that are not UTF-8. */
export function pathUnescape(s: string): string | undefined {
  if (!s.includes('%')) return s;
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!HEX.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const b of enc.encode(c)) bytes.push(b);
    }
  }
  // Go keeps invalid UTF-8 bytes as they are; a JS string cannot, so such a
  // key is treated like a malformed one (kept as sent).
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}

/** The extra key a header name suffix stands for. */
export function extraKey(encoded: string): string {
  const lower = encoded.toLowerCase();
  return pathUnescape(lower) ?? lower;
}
