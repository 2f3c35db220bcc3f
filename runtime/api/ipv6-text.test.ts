// ipv6Text: RFC 5952's compression, one row per case.
import { describe, expect, it } from 'vitest';
import { ipv6Text } from './ipv6-text.ts';

describe('ipv6Text', () => {
  it.each([
    [[0, 0, 0, 0, 0, 0, 0, 0], '::'],
    [[0, 0, 0, 0, 0, 0, 0, 1], '::1'],
    [[0x2001, 0xdb8, 0, 0, 0, 0, 0, 1], '2001:db8::1'],
    [[0x2001, 0xdb8, 0, 1, 0, 0, 0, 1], '2001:db8:0:1::1'],
    [[0x2001, 0, 0, 1, 0, 0, 0, 1], '2001:0:0:1::1'],
    [[0x2001, 0, 0, 1, 1, 0, 0, 1], '2001::1:1:0:0:1'],
    [[0x2001, 0xdb8, 1, 2, 3, 4, 5, 6], '2001:db8:1:2:3:4:5:6'],
    [[0x2001, 0xdb8, 0, 2, 3, 4, 5, 6], '2001:db8:0:2:3:4:5:6'],
    [[0xfe80, 0, 0, 0, 0, 0, 0, 0], 'fe80::'],
  ])('%j → %s', (groups, text) => {
    expect(ipv6Text(groups)).toBe(text);
  });
});
