import { describe, expect, it } from 'vitest';
import { base32Lower, identityLeaseExpired, identityLeaseName } from './apiserver-identity.ts';

describe('base32Lower (RFC 4648, no padding)', () => {
  it.each([
    ['', ''],
    ['f', 'my'],
    ['fo', 'mzxq'],
    ['foo', 'mzxw6'],
    ['foob', 'mzxw6yq'],
    ['fooba', 'mzxw6ytb'],
    ['foobar', 'mzxw6ytboi'],
  ])('%j -> %s', (text, want) => {
    expect(base32Lower(Buffer.from(text))).toBe(want);
  });
});

describe('identityLeaseName (SHA-256 of the length-prefixed host name and kube-apiserver, 16 bytes, base32)', () => {
  it.each([
    ['master-1', 'apiserver-wj467rbl25eeviqacfhvg2yvnm'],
    ['vm', 'apiserver-wlv32tlttr4jl3gtroqexyxapa'],
  ])('%s', (host, want) => {
    expect(identityLeaseName(host)).toBe(want);
  });
});

describe('identityLeaseExpired', () => {
  const at = Date.UTC(2024, 0, 1, 12);
  it.each([
    ['renewed within its duration', { renewTime: '2024-01-01T11:30:00.000000Z', leaseDurationSeconds: 3600 }, false],
    ['renewed longer ago than its duration', { renewTime: '2024-01-01T10:59:59.000000Z', leaseDurationSeconds: 3600 }, true],
    ['no renewTime', { leaseDurationSeconds: 3600 }, true],
    ['no duration', { renewTime: '2024-01-01T11:30:00.000000Z' }, true],
  ])('%s', (_n, spec, want) => {
    expect(identityLeaseExpired({ spec }, at)).toBe(want);
  });
});
