// Bind addresses: which count as loopback, which are refused without the
// insecure flag, and the URLs shown and written for each.
import { describe, expect, it } from 'vitest';
import { BindAddressError, boundURL, checkBindAddress, clientURL, insecureBindWarning, isLoopbackAddress, isWildcardAddress } from './bind-address.ts';

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['0.0.0.0', false],
    ['::', false],
    ['', false],
    ['10.0.0.1', false],
    ['192.168.1.5', false],
    ['fe80::1', false],
    ['::ffff:10.0.0.1', false],
    ['128.0.0.1', false],
    ['example.com', false],
    ['localhost.example', false],
  ])('%s → %s', (addr, want) => {
    expect(isLoopbackAddress(addr)).toBe(want);
  });
});

describe('checkBindAddress', () => {
  it.each(['0.0.0.0', '::', '', '10.0.0.1', 'fe80::1', 'example.com'])('refuses %j without the flag, allows it with', (addr) => {
    expect(() => checkBindAddress(addr, false)).toThrow(BindAddressError);
    expect(() => checkBindAddress(addr, false)).toThrow('--insecure-allow-unauthenticated-remote');
    expect(() => checkBindAddress(addr, true)).not.toThrow();
    expect(insecureBindWarning(addr)).toMatch(/^WARNING: .*no TLS/);
  });
  it.each(['127.0.0.1', '::1', 'localhost'])('allows %s', (addr) => {
    expect(() => checkBindAddress(addr, false)).not.toThrow();
    expect(insecureBindWarning(addr)).toBeUndefined();
  });
});

describe('URLs', () => {
  it.each([
    ['0.0.0.0', 'http://0.0.0.0:6443', 'http://127.0.0.1:6443'],
    ['::', 'http://[::]:6443', 'http://[::1]:6443'],
    ['127.0.0.1', 'http://127.0.0.1:6443', 'http://127.0.0.1:6443'],
    ['::1', 'http://[::1]:6443', 'http://[::1]:6443'],
    ['10.0.0.1', 'http://10.0.0.1:6443', 'http://10.0.0.1:6443'],
    ['fe80:0:0::1', 'http://[fe80::1]:6443', 'http://[fe80::1]:6443'],
  ])('%s: bound %s, clients use %s', (addr, bound, client) => {
    expect(boundURL(addr, 6443)).toBe(bound);
    expect(clientURL(addr, 6443)).toBe(client);
  });
  it('knows the wildcards', () => {
    expect(['0.0.0.0', '::', '0:0::0', ''].map(isWildcardAddress)).toEqual([true, true, true, true]);
    expect(isWildcardAddress('127.0.0.1')).toBe(false);
  });
});
