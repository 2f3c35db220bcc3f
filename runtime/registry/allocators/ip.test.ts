import { describe, expect, it } from 'vitest';
import { canonicalIP, cidrContains, parseCIDR, parseIP } from './ip.ts';

describe('IP parsing and canonical form', () => {
  it.each([
    ['10.0.0.1', '10.0.0.1'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['fd00:0:0:0:0:0:0:0', 'fd00::'],
    ['::', '::'],
    ['::ffff:10.0.0.1', '::ffff:a00:1'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['1:0:3:4:5:6:7:8', '1:0:3:4:5:6:7:8'],
  ])('%s -> %s', (text, canon) => {
    expect(canonicalIP(text)).toBe(canon);
  });

  it.each(['', '10.0.0', '10.0.0.256', '010.0.0.1', '1::2::3', '1:2:3:4:5:6:7:8:9', 'abc', '10.0.0.1/24', 'g::1'])('%j does not parse', (text) => {
    expect(parseIP(text)).toBeUndefined();
  });

  it('CIDRs: network base and membership', () => {
    const c = parseCIDR('10.0.0.7/24');
    expect(c.text).toBe('10.0.0.0/24');
    expect(cidrContains(c, parseIP('10.0.0.255')!)).toBe(true);
    expect(cidrContains(c, parseIP('10.0.1.0')!)).toBe(false);
    expect(cidrContains(parseCIDR('fd00::/108'), parseIP('fd00::f:ffff')!)).toBe(true);
    expect(() => parseCIDR('10.0.0.0/33')).toThrow();
    expect(() => parseCIDR('10.0.0.0')).toThrow();
  });
});
