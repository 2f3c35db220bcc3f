// Conformance-style table tests of the IP and CIDR libraries: the cases of
// upstream's library tests (results and error texts), canonical forms, the
// type checker's view of the new types and their costs.
import { describe, it, expect } from 'vitest';
import { run, compileErrors } from '../testing/run.ts';
import { compileRule } from '../compile.ts';

const E = (msg: string) => ({ error: msg });
type Want = unknown | { error: string };

function check(expr: string, want: Want) {
  if (want && typeof want === 'object' && 'error' in (want as object)) {
    expect(() => run(expr)).toThrow((want as { error: string }).error);
    return;
  }
  expect(run(expr)).toEqual(want);
}

describe('IP library', () => {
  it.each<[string, Want]>([
    ['string(ip("192.168.0.1"))', '192.168.0.1'],
    ['ip("192.168.0.1.0")', E('IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long')],
    ['ip("127.0.0.256")', E('ParseAddr("127.0.0.256"): IPv4 field has value >255')],
    ['ip("01.1.1.1")', E('IPv4 field has octet with leading zero')],
    ['ip("1.1.1")', E('IPv4 address too short')],
    ['ip("1..1.1")', E('IPv4 field must have at least one digit (at ".1.1")')],
    ['ip("fe80::1%eth0")', E('IP address "fe80::1%eth0" with zone value is not allowed')],
    ['ip("::ffff:1.2.3.4")', E('IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed')],
    ['ip("")', E('ParseAddr(""): unable to parse IP')],
    ['isIP("192.168.0.1")', true],
    ['isIP("192.168.0.1.0")', false],
    ['isIP("2001:db8::68")', true],
    ['isIP("2001:db8:::68")', false],
    ['isIP("::ffff:1.2.3.4")', false],
    ['ip.isCanonical("127.0.0.1")', true],
    ['ip.isCanonical("127.0.0.1.0")', E('IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long')],
    ['ip.isCanonical("2001:db8::68")', true],
    ['ip.isCanonical("2001:DB8::68")', false],
    ['ip.isCanonical("2001:db8::0:0:0:abcd")', false],
    ['ip.isCanonical("2001:db8:0:0:1:0:0:1")', false],
    ['ip.isCanonical("2001:db8::1:0:0:1")', true],
    ['ip.isCanonical("2001:db8:::68")', E('ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")')],
    ['string(ip("2001:DB8:0:0:0:0:0:68"))', '2001:db8::68'],
    ['string(ip("::"))', '::'],
    ['string(ip("1::"))', '1::'],
    ['string(ip("0:0:1:0:0:0:0:0"))', '0:0:1::'],
    ['string(ip("1:0:1:1:1:1:1:1"))', '1:0:1:1:1:1:1:1'],
    ['string(ip("::1.2.3.4"))', '::102:304'],
    ['ip("192.168.0.1").family()', 4],
    ['ip("2001:db8::68").family()', 6],
    ['ip("0.0.0.0").isUnspecified()', true],
    ['ip("127.0.0.1").isUnspecified()', false],
    ['ip("::").isUnspecified()', true],
    ['ip("::1").isUnspecified()', false],
    ['ip("127.0.0.1").isLoopback()', true],
    ['ip("1.2.3.4").isLoopback()', false],
    ['ip("::1").isLoopback()', true],
    ['ip("2001:db8::abcd").isLoopback()', false],
    ['ip("224.0.0.1").isLinkLocalMulticast()', true],
    ['ip("224.0.1.1").isLinkLocalMulticast()', false],
    ['ip("ff02::1").isLinkLocalMulticast()', true],
    ['ip("fd00::1").isLinkLocalMulticast()', false],
    ['ip("169.254.169.254").isLinkLocalUnicast()', true],
    ['ip("192.168.0.1").isLinkLocalUnicast()', false],
    ['ip("fe80::1").isLinkLocalUnicast()', true],
    ['ip("fd80::1").isLinkLocalUnicast()', false],
    ['ip("192.168.0.1").isGlobalUnicast()', true],
    ['ip("255.255.255.255").isGlobalUnicast()', false],
    ['ip("2001:db8::abcd").isGlobalUnicast()', true],
    ['ip("ff00::1").isGlobalUnicast()', false],
    ['ip("1.2.3.4") == ip("1.2.3.4")', true],
    ['ip("::1") == ip("0:0::1")', true],
    ['ip("1.2.3.4") == ip("1.2.3.5")', false],
  ])('%s', check);

  it('refuses a CIDR where a string is expected, at compile time', () => {
    expect(compileErrors('isIP(cidr("192.168.0.0/24"))')[0]).toContain("found no matching overload for 'isIP' applied to '(net.CIDR)'");
  });
});

