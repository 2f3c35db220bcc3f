// A reader of PKCS#10 certificate requests (RFC 2986) in PEM: the subject
// (as encoded, and its CN and O values), the public key, the subject
// alternative names of an extensionRequest attribute (DNS names, IP
// addresses, email addresses, URIs) and a check of the request's own
// signature. Built on der.ts's element reader and node:crypto; only what a
// signer needs is decoded.

import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { children, readElement, type Element } from './der.ts';

export class CSRError extends Error {}

export interface CertificateRequest {
  /** The DER of the whole request. */
  raw: Buffer;
  /** The subject Name exactly as encoded. */
  subjectDER: Buffer;
  commonName: string;
  organizations: string[];
  publicKey: KeyObject;
  /** The SubjectPublicKeyInfo as encoded. */
  spkiDER: Buffer;
  dnsNames: string[];
  /** IP addresses in their text form. */
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  /** Whether the request is signed by the key it carries (Go's CheckSignature). */
  signatureError(): string | undefined;
}

const OID_CN = '2.5.4.3';
const OID_O = '2.5.4.10';
const OID_EXTENSION_REQUEST = '1.2.840.113549.1.9.14';
const OID_SAN = '2.5.29.17';

/** Signature algorithms by OID: the digest node:crypto verifies with (null for Ed25519) and Go's failure text. */
const SIGNATURE_ALGORITHMS: Record<string, { digest: string | null; failure: string }> = {
  '1.2.840.113549.1.1.5': { digest: 'sha1', failure: 'crypto/rsa: verification error' },
  '1.2.840.113549.1.1.11': { digest: 'sha256', failure: 'crypto/rsa: verification error' },
  '1.2.840.113549.1.1.12': { digest: 'sha384', failure: 'crypto/rsa: verification error' },
  '1.2.840.113549.1.1.13': { digest: 'sha512', failure: 'crypto/rsa: verification error' },
  '1.2.840.10045.4.3.2': { digest: 'sha256', failure: 'x509: ECDSA verification failure' },
  '1.2.840.10045.4.3.3': { digest: 'sha384', failure: 'x509: ECDSA verification failure' },
  '1.2.840.10045.4.3.4': { digest: 'sha512', failure: 'x509: ECDSA verification failure' },
  '1.3.101.112': { digest: null, failure: 'x509: Ed25519 verification failure' },
};

/** The dotted form of an OBJECT IDENTIFIER's contents. */
export function oidText(contents: Uint8Array): string {
  if (contents.length === 0) throw new CSRError('x509: malformed OID');
  const arcs: number[] = [];
  let v = 0;
  for (const b of contents) {
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      arcs.push(v);
      v = 0;
    }
  }
  const first = arcs.shift() ?? 0;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...arcs].join('.');
}

function ipText(b: Uint8Array): string {
  if (b.length === 4) return [...b].join('.');
  if (b.length === 16) {
    const groups: string[] = [];
    for (let i = 0; i < 16; i += 2) groups.push(((b[i] << 8) | b[i + 1]).toString(16));
    // the longest run of zero groups becomes '::'
    let best = -1;
    let len = 0;
    for (let i = 0; i < 8;) {
      if (groups[i] !== '0') {
        i++;
        continue;
      }
      let j = i;
      while (j < 8 && groups[j] === '0') j++;
      if (j - i > len && j - i > 1) {
        best = i;
        len = j - i;
      }
      i = j;
    }
    if (best < 0) return groups.join(':');
    return `${groups.slice(0, best).join(':')}::${groups.slice(best + len).join(':')}`;
  }
  throw new CSRError('x509: invalid IP length');
}

/** The DER of the first PEM block, which must be a CERTIFICATE REQUEST. */
export function pemRequestDER(pem: string): Buffer {
  const m = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/.exec(pem);
  if (!m || m[1] !== 'CERTIFICATE REQUEST') throw new CSRError('PEM block type must be CERTIFICATE REQUEST');
  const body = m[2].replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) throw new CSRError('PEM block type must be CERTIFICATE REQUEST');
  return Buffer.from(body, 'base64');
}

