// Checks a client certificate against a set of trusted CAs, as Go's
// crypto/x509 Verify does for kube-apiserver's client-certificate and
// front-proxy authenticators: a chain from the leaf through the
// intermediates the client sent to one of the roots, every certificate
// within its validity period and signed by the next, every issuer a CA, and
// the leaf usable for client authentication (no extended key usage, or
// clientAuth, or any). Node's X509Certificate does the cryptography.

import { X509Certificate } from 'node:crypto';
import type { PeerCertificate } from '../authenticator.ts';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_USAGE = '2.5.29.37.0';
const MAX_DEPTH = 10;

export class CABundleError extends Error {}

/** The certificates of a PEM bundle (a CA file); `source` names it in errors. */
export function parseCABundle(pem: string, source: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (!blocks.length) throw new CABundleError(`${source}: no PEM certificate found`);
  return blocks.map((b, i) => {
    try {
      return new X509Certificate(b);
    } catch (err) {
      throw new CABundleError(`${source}: certificate ${i + 1} cannot be read: ${(err as Error).message}`);
    }
  });
}

function within(c: X509Certificate, now: number): boolean {
  return Date.parse(c.validFrom) <= now && now <= Date.parse(c.validTo);
}

function signedBy(child: X509Certificate, parent: X509Certificate): boolean {
  try {
    return child.checkIssued(parent) && child.verify(parent.publicKey);
  } catch {
    return false;
  }
}

export type Verification = { ok: true; leaf: X509Certificate } | { ok: false; reason: string };

/** Verifies the peer's chain to one of `roots` at time `now`. */
export function verifyChain(peer: PeerCertificate, roots: X509Certificate[], now = Date.now()): Verification {
  let leaf: X509Certificate;
  let intermediates: X509Certificate[];
  try {
    leaf = new X509Certificate(peer.raw);
    intermediates = peer.intermediates.map((d) => new X509Certificate(d));
  } catch {
    return { ok: false, reason: 'the client certificate cannot be parsed' };
  }
  if (!within(leaf, now)) return { ok: false, reason: 'x509: certificate has expired or is not yet valid' };
  const usages = leaf.keyUsage;
  if (usages && usages.length && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_USAGE)) {
    return { ok: false, reason: 'x509: certificate specifies an incompatible key usage' };
  }
  let current = leaf;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const root = roots.find((r) => r.ca && within(r, now) && signedBy(current, r));
    if (root) return { ok: true, leaf };
    // a root sent by the client counts only when it is one of ours (found above)
    const next = intermediates.find((i) => i !== current && i.ca && within(i, now) && signedBy(current, i));
    if (!next) break;
    current = next;
  }
  return { ok: false, reason: 'x509: certificate signed by unknown authority' };
}
