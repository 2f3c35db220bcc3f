// Certificate authorities and the certificates they issue, as PEM: the
// server's own CA, its serving certificate (with the names and addresses
// clients reach it by) and client certificates (CN = user, O = groups).
// Keys are ECDSA P-256 (small and quick to make). X.509 encoding is
// @peculiar/x509's; it is loaded on first use, so a server whose
// certificates already exist on disk never pays for it.

import { createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

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

type X509Module = typeof import('@peculiar/x509');
let x509Module: Promise<X509Module> | undefined;

function x509(): Promise<X509Module> {
  x509Module ??= (async () => {
    // the library's dependency injection needs the Reflect metadata API
    await import('reflect-metadata');
    const m = await import('@peculiar/x509');
    m.cryptoProvider.set(webcrypto as unknown as Crypto);
    return m;
  })();
  return x509Module;
}

/** A distinguished name string with its values escaped (RFC 4514). */
function dn(commonName: string, organizations: string[] = []): string {
  const esc = (v: string) => v.replace(/([,+"\\<>;=#])/g, '\\$1').replace(/^ | $/g, '\\ ');
  return [...organizations.map((o) => `O=${esc(o)}`), `CN=${esc(commonName)}`].join(', ');
}

function serial(): string {
  // positive, 16 bytes, as Go's crypto/x509 users do
  const b = randomBytes(16);
  b[0] &= 0x7f;
  return b.toString('hex');
}

async function newKeys(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

async function keyPEM(key: CryptoKey): Promise<string> {
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  // written as SEC 1 ("EC PRIVATE KEY"), the form kubeadm and openssl ecparam write
  return createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'pem', type: 'sec1' }).toString();
}

async function importKey(pem: string): Promise<CryptoKey> {
  const der = createPrivateKey(pem).export({ format: 'der', type: 'pkcs8' });
  return webcrypto.subtle.importKey('pkcs8', der, ALG, true, ['sign']) as Promise<CryptoKey>;
}

/** A self-signed CA certificate and its key. */
export async function createCA(commonName: string, validityDays = 3650, now = Date.now()): Promise<KeyPairPEM> {
  const x = await x509();
  const keys = await newKeys();
  const cert = await x.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: dn(commonName),
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + validityDays * DAY_MS),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x.BasicConstraintsExtension(true, undefined, true),
      new x.KeyUsagesExtension(x.KeyUsageFlags.keyCertSign | x.KeyUsageFlags.cRLSign | x.KeyUsageFlags.digitalSignature, true),
      await x.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPEM: cert.toString('pem') + '\n', keyPEM: await keyPEM(keys.privateKey) };
}

/** A certificate for a server or a client, signed by the CA. */
export async function issueCertificate(ca: KeyPairPEM, o: IssueOptions): Promise<KeyPairPEM> {
  const x = await x509();
  const now = o.now ?? Date.now();
  const caCert = new x.X509Certificate(ca.certPEM);
  const caKey = await importKey(ca.keyPEM);
  const keys = await newKeys();
  const extensions: import('@peculiar/x509').Extension[] = [
    new x.BasicConstraintsExtension(false, undefined, true),
    new x.KeyUsagesExtension(x.KeyUsageFlags.digitalSignature | x.KeyUsageFlags.keyEncipherment, true),
    new x.ExtendedKeyUsageExtension([o.usage === 'server' ? x.ExtendedKeyUsage.serverAuth : x.ExtendedKeyUsage.clientAuth]),
    await x.AuthorityKeyIdentifierExtension.create(caCert),
  ];
  if (o.hosts?.length) {
    const names = [...new Set(o.hosts)].map((h) => ({ type: isIP(h) ? 'ip' : 'dns', value: h }) as const);
    extensions.push(new x.SubjectAlternativeNameExtension(names));
  }
  const cert = await x.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: dn(o.commonName, o.organizations),
    issuer: caCert.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + o.validityDays * DAY_MS),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: ALG,
    extensions,
  });
  return { certPEM: cert.toString('pem') + '\n', keyPEM: await keyPEM(keys.privateKey) };
}
