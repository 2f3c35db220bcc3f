// IP and port rules shared by Service, Endpoints and EndpointSlice
// validation: valid IPs and CIDRs, the special ranges endpoints may not use,
// port numbers and IANA port names, with upstream's messages.

import { parseCIDR, parseIP } from '../../allocators/ip.ts';

export const VALID_IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
export const PORT_RANGE_MSG = 'must be between 1 and 65535, inclusive';

export function validIPErrors(v: string): string[] {
  return parseIP(v) ? [] : [VALID_IP_MSG];
}

export function validCIDRErrors(v: string): string[] {
  try {
    parseCIDR(v);
    return [];
  } catch {
    return ['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'];
  }
}

/** Addresses endpoints may not point at: unspecified, loopback, link-local, link-local multicast. */
export function specialIPErrors(v: string): string[] {
  const ip = parseIP(v);
  if (!ip) return [];
  const x = ip.value;
  if (ip.family === 'IPv4') {
    if (x === 0n) return ['may not be unspecified (0.0.0.0)'];
    if (x >> 24n === 127n) return ['may not be in the loopback range (127.0.0.0/8, ::1/128)'];
    if (x >> 16n === 0xa9fen) return ['may not be in the link-local range (169.254.0.0/16, fe80::/10)'];
    if (x >> 8n === 0xe00000n) return ['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'];
    return [];
  }
  if (x === 0n) return ['may not be unspecified (::)'];
  if (x === 1n) return ['may not be in the loopback range (127.0.0.0/8, ::1/128)'];
  const top10 = x >> 118n;
  if (top10 === 0x3fan) return ['may not be in the link-local range (169.254.0.0/16, fe80::/10)'];
  if (x >> 112n === 0xff02n) return ['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'];
  // IPv4-mapped loopback and link-local
  if (x >> 32n === 0xffffn) return specialIPErrors(`${Number((x >> 24n) & 255n)}.${Number((x >> 16n) & 255n)}.${Number((x >> 8n) & 255n)}.${Number(x & 255n)}`);
  return [];
}

export function portNumberErrors(p: unknown): string[] {
  return typeof p === 'number' && Number.isInteger(p) && p >= 1 && p <= 65535 ? [] : [PORT_RANGE_MSG];
}

/** An IANA service name as a port name (targetPort, containerPort names). */
export function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  return errs;
}

/** A port given as a number or an IANA name (targetPort, probes). */
export function portNumOrNameErrors(v: unknown): string[] {
  if (typeof v === 'number') return portNumberErrors(v);
  if (typeof v === 'string') return portNameErrors(v);
  return [PORT_RANGE_MSG];
}
