// The server's certificates: where they come from and where they are kept.
//   - With a data directory (or --cert-dir), a CA (ca.crt, ca.key), the
//     serving certificate (apiserver.crt, apiserver.key) and the admin's
//     client certificate (admin.crt, admin.key) are written on first start
//     under <data-dir>/pki/ and reused later; a serving certificate that no
//     longer covers every name and address the server is reached by, or
//     that expires within 30 days, is issued anew by the same CA.
//   - --tls-cert-file/--tls-private-key-file replace the serving certificate;
//     --client-ca-file replaces the CA trusted for client certificates.
//   - --cluster-signing-cert-file/--cluster-signing-key-file name the CA
//     instead of a generated one (kube-controller-manager's flags for the CA
//     that signs CSRs): it signs this server's serving and admin certificates
//     (kept as above, with no ca.crt/ca.key written) and the CSRs. Replicas
//     given one CA each keep their own serving certificate, and a client
//     certificate of one is valid on every other.
//   - Without a data directory (tests, embedders) the CA and certificates
//     live in memory and are made once per process.

import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GROUP_MASTERS } from '../api/k8s-names.ts';
import { createCA, issueCertificate, type KeyPairPEM } from '../auth/pki/certs.ts';
import { parseCABundle } from '../auth/x509/verify.ts';

export const ADMIN_USER = 'kubernetes-admin';
const RENEW_BEFORE_MS = 30 * 86_400_000;

export interface PKIOptions {
  /** Where to keep the certificates; undefined keeps them in memory. */
  certDir?: string;
  /** DNS names and IP addresses the serving certificate must cover. */
  hosts: string[];
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  clientCAFile?: string;
  /** --cluster-signing-cert-file and --cluster-signing-key-file: the CA instead of a generated one. */
  clusterSigningCertFile?: string;
  clusterSigningKeyFile?: string;
  now?: number;
}

export interface ServerPKI {
  serving: KeyPairPEM;
  /** The CA a client verifies the server with (undefined when --tls-cert-file names a certificate of another CA). */
  servingCAPEM?: string;
  /** PEM of the CAs trusted for client certificates. */
  clientCAPEM: string;
  clientCAs: X509Certificate[];
  /** The server's CA (certificate and key): it signs the serving, admin and CSR-issued certificates. */
  ca: KeyPairPEM;
  /** The admin's client certificate (CN kubernetes-admin, O system:masters), signed by the server's CA. */
  admin: KeyPairPEM;
  /** Start-up notes (a certificate issued anew, an admin certificate the client CAs do not trust). */
  notes: string[];
}

export class PKIError extends Error {}

function readFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new PKIError(`cannot read ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** Whether a certificate is still good for at least 30 days and names every host. */
function stillGood(certPEM: string, hosts: string[], ca: X509Certificate, now: number): boolean {
  let c: X509Certificate;
  try {
    c = new X509Certificate(certPEM);
  } catch {
    return false;
  }
  if (Date.parse(c.validTo) - RENEW_BEFORE_MS < now || !c.checkIssued(ca) || !c.verify(ca.publicKey)) return false;
  return hosts.every((h) => (c.checkHost(h) ?? c.checkIP(h)) !== undefined);
}

function matchesKey(pair: KeyPairPEM): boolean {
  try {
    return new X509Certificate(pair.certPEM).checkPrivateKey(createKey(pair.keyPEM));
  } catch {
    return false;
  }
}

const createKey = (pem: string) => createPrivateKey(pem);

// in-memory servers of one process share one CA and reuse certificates for the same CA and hosts
let memoryCA: Promise<KeyPairPEM> | undefined;
const memoryServing = new Map<string, Promise<KeyPairPEM>>();
const memoryAdmin = new Map<string, Promise<KeyPairPEM>>();

/** The CA of --cluster-signing-cert-file and --cluster-signing-key-file (a CA certificate and its key). */
function givenCA(certFile: string, keyFile: string): KeyPairPEM {
  const pair = { certPEM: readFile(certFile, '--cluster-signing-cert-file'), keyPEM: readFile(keyFile, '--cluster-signing-key-file') };
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pair.certPEM);
    createKey(pair.keyPEM);
  } catch (err) {
    throw new PKIError(`cannot load the cluster signing CA: ${(err as Error).message}`);
  }
  if (!cert.ca) throw new PKIError(`--cluster-signing-cert-file ${certFile} is not a CA certificate`);
  if (!matchesKey(pair)) throw new PKIError(`--cluster-signing-key-file ${keyFile} is not the key of --cluster-signing-cert-file ${certFile}`);
  return pair;
}

async function onDisk(dir: string, base: string, make: () => Promise<KeyPairPEM>, good: (p: KeyPairPEM) => boolean, notes: string[]): Promise<KeyPairPEM> {
  const crt = join(dir, `${base}.crt`);
  const key = join(dir, `${base}.key`);
  if (existsSync(crt) && existsSync(key)) {
    const pair = { certPEM: readFile(crt, 'certificate'), keyPEM: readFile(key, 'key') };
    if (good(pair) && matchesKey(pair)) return pair;
    notes.push(`issued a new ${base} certificate (${crt} did not cover this server or was about to expire)`);
  }
  const pair = await make();
  writeFileSync(key, pair.keyPEM, { mode: 0o600 });
  writeFileSync(crt, pair.certPEM, { mode: 0o644 });
  return pair;
}

export async function preparePKI(o: PKIOptions): Promise<ServerPKI> {
  const now = o.now ?? Date.now();
  const notes: string[] = [];
  if (Boolean(o.tlsCertFile) !== Boolean(o.tlsPrivateKeyFile)) {
    throw new PKIError('--tls-cert-file and --tls-private-key-file must be given together');
  }
  if (Boolean(o.clusterSigningCertFile) !== Boolean(o.clusterSigningKeyFile)) {
    throw new PKIError('--cluster-signing-cert-file and --cluster-signing-key-file must be given together');
  }
  const signing = o.clusterSigningCertFile ? givenCA(o.clusterSigningCertFile, o.clusterSigningKeyFile!) : undefined;
  const serving = (ca: KeyPairPEM) => issueCertificate(ca, { commonName: 'kube-apiserver', hosts: o.hosts, usage: 'server', validityDays: 365, now });
  const admin = (ca: KeyPairPEM) => issueCertificate(ca, { commonName: ADMIN_USER, organizations: [GROUP_MASTERS], usage: 'client', validityDays: 365, now });

  let ca: KeyPairPEM;
  let servingPair: KeyPairPEM | undefined;
  let adminPair: KeyPairPEM;
  if (o.certDir) {
    mkdirSync(o.certDir, { recursive: true, mode: 0o700 });
    const dir = o.certDir;
    ca =
      signing ??
      (await onDisk(
        dir,
        'ca',
        () => createCA('specserver-ca', 3650, now),
        (p) => {
          try {
            const c = new X509Certificate(p.certPEM);
            return c.ca && Date.parse(c.validTo) - RENEW_BEFORE_MS > now;
          } catch {
            return false;
          }
        },
        notes,
      ));
    const caCert = new X509Certificate(ca.certPEM);
    if (!o.tlsCertFile)
      servingPair = await onDisk(
        dir,
        'apiserver',
        () => serving(ca),
        (p) => stillGood(p.certPEM, o.hosts, caCert, now),
        notes,
      );
    adminPair = await onDisk(
      dir,
      'admin',
      () => admin(ca),
      (p) => stillGood(p.certPEM, [], caCert, now),
      notes,
    );
  } else {
    memoryCA ??= createCA('specserver-ca', 3650, now);
    ca = signing ?? (await memoryCA);
    if (!o.tlsCertFile) {
      const key = `${ca.certPEM}|${[...o.hosts].sort().join(',')}`;
      let p = memoryServing.get(key);
      if (!p) {
        p = serving(ca);
        memoryServing.set(key, p);
      }
      servingPair = await p;
    }
    let a = memoryAdmin.get(ca.certPEM);
    if (!a) {
      a = admin(ca);
      memoryAdmin.set(ca.certPEM, a);
    }
    adminPair = await a;
  }

  if (o.tlsCertFile) {
    servingPair = { certPEM: readFile(o.tlsCertFile, '--tls-cert-file'), keyPEM: readFile(o.tlsPrivateKeyFile!, '--tls-private-key-file') };
    try {
      parseCABundle(servingPair.certPEM, o.tlsCertFile);
      createKey(servingPair.keyPEM);
    } catch (err) {
      throw new PKIError(`cannot load the serving certificate: ${(err as Error).message}`);
    }
    if (!matchesKey(servingPair)) throw new PKIError(`--tls-private-key-file ${o.tlsPrivateKeyFile} is not the key of --tls-cert-file ${o.tlsCertFile}`);
  }

  let clientCAPEM = ca.certPEM;
  if (o.clientCAFile) {
    clientCAPEM = readFile(o.clientCAFile, '--client-ca-file');
  }
  let clientCAs: X509Certificate[];
  try {
    clientCAs = parseCABundle(clientCAPEM, o.clientCAFile ?? 'the server CA');
  } catch (err) {
    throw new PKIError((err as Error).message);
  }
  const adminCert = new X509Certificate(adminPair.certPEM);
  if (!clientCAs.some((c) => adminCert.checkIssued(c) && adminCert.verify(c.publicKey))) {
    notes.push(`--client-ca-file ${o.clientCAFile} does not include the server CA: the admin kubeconfig's client certificate will not be accepted`);
  }
  const servingSigned =
    !o.tlsCertFile ||
    (() => {
      const c = new X509Certificate(servingPair!.certPEM);
      const caCert = new X509Certificate(ca.certPEM);
      return c.checkIssued(caCert) && c.verify(caCert.publicKey);
    })();
  return {
    serving: servingPair!,
    servingCAPEM: servingSigned ? ca.certPEM : undefined,
    clientCAPEM,
    clientCAs,
    ca,
    admin: adminPair,
    notes,
  };
}
