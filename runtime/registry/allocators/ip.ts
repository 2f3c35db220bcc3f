// IP addresses and CIDRs as bigints: parsing (IPv4, IPv6 with `::` and an
// embedded IPv4 tail), canonical text (RFC 5952 for IPv6, which IPAddress
// object names use), and CIDR ranges with membership. No allocation here.
import { ipv6Text } from '../../api/ipv6-text.ts';

export type IPFamily = 'IPv4' | 'IPv6';

export interface ParsedIP {
  family: IPFamily;
  value: bigint;
}

function parseV4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    if (p.length > 1 && p.startsWith('0')) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseV6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  let head = text;
  let tailV4: bigint | undefined;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    tailV4 = parseV4(text.slice(lastColon + 1));
    if (tailV4 === undefined) return undefined;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const group = (s: string) => (s === '' ? [] : s.split(':'));
  const left = group(halves[0]);
  const right = halves.length === 2 ? group(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...left, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...right];
  let v = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    v = (v << 16n) | BigInt(parseInt(g, 16));
  }
  if (tailV4 !== undefined) v = (v & ~0xffffffffn) | tailV4;
  return v;
}

export function parseIP(text: string): ParsedIP | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  if (text.includes(':')) {
    const v = parseV6(text);
    return v === undefined ? undefined : { family: 'IPv6', value: v };
  }
  const v = parseV4(text);
  return v === undefined ? undefined : { family: 'IPv4', value: v };
}

export function formatIP(ip: ParsedIP): string {
  if (ip.family === 'IPv4') {
    const v = ip.value;
    return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 255n)).join('.');
  }
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((ip.value >> BigInt(i * 16)) & 0xffffn));
  return ipv6Text(groups);
}

/** The canonical text of an IP, or undefined when it does not parse. */
export function canonicalIP(text: string): string | undefined {
  const p = parseIP(text);
  return p ? formatIP(p) : undefined;
}

export interface CIDR {
  family: IPFamily;
  /** The network address. */
  base: bigint;
  prefix: number;
  /** Number of addresses in the block. */
  size: bigint;
  text: string;
}

export function parseCIDR(text: string): CIDR {
  const [addr, bits, extra] = text.trim().split('/');
  const ip = parseIP(addr);
  const width = ip?.family === 'IPv6' ? 128 : 32;
  if (!ip || extra !== undefined || bits === undefined || !/^\d+$/.test(bits) || Number(bits) > width) {
    throw new Error(`invalid CIDR address: ${text}`);
  }
  const prefix = Number(bits);
  const size = 1n << BigInt(width - prefix);
  const base = ip.value & ~(size - 1n);
  return { family: ip.family, base, prefix, size, text: `${formatIP({ family: ip.family, value: base })}/${prefix}` };
}

export function cidrContains(c: CIDR, ip: ParsedIP): boolean {
  return ip.family === c.family && ip.value >= c.base && ip.value < c.base + c.size;
}
