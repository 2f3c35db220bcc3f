// Certificate authorities and the certificates they issue, as PEM: the
// server's own CA, its serving certificate (with the names and addresses
// clients reach it by) and client certificates (CN = user, O = groups).
// Keys are ECDSA P-256 (small and quick to make), signed with SHA-256. The
// X.509 v3 structure (RFC 5280) is written with the DER writers of der.ts
// and signed with node:crypto, so making certificates loads no library.
// signRequest issues a certificate for a parsed certificate request (the
// in-process CSR signers).

import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { bitString, boolean, children, explicit, implicit, namedBits, octetString, oid, readElement, sequence, set, smallInteger, time, unsignedInteger, utf8String } from './der.ts';

const DAY_MS = 86_400_000;

const OID = {
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

// KeyUsage bits (RFC 5280 4.2.1.3)
const DIGITAL_SIGNATURE = 0;
const KEY_ENCIPHERMENT = 2;
const KEY_CERT_SIGN = 5;
const CRL_SIGN = 6;

export interface KeyPairPEM {
  certPEM: string;
  keyPEM: string;
}

export interface IssueOptions {
  commonName: string;
  /** Subject O values (groups of a client certificate). */
  organizations?: string[];
  /** DNS names and IP addresses of a serving certificate. */
  hosts?: string[];
  usage: 'server' | 'client';
  validityDays: number;
  now?: number;
}

/** A Name: one RDN per O value, then CN (the order Go's pkix.Name writes). */
function name(commonName: string, organizations: string[] = []): Buffer {
  const rdn = (type: string, value: string) => set(sequence(oid(type), utf8String(value)));
  return sequence(...organizations.map((o) => rdn(OID.organization, o)), rdn(OID.commonName, commonName));
}

function serial(): Buffer {
  // positive, 16 random bytes, as Go's crypto/x509 users do
  const b = randomBytes(16);
  b[0] &= 0x7f;
  return unsignedInteger(b);
}

/** RFC 5280's key identifier (method 1): SHA-1 of the subjectPublicKey bits, here the uncompressed EC point. */
function keyIdentifier(publicKey: KeyObject): Buffer {
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const [, key] = children(spki, readElement(spki));
  return createHash('sha1')
    .update(spki.subarray(key.contentStart + 1, key.end))
    .digest();
}

const extension = (id: string, critical: boolean, value: Buffer) => sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value));

const ALGORITHM = sequence(oid(OID.ecdsaWithSHA256));

