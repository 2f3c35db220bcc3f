// kube-apiserver's TLS flags in Node's terms: --tls-min-version's Go names
// (VersionTLS10 ... VersionTLS13) and --tls-cipher-suites' IANA names, which
// Go uses, mapped to OpenSSL's. As in Go, the TLS 1.3 suites cannot be
// chosen (they are accepted in the list and always on); an unknown name is
// an error naming it.

import type { SecureVersion } from 'node:tls';

export class TLSFlagError extends Error {}

const VERSIONS: Record<string, SecureVersion> = {
  VersionTLS10: 'TLSv1',
  VersionTLS11: 'TLSv1.1',
  VersionTLS12: 'TLSv1.2',
  VersionTLS13: 'TLSv1.3',
};

/** The TLS 1.0–1.2 suites Go offers, by IANA name, with OpenSSL's name. */
const SUITES: Record<string, string> = {
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
};
const TLS13 = new Set(['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']);

/** --tls-min-version (default VersionTLS12). */
export function tlsMinVersion(name: string | undefined): SecureVersion {
  if (!name) return 'TLSv1.2';
  const v = VERSIONS[name];
  if (!v) throw new TLSFlagError(`unknown tls version "${name}" for --tls-min-version (known: ${Object.keys(VERSIONS).join(', ')})`);
  return v;
}

/** --tls-cipher-suites as an OpenSSL cipher list; undefined (Node's defaults) when none is named. */
export function tlsCiphers(names: string[] | undefined): string | undefined {
  const list = (names ?? []).map((n) => n.trim()).filter(Boolean);
  if (!list.length) return undefined;
  const out: string[] = [];
  for (const n of list) {
    if (TLS13.has(n)) continue;
    const o = SUITES[n];
    if (!o) throw new TLSFlagError(`Cipher suite ${n} not supported or doesn't exist`);
    out.push(o);
  }
  // TLS 1.3 suites stay enabled (Node configures them separately), as in Go
  return out.length ? out.join(':') : undefined;
}
