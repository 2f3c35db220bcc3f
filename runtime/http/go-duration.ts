// Go's time.ParseDuration, which kube-apiserver applies to the `timeout`
// query parameter: an optional sign, then one or more decimal numbers (with
// optional fraction) each followed by a unit (ns, us, µs, μs, ms, s, m, h);
// "0" alone needs no unit. Values are nanoseconds, within int64; errors carry
// Go's texts (`time: invalid duration "x"`, `time: missing unit in duration
// "1"`, `time: unknown unit "d" in duration "1d"`).

export class DurationError extends Error {}

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const TWO_63 = 1n << 63n;

/** The time package's quote: ASCII as is (`"` and `\` escaped), other bytes of the UTF-8 form as \xNN. */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x80 || cp < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return `${out}"`;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Parses a Go duration into nanoseconds; throws DurationError with Go's message. */
export function parseGoDuration(orig: string): bigint {
  const invalid = () => new DurationError(`time: invalid duration ${quote(orig)}`);
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) throw invalid();
    // the integer part
    let v = 0n;
    let i = 0;
    for (; isDigit(s[i]); i++) {
      if (v > TWO_63 / 10n) throw invalid();
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > TWO_63) throw invalid();
    }
    const pre = i > 0;
    s = s.slice(i);
    // the fraction: digits beyond int64 precision are ignored, as in Go
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; isDigit(s[j]); j++) {
        if (overflow) continue;
        if (f > (TWO_63 - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > TWO_63) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw invalid();
    // the unit
    let k = 0;
    while (k < s.length && s[k] !== '.' && !isDigit(s[k])) k++;
    if (k === 0) throw new DurationError(`time: missing unit in duration ${quote(orig)}`);
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = UNITS[u];
    if (unit === undefined) throw new DurationError(`time: unknown unit ${quote(u)} in duration ${quote(orig)}`);
    if (v > TWO_63 / unit) throw invalid();
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.floor(Number(f) * (Number(unit) / scale)));
      if (v > TWO_63) throw invalid();
    }
    d += v;
    if (d > TWO_63) throw invalid();
  }
  if (neg) return -d;
  if (d > TWO_63 - 1n) throw invalid();
  return d;
}
