// Kubernetes' CEL IP and CIDR libraries (1.30): `ip(string)`, `isIP`,
// `ip.isCanonical`, and on an IP `family`, `isUnspecified`, `isLoopback`,
// `isLinkLocalMulticast`, `isLinkLocalUnicast`, `isGlobalUnicast`;
// `cidr(string)`, `isCIDR`, and on a CIDR `containsIP`, `containsCIDR`
// (IP/CIDR or string), `ip`, `masked`, `prefixLength`; `string()` of both.
// Zones and IPv4-mapped IPv6 addresses are refused, as upstream.
// Boundary: the CEL surface over net-parse.ts.
import { CelScalar, type CelFunc, type CelValue } from '@bufbuild/cel';
import { Opaque, fail, defFunc, defMethod } from '../opaque.ts';
import { parseAddr, parsePrefix, prefixString, type Addr, type Prefix } from './net-parse.ts';

export class IPValue extends Opaque {
  readonly name = 'net.IP';
  constructor(readonly addr: Addr) {
    super();
  }
  equals(o: Opaque): boolean {
    return o instanceof IPValue && o.addr.equals(this.addr);
  }
  override toString(): string {
    return this.addr.toString();
  }
}

export class CIDRValue extends Opaque {
  readonly name = 'net.CIDR';
  constructor(readonly prefix: Prefix) {
    super();
  }
  equals(o: Opaque): boolean {
    return o instanceof CIDRValue && o.prefix.bits === this.prefix.bits && o.prefix.addr.equals(this.prefix.addr);
  }
  override toString(): string {
    return prefixString(this.prefix);
  }
  containsAddr(a: Addr): boolean {
    if (a.bytes.length !== this.prefix.addr.bytes.length || a.zone) return false;
    return a.masked(this.prefix.bits).equals(this.prefix.addr.masked(this.prefix.bits));
  }
}

/** The library's address parse: netip's, without zones or IPv4-mapped IPv6 addresses. */
export function parseIPText(s: string): Addr {
  let addr: Addr;
  try {
    addr = parseAddr(s);
  } catch (e) {
    return fail(`IP Address ${JSON.stringify(s)} parse error during conversion from string: ${(e as Error).message}`);
  }
  if (addr.zone) return fail(`IP address ${JSON.stringify(s)} with zone value is not allowed`);
  if (addr.is4In6) return fail(`IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`);
  return addr;
}

/** The library's prefix parse (the message repeats its lead-in, as upstream's does). */
export function parseCIDRText(s: string): Prefix {
  const lead = 'network address parse error during conversion from string: ';
  let p: Prefix;
  try {
    p = parsePrefix(s);
  } catch (e) {
    return fail(`${lead}${lead}${(e as Error).message}`);
  }
  if (p.addr.is4In6) return fail(`${lead}IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`);
  return p;
}

const ok = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

function ipOf(v: unknown): IPValue {
  return v instanceof IPValue ? v : fail('no such overload');
}
function cidrOf(v: unknown): CIDRValue {
  return v instanceof CIDRValue ? v : fail('no such overload');
}
const DYN = CelScalar.DYN;
const S = CelScalar.STRING;
const B = CelScalar.BOOL;

function otherCIDR(o: CelValue): Prefix {
  if (typeof o === 'string') return parseCIDRText(o);
  return cidrOf(o).prefix;
}

export const ipFuncs: CelFunc[] = [
  defFunc('ip', [S], DYN, (s) => new IPValue(parseIPText(s))),
  defMethod('ip', DYN, [], DYN, function () {
    return new IPValue(cidrOf(this).prefix.addr);
  }),
  defFunc('isIP', [S], B, (s) => ok(() => parseIPText(s))),
  defFunc('ip.isCanonical', [S], B, (s) => parseIPText(s).toString() === s),
  defMethod('family', DYN, [], CelScalar.INT, function () {
    return ipOf(this).addr.is4 ? 4n : 6n;
  }),
  defMethod('isUnspecified', DYN, [], B, function () {
    return ipOf(this).addr.isUnspecified();
  }),
  defMethod('isLoopback', DYN, [], B, function () {
    return ipOf(this).addr.isLoopback();
  }),
  defMethod('isLinkLocalMulticast', DYN, [], B, function () {
    return ipOf(this).addr.isLinkLocalMulticast();
  }),
  defMethod('isLinkLocalUnicast', DYN, [], B, function () {
    return ipOf(this).addr.isLinkLocalUnicast();
  }),
  defMethod('isGlobalUnicast', DYN, [], B, function () {
    return ipOf(this).addr.isGlobalUnicast();
  }),
  defFunc('cidr', [S], DYN, (s) => new CIDRValue(parseCIDRText(s))),
  defFunc('isCIDR', [S], B, (s) => ok(() => parseCIDRText(s))),
  defMethod('containsIP', DYN, [DYN], B, function (o) {
    const addr = typeof o === 'string' ? parseIPText(o) : ipOf(o).addr;
    return cidrOf(this).containsAddr(addr);
  }),
  defMethod('containsCIDR', DYN, [DYN], B, function (o) {
    // Upstream compares the masked prefix with the other prefix's address
    // (unmasked) at this prefix's length, and requires a length at least as long.
    const p = cidrOf(this).prefix;
    const other = otherCIDR(o);
    const masked = p.addr.masked(p.bits);
    return other.addr.bytes.length === masked.bytes.length && other.addr.equals(masked) && p.bits <= other.bits;
  }),
  defMethod('prefixLength', DYN, [], CelScalar.INT, function () {
    return BigInt(cidrOf(this).prefix.bits);
  }),
  defMethod('masked', DYN, [], DYN, function () {
    const p = cidrOf(this).prefix;
    return new CIDRValue({ addr: p.addr.masked(p.bits), bits: p.bits });
  }),
];

/** `string(ip)` and `string(cidr)`: tried after the standard conversions, which do not accept opaque values. */
export const ipStringFuncs: CelFunc[] = [
  defFunc('string', [DYN], S, (v) => {
    if (v instanceof IPValue || v instanceof CIDRValue) return v.toString();
    return fail(`no such overload: string(${typeof v})`);
  }),
];