describe('CIDR library', () => {
  it.each<[string, Want]>([
    ['string(cidr("192.168.0.0/24"))', '192.168.0.0/24'],
    ['string(cidr(dyn("192.168.0.0/24")))', '192.168.0.0/24'],
    [
      'cidr("192.168.0.0/")',
      E('network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""'),
    ],
    ['cidr("2001:db8::/")', E('netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""')],
    ['cidr("192.168.0.0/33")', E('netip.ParsePrefix("192.168.0.0/33"): prefix length out of range')],
    ['cidr("192.168.0.0")', E(`netip.ParsePrefix("192.168.0.0"): no '/'`)],
    ['cidr("::ffff:1.2.3.4/120")', E('IPv4-mapped IPv6 address "::ffff:1.2.3.4/120" is not allowed')],
    ['isCIDR("192.168.0.0/16")', true],
    ['isCIDR("::1/128")', true],
    ['isCIDR("192.168.0.0/33")', false],
    ['isCIDR("::1/129")', false],
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', true],
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))', false],
    ['cidr("192.168.0.0/24").containsIP("192.168.0.1")', true],
    ['cidr("192.168.0.0/24").containsIP("192.168.1.1")', false],
    ['cidr("192.168.0.0/24").containsIP("::1")', false],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))', true],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))', false],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")', true],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")', false],
    ['cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))', true],
    ['cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))', false],
    ['cidr("2001:db8::/32").containsIP("2001:db8::1")', true],
    ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))', true],
    ['cidr("2001:db8::/32").containsCIDR("2001:db8::/31")', false],
    ['string(cidr("192.168.0.0/24").ip())', '192.168.0.0'],
    ['cidr("192.168.0.1/24").ip().family()', 4],
    ['string(cidr("2001:db8::/32").ip())', '2001:db8::'],
    ['string(cidr("192.168.0.1/24").masked())', '192.168.0.0/24'],
    ['string(cidr("2001:db8:1::/32").masked())', '2001:db8::/32'],
    ['cidr("192.168.0.0/24") == cidr("192.168.0.0/24").masked()', true],
    ['cidr("192.168.0.1/24") == cidr("192.168.0.1/24").masked()', false],
    ['cidr("192.168.0.0/24").prefixLength()', 24],
    ['cidr("::1/128").prefixLength()', 128],
  ])('%s', check);

  it('refuses a non-string argument at compile time', () => {
    expect(compileErrors('cidr(192168)')[0]).toContain("found no matching overload for 'cidr' applied to '(int)'");
  });
});

describe('IP and CIDR costs', () => {
  const runtimeCost = (expr: string) => {
    const c = compileRule(expr, { vars: {}, resultType: 'any' });
    if (!c.ok) throw new Error(c.errors[0].message);
    const r = c.program.evaluate({});
    return { estimate: c.costEstimate, actual: r.cost };
  };
  it.each<[string, number, number]>([
    // nominal accessors: 1, plus the parse of the receiver
    ['ip("1.2.3.4").family()', 2, 2],
    // a parse charges a traversal of the string at 0.1 per character (ceil)
    ['isIP("192.168.0.1")', 1, 2],
    ['ip.isCanonical("192.168.0.1")', 1, 3],
    // containsIP with a string: the compared bytes (2 x the prefix's bytes, 1 for a /8) plus the string's traversal;
    // the estimate assumes 16-byte addresses
    ['cidr("10.0.0.0/8").containsIP("10.1.2.3")', 1 + 4 + 1, 1 + 1 + 1],
    // containsCIDR adds a traversal of the prefix bytes and 1
    ['cidr("10.0.0.0/8").containsCIDR(cidr("10.0.0.0/16"))', 1 + 1 + 7, 1 + 2 + 1 + 1 + 1],
  ])('%s: estimate %d, runtime %d', (expr, estimate, actual) => {
    expect(runtimeCost(expr)).toEqual({ estimate, actual });
  });
});