const bytes = (der: Buffer, e: Element) => der.subarray(e.contentStart, e.end);

function expect(e: Element | undefined, tag: number): Element {
  if (!e || e.tag !== tag) throw new CSRError('x509: malformed certificate request');
  return e;
}

export function parseCertificateRequest(pem: string): CertificateRequest {
  const der = pemRequestDER(pem);
  try {
    return parseDER(der);
  } catch (err) {
    if (err instanceof CSRError) throw err;
    throw new CSRError('x509: malformed certificate request');
  }
}

function parseDER(der: Buffer): CertificateRequest {
  const top = expect(readElement(der), 0x30);
  if (top.end !== der.length) throw new CSRError('x509: trailing data after certificate request');
  const [info, algorithm, signature] = children(der, top);
  expect(info, 0x30);
  expect(algorithm, 0x30);
  expect(signature, 0x03);
  const fields = children(der, info);
  expect(fields[0], 0x02);
  const subject = expect(fields[1], 0x30);
  const spki = expect(fields[2], 0x30);
  const subjectDER = Buffer.from(der.subarray(subject.start, subject.end));
  const spkiDER = Buffer.from(der.subarray(spki.start, spki.end));
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: spkiDER, format: 'der', type: 'spki' });
  } catch {
    throw new CSRError('x509: unsupported public key algorithm');
  }

  let commonName = '';
  const organizations: string[] = [];
  for (const rdn of children(der, subject)) {
    for (const atv of children(der, expect(rdn, 0x31))) {
      const [type, value] = children(der, expect(atv, 0x30));
      const id = oidText(bytes(der, expect(type, 0x06)));
      const text = bytes(der, value).toString(value.tag === 0x1e ? 'utf16le' : 'utf8');
      if (id === OID_CN) commonName = text;
      if (id === OID_O) organizations.push(text);
    }
  }

  const dnsNames: string[] = [];
  const ipAddresses: string[] = [];
  const emailAddresses: string[] = [];
  const uris: string[] = [];
  const attrs = fields[3];
  if (attrs && attrs.tag === 0xa0) {
    for (const attr of children(der, attrs)) {
      const [type, values] = children(der, expect(attr, 0x30));
      if (oidText(bytes(der, expect(type, 0x06))) !== OID_EXTENSION_REQUEST) continue;
      for (const exts of children(der, expect(values, 0x31))) {
        for (const ext of children(der, expect(exts, 0x30))) {
          const parts = children(der, expect(ext, 0x30));
          if (oidText(bytes(der, expect(parts[0], 0x06))) !== OID_SAN) continue;
          const value = expect(parts[parts.length - 1], 0x04);
          const names = expect(readElement(der, value.contentStart), 0x30);
          for (const gn of children(der, names)) {
            const b = bytes(der, gn);
            if (gn.tag === 0x81) emailAddresses.push(b.toString('ascii'));
            else if (gn.tag === 0x82) dnsNames.push(b.toString('ascii'));
            else if (gn.tag === 0x86) uris.push(b.toString('ascii'));
            else if (gn.tag === 0x87) ipAddresses.push(ipText(b));
          }
        }
      }
    }
  }

  const algId = oidText(bytes(der, expect(children(der, algorithm)[0], 0x06)));
  const sigBits = bytes(der, signature);
  const tbs = der.subarray(info.start, info.end);
  return {
    raw: der,
    subjectDER,
    commonName,
    organizations,
    publicKey,
    spkiDER,
    dnsNames,
    ipAddresses,
    emailAddresses,
    uris,
    signatureError() {
      const alg = SIGNATURE_ALGORITHMS[algId];
      if (!alg) return 'x509: cannot verify signature: algorithm unimplemented';
      if (sigBits.length < 1 || sigBits[0] !== 0) return 'x509: malformed signature';
      try {
        return verify(alg.digest, tbs, publicKey, sigBits.subarray(1)) ? undefined : alg.failure;
      } catch {
        return alg.failure;
      }
    },
  };
}
