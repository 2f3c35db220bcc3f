// IP address and prefix parsing with the rules and error texts of Go's
// net/netip (ParseAddr, ParsePrefix), which Kubernetes' CEL IP and CIDR
// libraries use: dotted IPv4 without leading zeros, IPv6 with one `::`, an
// optional embedded IPv4 tail and an optional zone; canonical text as
// netip prints it (RFC 5952). Boundary: parsing, printing, predicates.
import { ipv6Text } from '../../api/ipv6-text.ts';

export class Addr {
  /** 4 bytes for IPv4, 16 for IPv6. */
  constructor(
    readonly bytes: Uint8Array,
    readonly zone = '',
  ) {}
  get is4(): boolean {
    return this.bytes.length === 4;
  }
  get is6(): boolean {
    return this.bytes.length === 16;
  }
  /** An IPv6 address of the form ::ffff:a.b.c.d. */
  get is4In6(): boolean {
    if (!this.is6) return false;
    for (let i = 0; i < 10; i++) if (this.bytes[i] !== 0) return false;
    return this.bytes[10] === 0xff && this.bytes[11] === 0xff;
  }
  equals(o: Addr): boolean {
    return this.bytes.length === o.bytes.length && this.zone === o.zone && this.bytes.every((b, i) => o.bytes[i] === b);
  }
  isUnspecified(): boolean {
    return this.bytes.every((b) => b === 0);
  }
  isLoopback(): boolean {
    if (this.is4) return this.bytes[0] === 127;
    return this.bytes.slice(0, 15).every((b) => b === 0) && this.bytes[15] === 1;
  }
  isMulticast(): boolean {
    return this.is4 ? (this.bytes[0] & 0xf0) === 0xe0 : this.bytes[0] === 0xff;
  }
  isLinkLocalMulticast(): boolean {
    if (this.is4) return this.bytes[0] === 224 && this.bytes[1] === 0 && this.bytes[2] === 0;
    return this.bytes[0] === 0xff && (this.bytes[1] & 0x0f) === 0x02;
  }
  isLinkLocalUnicast(): boolean {
    if (this.is4) return this.bytes[0] === 169 && this.bytes[1] === 254;
    return this.bytes[0] === 0xfe && (this.bytes[1] & 0xc0) === 0x80;
  }
  isGlobalUnicast(): boolean {
    if (this.is4 && (this.isUnspecified() || this.bytes.every((b) => b === 255))) return false;
    return !this.isUnspecified() && !this.isLoopback() && !this.isMulticast() && !this.isLinkLocalUnicast();
  }
  /** The address with every bit after the first `bits` cleared. */
  masked(bits: number): Addr {
    const out = new Uint8Array(this.bytes.length);
    for (let i = 0; i < out.length; i++) {
      const keep = Math.max(0, Math.min(8, bits - i * 8));
      out[i] = this.bytes[i] & ((0xff << (8 - keep)) & 0xff);
    }
    return new Addr(out);
  }
  toString(): string {
    if (this.is4) return this.bytes.join('.');
    const groups: number[] = [];
    for (let i = 0; i < 16; i += 2) groups.push((this.bytes[i] << 8) | this.bytes[i + 1]);
    let text: string;
    if (this.is4In6) {
      text = `::ffff:${this.bytes.slice(12).join('.')}`;
    } else {
      text = ipv6Text(groups);
    }
    return this.zone ? `${text}%${this.zone}` : text;
  }
}

export class NetParseError extends Error {}

function addrError(input: string, msg: string, at?: string): NetParseError {
  return new NetParseError(`ParseAddr(${JSON.stringify(input)}): ${msg}${at !== undefined && at !== '' ? ` (at ${JSON.stringify(at)})` : ''}`);
}

function parseV4(s: string, input: string): Uint8Array {
  const out = new Uint8Array(4);
  let val = 0,
    digits = 0,
    pos = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c >= '0' && c <= '9') {
      if (digits === 1 && val === 0) throw addrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c.charCodeAt(0) - 48);
      digits++;
      if (val > 255) throw addrError(input, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') throw addrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      if (pos === 3) throw addrError(input, 'IPv4 address too long');
      out[pos++] = val;
      val = 0;
      digits = 0;
    } else {
      throw addrError(input, 'unexpected character', s.slice(i));
    }
  }
  if (pos < 3) throw addrError(input, 'IPv4 address too short');
  out[3] = val;
  return out;
}

function parseV6(s: string, input: string): Addr {
  let zone = '';
  const pct = s.indexOf('%');
  if (pct >= 0) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') throw addrError(input, 'zone must be a non-empty string');
  }
  const out = new Uint8Array(16);
  let ellipsis = -1;
  let i = 0;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return new Addr(out, zone);
  }
  while (i < 16) {
    let off = 0,
      acc = 0;
    while (off < s.length) {
      const c = s[off];
      let d: number;
      if (c >= '0' && c <= '9') d = c.charCodeAt(0) - 48;
      else if (c >= 'a' && c <= 'f') d = c.charCodeAt(0) - 87;
      else if (c >= 'A' && c <= 'F') d = c.charCodeAt(0) - 55;
      else break;
      if (off > 3) throw addrError(input, 'each colon-separated field must have at most 4 hex digits', s);
      acc = acc * 16 + d;
      off++;
      if (acc > 0xffff) throw addrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw addrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) throw addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      const v4 = parseV4(s, input);
      out.set(v4, i);
      i += 4;
      s = '';
      break;
    }
    out[i] = acc >> 8;
    out[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':') throw addrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw addrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) throw addrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw addrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) out[j + n] = out[j];
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) out[j] = 0;
  } else if (ellipsis >= 0) {
    throw addrError(input, 'the :: must expand to at least one field of zeros');
  }
  return new Addr(out, zone);
}

/** Go's netip.ParseAddr. */
export function parseAddr(s: string): Addr {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '.') return new Addr(parseV4(s, s));
    if (c === ':') return parseV6(s, s);
    if (c === '%') throw addrError(s, 'missing IPv6 address');
  }
  throw addrError(s, 'unable to parse IP');
}

export interface Prefix {
  addr: Addr;
  bits: number;
}

/** Go's netip.ParsePrefix. */
export function parsePrefix(s: string): Prefix {
  const q = JSON.stringify(s);
  const slash = s.lastIndexOf('/');
  if (slash < 0) throw new NetParseError(`netip.ParsePrefix(${q}): no '/'`);
  let addr: Addr;
  try {
    addr = parseAddr(s.slice(0, slash));
  } catch (e) {
    throw new NetParseError(`netip.ParsePrefix(${q}): ${(e as Error).message}`);
  }
  if (addr.zone) throw new NetParseError(`netip.ParsePrefix(${q}): IPv6 zones cannot be present in a prefix`);
  const bitsText = s.slice(slash + 1);
  if (!/^(0|[1-9][0-9]*)$/.test(bitsText) || bitsText.length > 3) throw new NetParseError(`netip.ParsePrefix(${q}): bad bits after slash: ${JSON.stringify(bitsText)}`);
  const bits = Number(bitsText);
  if (bits > addr.bytes.length * 8) throw new NetParseError(`netip.ParsePrefix(${q}): prefix length out of range`);
  return { addr, bits };
}

export function prefixString(p: Prefix): string {
  return `${p.addr.toString()}/${p.bits}`;
}
