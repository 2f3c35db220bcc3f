// kube-apiserver's TLS flag values mapped to Node's.
import { describe, expect, it } from 'vitest';
import { TLSFlagError, tlsCiphers, tlsMinVersion } from './tls.ts';

describe('--tls-min-version', () => {
  it.each([
    [undefined, 'TLSv1.2'],
    ['VersionTLS10', 'TLSv1'],
    ['VersionTLS11', 'TLSv1.1'],
    ['VersionTLS12', 'TLSv1.2'],
    ['VersionTLS13', 'TLSv1.3'],
  ])('%s → %s', (flag, want) => {
    expect(tlsMinVersion(flag)).toBe(want);
  });
  it.each(['TLS12', 'VersionTLS14', '1.2'])('refuses %s', (v) => {
    expect(() => tlsMinVersion(v)).toThrow(TLSFlagError);
  });
});

describe('--tls-cipher-suites', () => {
  it('maps Go names to OpenSSL names and leaves TLS 1.3 suites alone', () => {
    expect(tlsCiphers(undefined)).toBeUndefined();
    expect(tlsCiphers(['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', ' TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305 ', 'TLS_AES_128_GCM_SHA256'])).toBe(
      'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-CHACHA20-POLY1305',
    );
    expect(tlsCiphers(['TLS_AES_256_GCM_SHA384'])).toBeUndefined();
  });
  it('names an unknown suite', () => {
    expect(() => tlsCiphers(['TLS_FOO'])).toThrow("Cipher suite TLS_FOO not supported or doesn't exist");
  });
});
