// The client-certificate authenticator (--client-ca-file): a certificate
// that verifies against the client CAs names the user by its subject's
// common name and the groups by its organizations; one that does not
// verify is a bad credential (401), and a request without one goes on to
// the next authenticator. Results are cached per certificate object (the
// HTTP layer hands the same object for every request on a connection).

import { X509Certificate } from 'node:crypto';
import { errors } from '../../api/errors.ts';
import type { AuthRequest, AuthResult, PeerCertificate, RequestAuthenticator } from '../authenticator.ts';
import { verifyChain } from './verify.ts';

export interface SubjectNames {
  commonName: string;
  organizations: string[];
}

/** Undoes the escapes of a subject line as Node prints it (RFC 2253 escapes, control bytes as \XX). */
function unescapeValue(v: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < v.length; i++) {
    const ch = v[i];
    if (ch === '\\' && i + 1 < v.length) {
      const hex = v.slice(i + 1, i + 3);
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
        continue;
      }
      i++;
      bytes.push(...Buffer.from(v[i]));
      continue;
    }
    bytes.push(...Buffer.from(ch));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** CN and O of a certificate's subject. */
export function subjectNames(cert: X509Certificate): SubjectNames {
  const out: SubjectNames = { commonName: '', organizations: [] };
  for (const line of cert.subject.split('\n')) {
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq);
    const value = unescapeValue(line.slice(eq + 1));
    if (key === 'CN') out.commonName = value;
    else if (key === 'O') out.organizations.push(value);
  }
  return out;
}

interface Cached {
  result: AuthResult | Error;
  until: number;
}

export class ClientCertAuthenticator implements RequestAuthenticator {
  private readonly cache = new WeakMap<PeerCertificate, Cached>();

  constructor(
    private readonly roots: X509Certificate[],
    private readonly now: () => number = Date.now,
  ) {}

  /** At once without a certificate or with one verified in the last minute; a refused one is a rejected promise. */
  authenticate(req: AuthRequest): AuthResult | undefined | Promise<AuthResult | undefined> {
    const peer = req.certificate;
    if (!peer) return undefined;
    const now = this.now();
    let hit = this.cache.get(peer);
    if (!hit || hit.until < now) {
      hit = this.check(peer, now);
      this.cache.set(peer, hit);
    }
    if (hit.result instanceof Error) return Promise.reject(hit.result);
    return hit.result;
  }

  private check(peer: PeerCertificate, now: number): Cached {
    const v = verifyChain(peer, this.roots, now);
    // a verified result is rechecked after a minute (or at expiry); a failure at once on the next request
    if (!v.ok) return { result: errors.unauthorized(), until: 0 };
    const names = subjectNames(v.leaf);
    if (!names.commonName) return { result: errors.unauthorized(), until: 0 };
    return {
      result: { user: { name: names.commonName, groups: names.organizations } },
      until: Math.min(now + 60_000, Date.parse(v.leaf.validTo)),
    };
  }
}
