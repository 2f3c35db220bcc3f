// The origin guard's two rules as tables: which Host headers name this server
// without any DNS name a page could rebind, and which writes carry a
// browser's cross-site markers.
import { describe, expect, it } from 'vitest';
import { crossSiteReason, hostAllowed, hostOf } from './origin-guard.ts';

describe('hostOf', () => {
  it.each([
    ['127.0.0.1:6443', '127.0.0.1'],
    ['LOCALHOST:1', 'localhost'],
    ['[::1]:6443', '::1'],
    ['[::1]', '::1'],
    ['example.com', 'example.com'],
  ])('%s → %s', (h, want) => expect(hostOf(h)).toBe(want));
});

describe('hostAllowed', () => {
  it.each([
    // [Host header, bind address, allowed]
    ['127.0.0.1:6443', '127.0.0.1', true],
    ['localhost:6443', '127.0.0.1', true],
    ['[::1]:6443', '127.0.0.1', true],
    ['127.0.0.2', '127.0.0.1', true],
    [undefined, '127.0.0.1', true],
    ['evil.example:6443', '127.0.0.1', false],
    ['evil.example', '127.0.0.1', false],
    ['localhost.evil.example:6443', '127.0.0.1', false],
    ['127.0.0.1.nip.io:6443', '127.0.0.1', false],
    ['10.0.0.5:6443', '127.0.0.1', false],
    // bound to one address: that address; bound to all: any IP literal, still no names
    ['10.0.0.5:6443', '10.0.0.5', true],
    ['10.0.0.6:6443', '10.0.0.5', false],
    ['10.0.0.6:6443', '0.0.0.0', true],
    ['[fe80::1]:6443', '::', true],
    ['evil.example:6443', '0.0.0.0', false],
  ] as const)('Host %s, bound to %s → %s', (host, bind, want) => {
    expect(hostAllowed(host, bind)).toBe(want);
  });
});

describe('crossSiteReason', () => {
  const H = '127.0.0.1:6443';
  it.each([
    // [method, Origin, Sec-Fetch-Site, refused]
    ['POST', undefined, undefined, false],
    ['POST', 'http://127.0.0.1:6443', undefined, false],
    ['POST', 'http://127.0.0.1:6443', 'same-origin', false],
    ['DELETE', undefined, 'none', false],
    ['POST', 'http://evil.example', undefined, true],
    ['PUT', 'http://127.0.0.1:8080', undefined, true],
    ['PATCH', 'null', undefined, true],
    ['DELETE', undefined, 'cross-site', true],
    ['POST', undefined, 'same-site', true],
    ['GET', 'http://evil.example', 'cross-site', false],
    ['HEAD', 'http://evil.example', undefined, false],
  ] as const)('%s Origin %s Sec-Fetch-Site %s → refused %s', (method, origin, secFetchSite, refused) => {
    expect(crossSiteReason(method, { host: H, origin, secFetchSite }) !== undefined).toBe(refused);
  });
});
