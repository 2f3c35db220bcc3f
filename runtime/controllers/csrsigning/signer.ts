// kube-controller-manager's csrsigning for the signers this server runs
// in-process: `kubernetes.io/kube-apiserver-client` (client certificates the
// server's x509 authenticator accepts) and `kubernetes.io/kubelet-serving`.
// An approved request, not failed and without a certificate, of one of
// these signers is checked against the signer's rules (a refusal is a
// Failed condition with reason SignerValidationFailure) and otherwise signed
// by the CA for the requested duration: expirationSeconds, at least 10
// minutes and at most the signer's duration (--cluster-signing-duration,
// default one year), backdated 5 minutes for clock skew.

import { createPublicKey } from 'node:crypto';
import { parseCertificateRequest, type CertificateRequest } from '../../auth/pki/csr.ts';
import { signRequest, type KeyPairPEM } from '../../auth/pki/certs.ts';
import type { Obj } from '../../storage/interface.ts';

export const KUBE_APISERVER_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';
export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';
export const SIGNERS = [KUBE_APISERVER_CLIENT_SIGNER, KUBELET_SERVING_SIGNER];

export const DEFAULT_SIGNING_DURATION_MS = 365 * 24 * 3600_000;
const MIN_DURATION_MS = 10 * 60_000;
const BACKDATE_MS = 5 * 60_000;
const SHORT_MS = 8 * 3600_000;

/** KeyUsage bits by usage name (RFC 5280 4.2.1.3). */
const KEY_USAGE_BITS: Record<string, number> = {
  signing: 0,
  'digital signature': 0,
  'content commitment': 1,
  'key encipherment': 2,
  'data encipherment': 3,
  'key agreement': 4,
  'cert sign': 5,
  'crl sign': 6,
  'encipher only': 7,
  'decipher only': 8,
};

/** ExtKeyUsage OIDs by usage name. */
const EXT_KEY_USAGES: Record<string, string> = {
  any: '2.5.29.37.0',
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  timestamping: '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
};

/** kube-apiserver-client: client auth required; digital signature and key encipherment allowed. */
export function apiServerClientError(usages: string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment') return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

const sameSet = (a: Set<string>, b: string[]) => a.size === b.length && b.every((x) => a.has(x));

/** kubelet-serving: O exactly system:nodes, DNS or IP names only, server usages, CN system:node:<name>. */
export function kubeletServingError(req: CertificateRequest, usages: string[]): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (req.dnsNames.length === 0 && req.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  const set = new Set(usages);
  if (!sameSet(set, ['digital signature', 'key encipherment', 'server auth']) && !sameSet(set, ['digital signature', 'server auth'])) {
    return 'usages did not match [digital signature key encipherment server auth]';
  }
  if (!req.commonName.startsWith('system:node:')) return "subject common name does not begin with 'system:node:'";
  return undefined;
}

/** How long the certificate lasts: the requested duration between 10 minutes and the signer's duration. */
export function signingDuration(expirationSeconds: unknown, maxMs: number): number {
  if (typeof expirationSeconds !== 'number') return maxMs;
  const ms = expirationSeconds * 1000;
  if (ms > maxMs) return maxMs;
  if (ms < MIN_DURATION_MS) return MIN_DURATION_MS;
  return ms;
}

/** notBefore backdated 5 minutes; a long-lived certificate's notAfter moves back too, a short one (8h or less) keeps its whole duration. */
export function validity(now: number, durationMs: number): { notBefore: number; notAfter: number } {
  const notBefore = now - BACKDATE_MS;
  return { notBefore, notAfter: durationMs <= SHORT_MS ? now + durationMs : now + durationMs - BACKDATE_MS };
}

const conditionTrue = (csr: Obj, type: string) => Array.isArray(csr.status?.conditions) && csr.status.conditions.some((c: Obj) => c?.type === type && c?.status === 'True');

/** Whether the request is this process's to sign now. */
export function wantsSigning(csr: Obj): boolean {
  return SIGNERS.includes(csr.spec?.signerName) && conditionTrue(csr, 'Approved') && !conditionTrue(csr, 'Failed') && !csr.status?.certificate;
}

export type SignOutcome = { certificatePEM: string } | { failure: string };

export interface SignerOptions {
  ca: KeyPairPEM;
  /** --cluster-signing-duration (ms). */
  durationMs?: number;
  now?: () => number;
}

/** Signs one approved request, or says why its signer refuses it. Throws when the request cannot be read at all. */
export function signCSR(csr: Obj, o: SignerOptions): SignOutcome {
  const pem = Buffer.from(String(csr.spec?.request ?? ''), 'base64').toString('utf8');
  const req = parseCertificateRequest(pem);
  const usages: string[] = Array.isArray(csr.spec?.usages) ? csr.spec.usages : [];
  const refusal = csr.spec.signerName === KUBELET_SERVING_SIGNER ? kubeletServingError(req, usages) : apiServerClientError(usages);
  if (refusal) return { failure: refusal };
  const now = (o.now ?? Date.now)();
  const { notBefore, notAfter } = validity(now, signingDuration(csr.spec?.expirationSeconds, o.durationMs ?? DEFAULT_SIGNING_DURATION_MS));
  const keyUsageBits = [...new Set(usages.map((u) => KEY_USAGE_BITS[u]).filter((b) => b !== undefined))];
  const extKeyUsages = [...new Set(usages.map((u) => EXT_KEY_USAGES[u]).filter((u) => u !== undefined))];
  const certificatePEM = signRequest(o.ca, {
    subjectDER: req.subjectDER,
    publicKey: createPublicKey({ key: req.spkiDER, format: 'der', type: 'spki' }),
    dnsNames: req.dnsNames,
    ipAddresses: req.ipAddresses,
    emailAddresses: req.emailAddresses,
    uris: req.uris,
    keyUsageBits,
    extKeyUsages,
    notBefore,
    notAfter,
  });
  return { certificatePEM };
}