/** TBSCertificate signed by `signer`, as PEM. */
function certificate(o: { issuer: Buffer; subject: Buffer; notBefore: number; notAfter: number; publicKey: KeyObject; extensions: Buffer[]; signer: KeyObject }): string {
  const tbs = sequence(
    explicit(0, smallInteger(2)), // v3
    serial(),
    ALGORITHM,
    o.issuer,
    sequence(time(o.notBefore), time(o.notAfter)),
    o.subject,
    o.publicKey.export({ format: 'der', type: 'spki' }),
    explicit(3, sequence(...o.extensions)),
  );
  // node signs ECDSA as a DER Ecdsa-Sig-Value, the form X.509 carries
  const der = sequence(tbs, ALGORITHM, bitString(sign('sha256', tbs, o.signer)));
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END CERTIFICATE-----\n`;
}

const newKeys = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
// written as SEC 1 ("EC PRIVATE KEY"), the form kubeadm and openssl ecparam write
const keyPEM = (key: KeyObject) => key.export({ format: 'pem', type: 'sec1' }).toString();

/** A self-signed CA certificate and its key. */
export async function createCA(commonName: string, validityDays = 3650, now = Date.now()): Promise<KeyPairPEM> {
  const keys = newKeys();
  const subject = name(commonName);
  const certPEM = certificate({
    issuer: subject,
    subject,
    notBefore: now - 60_000,
    notAfter: now + validityDays * DAY_MS,
    publicKey: keys.publicKey,
    signer: keys.privateKey,
    extensions: [
      extension(OID.basicConstraints, true, sequence(boolean(true))),
      extension(OID.keyUsage, true, namedBits([DIGITAL_SIGNATURE, KEY_CERT_SIGN, CRL_SIGN])),
      extension(OID.subjectKeyIdentifier, false, octetString(keyIdentifier(keys.publicKey))),
    ],
  });
  return { certPEM, keyPEM: keyPEM(keys.privateKey) };
}

/** The CA's subject exactly as encoded (the issuer of what it signs) and its key identifier (its own extension's when it has one). */
function issuerOf(caCert: X509Certificate): { subject: Buffer; keyId: Buffer } {
  const der = caCert.raw;
  const [tbs] = children(der, readElement(der));
  const fields = children(der, tbs);
  // version [0], serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, ... [3] extensions
  const subject = Buffer.from(der.subarray(fields[5].start, fields[5].end));
  let keyId: Buffer | undefined;
  const exts = fields.find((f) => f.tag === 0xa3);
  if (exts) {
    for (const ext of children(der, children(der, exts)[0])) {
      const [id, ...rest] = children(der, ext);
      if (!Buffer.from(der.subarray(id.start, id.end)).equals(oid(OID.subjectKeyIdentifier))) continue;
      const value = rest[rest.length - 1];
      const inner = readElement(der, value.contentStart);
      keyId = Buffer.from(der.subarray(inner.contentStart, inner.end));
    }
  }
  return { subject, keyId: keyId ?? keyIdentifier(caCert.publicKey) };
}

/** A certificate for a server or a client, signed by the CA. */
export async function issueCertificate(ca: KeyPairPEM, o: IssueOptions): Promise<KeyPairPEM> {
  const now = o.now ?? Date.now();
  const caCert = new X509Certificate(ca.certPEM);
  const caKey = createPrivateKey(ca.keyPEM);
  const issuer = issuerOf(caCert);
  const keys = newKeys();
  const extensions = [
    extension(OID.basicConstraints, true, sequence()),
    extension(OID.keyUsage, true, namedBits([DIGITAL_SIGNATURE, KEY_ENCIPHERMENT])),
    extension(OID.extKeyUsage, false, sequence(oid(o.usage === 'server' ? OID.serverAuth : OID.clientAuth))),
    extension(OID.authorityKeyIdentifier, false, sequence(implicit(0, issuer.keyId))),
  ];
  if (o.hosts?.length) {
    // GeneralName: [2] dNSName (an IA5String's characters), [7] iPAddress (the address's bytes)
    const names = [...new Set(o.hosts)].map((h) => (isIP(h) ? implicit(7, ipBytes(h)) : implicit(2, Buffer.from(h, 'ascii'))));
    extensions.push(extension(OID.subjectAltName, false, sequence(...names)));
  }
  const certPEM = certificate({
    issuer: issuer.subject,
    subject: name(o.commonName, o.organizations),
    notBefore: now - 60_000,
    notAfter: now + o.validityDays * DAY_MS,
    publicKey: keys.publicKey,
    signer: caKey,
    extensions,
  });
  return { certPEM, keyPEM: keyPEM(keys.privateKey) };
}

/** What a signer puts in a certificate it issues for a request (see csr.ts). */
export interface RequestToSign {
  /** The request's subject Name as encoded. */
  subjectDER: Buffer;
  publicKey: KeyObject;
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  /** KeyUsage bit numbers (RFC 5280 4.2.1.3). */
  keyUsageBits: number[];
  /** ExtKeyUsage OIDs, dotted. */
  extKeyUsages: string[];
  notBefore: number;
  notAfter: number;
}

/** A leaf certificate (not a CA) for a request's subject, names and key, signed by the CA, as PEM. */
export function signRequest(ca: KeyPairPEM, r: RequestToSign): string {
  const caCert = new X509Certificate(ca.certPEM);
  const issuer = issuerOf(caCert);
  const extensions = [extension(OID.basicConstraints, true, sequence())];
  if (r.keyUsageBits.length) extensions.push(extension(OID.keyUsage, true, namedBits(r.keyUsageBits)));
  if (r.extKeyUsages.length) extensions.push(extension(OID.extKeyUsage, false, sequence(...r.extKeyUsages.map((u) => oid(u)))));
  extensions.push(extension(OID.authorityKeyIdentifier, false, sequence(implicit(0, issuer.keyId))));
  // GeneralName: [1] rfc822Name, [2] dNSName, [6] URI, [7] iPAddress
  const names = [
    ...r.dnsNames.map((n) => implicit(2, Buffer.from(n, 'ascii'))),
    ...r.emailAddresses.map((n) => implicit(1, Buffer.from(n, 'ascii'))),
    ...r.ipAddresses.map((n) => implicit(7, ipBytes(n))),
    ...r.uris.map((n) => implicit(6, Buffer.from(n, 'ascii'))),
  ];
  if (names.length) extensions.push(extension(OID.subjectAltName, false, sequence(...names)));
  return certificate({
    issuer: issuer.subject,
    subject: r.subjectDER,
    notBefore: r.notBefore,
    notAfter: Math.min(r.notAfter, Date.parse(caCert.validTo)),
    publicKey: r.publicKey,
    signer: createPrivateKey(ca.keyPEM),
    extensions,
  });
}

/** 4 or 16 bytes of an IPv4 or IPv6 address. */
function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  // IPv6: expand '::' and an embedded IPv4 tail
  let s = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const b = v4[1].split('.').map(Number);
    s = s.slice(0, -v4[1].length) + `${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const [head, tail] = s.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined ? (tail ? tail.split(':') : []) : [];
  const groups = tail !== undefined ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}
