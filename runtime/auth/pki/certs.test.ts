// Certificates as TLS peers and openssl read them: a CA, serving and client
// certificates with their names, usages and key identifiers; certificates
// issued by a CA made elsewhere (its subject and key identifier as it wrote them).
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCA, issueCertificate, type IssueOptions } from './certs.ts';

const now = Date.UTC(2026, 0, 2, 3, 4, 5);

/** openssl's text form of a certificate, when openssl is installed. */
function opensslText(pem: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'certs-'));
  try {
    writeFileSync(join(dir, 'c.pem'), pem);
    return execFileSync('openssl', ['x509', '-in', join(dir, 'c.pem'), '-noout', '-text'], { encoding: 'utf8' });
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('createCA', () => {
  it('is a self-signed CA of P-256 for the given days, its key in SEC 1 PEM', async () => {
    const ca = await createCA('test-ca', 10, now);
    const c = new X509Certificate(ca.certPEM);
    expect(c.ca).toBe(true);
    expect(c.subject).toBe('CN=test-ca');
    expect(c.issuer).toBe('CN=test-ca');
    expect(c.checkIssued(c) && c.verify(c.publicKey)).toBe(true);
    expect(c.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(new Date(c.validFrom).getTime()).toBe(now - 60_000);
    expect(new Date(c.validTo).getTime()).toBe(now + 10 * 86_400_000);
    expect(c.serialNumber).toMatch(/^[0-7]?[0-9A-F]+$/);
    expect(ca.keyPEM).toMatch(/^-----BEGIN EC PRIVATE KEY-----\n/);
    expect(c.checkPrivateKey(createPrivateKey(ca.keyPEM))).toBe(true);
    const text = opensslText(ca.certPEM);
    if (text) {
      expect(text).toMatch(/Basic Constraints: critical\s+CA:TRUE/);
      expect(text).toMatch(/Key Usage: critical\s+Digital Signature, Certificate Sign, CRL Sign/);
      expect(text).toContain('Subject Key Identifier');
    }
  });
});

describe('issueCertificate', () => {
  it.each<[string, Omit<IssueOptions, 'validityDays'>, string, string[]]>([
    [
      'server',
      { commonName: 'kube-apiserver', hosts: ['localhost', '127.0.0.1', '::1', 'kubernetes.default.svc', 'fe80::1:2', '::ffff:1.2.3.4'], usage: 'server' },
      'CN=kube-apiserver',
      ['1.3.6.1.5.5.7.3.1'],
    ],
    ['client', { commonName: 'kubernetes-admin', organizations: ['system:masters', 'dev, ops'], usage: 'client' }, 'O=system:masters\nO=dev\\, ops\nCN=kubernetes-admin', ['1.3.6.1.5.5.7.3.2']],
  ])('a %s certificate: subject, names, usages, signed by the CA', async (_usage, o, subject, eku) => {
    const ca = await createCA('test-ca', 10, now);
    const pair = await issueCertificate(ca, { ...o, validityDays: 5, now });
    const c = new X509Certificate(pair.certPEM);
    const caCert = new X509Certificate(ca.certPEM);
    expect(c.subject).toBe(subject);
    expect(c.ca).toBe(false);
    expect(c.checkIssued(caCert)).toBe(true);
    expect(c.verify(caCert.publicKey)).toBe(true);
    expect(c.keyUsage).toEqual(eku);
    expect(new Date(c.validTo).getTime()).toBe(now + 5 * 86_400_000);
    if (o.hosts) {
      expect(c.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:kubernetes.default.svc, IP Address:FE80:0:0:0:0:0:1:2, IP Address:0:0:0:0:0:FFFF:102:304');
      for (const h of ['localhost', 'kubernetes.default.svc']) expect(c.checkHost(h)).toBe(h);
      expect(c.checkIP('127.0.0.1')).toBe('127.0.0.1');
    } else expect(c.subjectAltName).toBeUndefined();
    const text = opensslText(pair.certPEM);
    if (text) {
      expect(text).toMatch(/Basic Constraints: critical\s+CA:FALSE/);
      expect(text).toMatch(/Key Usage: critical\s+Digital Signature, Key Encipherment/);
      // the authority key identifier is the CA's subject key identifier
      const ski = /Subject Key Identifier:\s+(\S+)/.exec(opensslText(ca.certPEM)!)![1];
      expect(text).toMatch(new RegExp(`Authority Key Identifier:\\s+(keyid:)?${ski}`));
    }
  });

  it("names the CA's subject as its issuer", async () => {
    const ca = await createCA('ca with, comma', 10, now);
    const pair = await issueCertificate(ca, { commonName: 'x', usage: 'client', validityDays: 1, now });
    expect(new X509Certificate(pair.certPEM).issuer).toBe(new X509Certificate(ca.certPEM).subject);
  });

  it('every certificate has its own key and serial number', async () => {
    const ca = await createCA('test-ca', 10, now);
    const [a, b] = await Promise.all([1, 2].map(() => issueCertificate(ca, { commonName: 'x', usage: 'client', validityDays: 1, now })));
    expect(a.keyPEM).not.toBe(b.keyPEM);
    expect(new X509Certificate(a.certPEM).serialNumber).not.toBe(new X509Certificate(b.certPEM).serialNumber);
  });
});
