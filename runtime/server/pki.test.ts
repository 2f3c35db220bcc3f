// The server's certificates on disk: written on first start, reused later,
// the serving certificate issued anew when the names it must cover change,
// and clear errors for files that cannot be used.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCA, issueCertificate } from '../auth/pki/certs.ts';
import { PKIError, preparePKI } from './pki.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pki-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hosts = ['localhost', '127.0.0.1', '::1', 'kubernetes.default.svc'];

describe('preparePKI on disk', () => {
  it('writes the CA, serving and admin certificates once (keys 0600) and reuses them', async () => {
    const first = await preparePKI({ certDir: dir, hosts });
    for (const f of ['ca.key', 'apiserver.key', 'admin.key']) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    const serving = new X509Certificate(first.serving.certPEM);
    expect(serving.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:kubernetes.default.svc');
    expect(serving.checkIssued(new X509Certificate(first.servingCAPEM!))).toBe(true);
    const admin = new X509Certificate(first.admin.certPEM);
    expect(admin.subject).toBe('O=system:masters\nCN=kubernetes-admin');
    const again = await preparePKI({ certDir: dir, hosts });
    expect(again.serving.certPEM).toBe(first.serving.certPEM);
    expect(again.admin.certPEM).toBe(first.admin.certPEM);
    expect(again.notes).toEqual([]);
  });

  it('issues a new serving certificate, from the same CA, when a name is added', async () => {
    const first = await preparePKI({ certDir: dir, hosts });
    const more = await preparePKI({ certDir: dir, hosts: [...hosts, '192.0.2.7'] });
    expect(more.serving.certPEM).not.toBe(first.serving.certPEM);
    expect(more.servingCAPEM).toBe(first.servingCAPEM);
    expect(new X509Certificate(more.serving.certPEM).checkIP('192.0.2.7')).toBe('192.0.2.7');
    expect(more.notes.join()).toMatch(/issued a new apiserver certificate/);
  });

  it('replaces a damaged certificate file', async () => {
    await preparePKI({ certDir: dir, hosts });
    writeFileSync(join(dir, 'apiserver.crt'), 'garbage');
    const p = await preparePKI({ certDir: dir, hosts });
    expect(() => new X509Certificate(p.serving.certPEM)).not.toThrow();
  });

  it('uses --tls-cert-file/--tls-private-key-file and --client-ca-file, and says what does not fit', async () => {
    const other = await createCA('corp-ca');
    const srv = await issueCertificate(other, { commonName: 'api.corp', hosts: ['api.corp'], usage: 'server', validityDays: 30 });
    writeFileSync(join(dir, 'tls.crt'), srv.certPEM);
    writeFileSync(join(dir, 'tls.key'), srv.keyPEM);
    writeFileSync(join(dir, 'clients.crt'), other.certPEM);
    const p = await preparePKI({ certDir: join(dir, 'pki'), hosts, tlsCertFile: join(dir, 'tls.crt'), tlsPrivateKeyFile: join(dir, 'tls.key'), clientCAFile: join(dir, 'clients.crt') });
    expect(p.serving.certPEM).toBe(srv.certPEM);
    expect(p.servingCAPEM).toBeUndefined();
    expect(p.clientCAs).toHaveLength(1);
    expect(p.notes.join()).toMatch(/does not include the server CA/);
    expect(readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8')).toContain('BEGIN CERTIFICATE');
  });

  const errorRows: [string, (d: string) => Parameters<typeof preparePKI>[0], RegExp][] = [
    ['a cert without its key', (d) => ({ certDir: d, hosts, tlsCertFile: join(d, 'x.crt') }), /must be given together/],
    ['a missing cert file', (d) => ({ certDir: d, hosts, tlsCertFile: join(d, 'none.crt'), tlsPrivateKeyFile: join(d, 'none.key') }), /cannot read --tls-cert-file .*none\.crt: ENOENT/],
    [
      'a client CA file without certificates',
      (d) => {
        writeFileSync(join(d, 'ca-bad.crt'), 'hello');
        return { certDir: d, hosts, clientCAFile: join(d, 'ca-bad.crt') };
      },
      /ca-bad\.crt: no PEM certificate found/,
    ],
  ];
  it.each(errorRows)('refuses %s', async (_name, opts, msg) => {
    const p = preparePKI(opts(dir));
    await expect(p).rejects.toThrow(PKIError);
    await expect(preparePKI(opts(dir))).rejects.toThrow(msg);
  });

  it("refuses a key that is not the certificate's", async () => {
    const ca = await createCA('x');
    const a = await issueCertificate(ca, { commonName: 'a', hosts: ['a'], usage: 'server', validityDays: 1 });
    const b = await issueCertificate(ca, { commonName: 'b', hosts: ['b'], usage: 'server', validityDays: 1 });
    writeFileSync(join(dir, 'a.crt'), a.certPEM);
    writeFileSync(join(dir, 'b.key'), b.keyPEM);
    await expect(preparePKI({ certDir: join(dir, 'p'), hosts, tlsCertFile: join(dir, 'a.crt'), tlsPrivateKeyFile: join(dir, 'b.key') })).rejects.toThrow(/is not the key of --tls-cert-file/);
  });
});

describe('preparePKI in memory', () => {
  it('makes one CA per process and reuses certificates for the same names', async () => {
    const a = await preparePKI({ hosts });
    const b = await preparePKI({ hosts: [...hosts].reverse() });
    const c = await preparePKI({ hosts: ['localhost'] });
    expect(b.serving).toBe(a.serving);
    expect(c.serving).not.toBe(a.serving);
    expect(c.servingCAPEM).toBe(a.servingCAPEM);
  });
});

describe('preparePKI with --cluster-signing-cert-file/-key-file', () => {
  it('two replicas given one CA: each its own serving certificate, serving and admin certificates all issued by it; no ca.* written', async () => {
    const ca = await createCA('shared-ca');
    writeFileSync(join(dir, 'shared.crt'), ca.certPEM);
    writeFileSync(join(dir, 'shared.key'), ca.keyPEM);
    const given = { clusterSigningCertFile: join(dir, 'shared.crt'), clusterSigningKeyFile: join(dir, 'shared.key') };
    const one = await preparePKI({ certDir: join(dir, 'one'), hosts: [...hosts, '127.0.0.2'], ...given });
    const two = await preparePKI({ hosts: [...hosts, '127.0.0.3'], ...given });
    const caCert = new X509Certificate(ca.certPEM);
    expect(one.servingCAPEM).toBe(ca.certPEM);
    expect(two.servingCAPEM).toBe(ca.certPEM);
    expect(one.serving.certPEM).not.toBe(two.serving.certPEM);
    for (const p of [one.serving, two.serving, one.admin, two.admin]) expect(new X509Certificate(p.certPEM).checkIssued(caCert)).toBe(true);
    expect(one.clientCAPEM).toBe(ca.certPEM);
    expect(() => statSync(join(dir, 'one', 'ca.crt'))).toThrow();
    // the CSR signer signs with it too
    expect(one.ca).toEqual(ca);
  });

  it.each([
    ['only the certificate', (d: string) => ({ clusterSigningCertFile: join(d, 'shared.crt') }), '--cluster-signing-cert-file and --cluster-signing-key-file must be given together'],
    ['a certificate that is no CA', (d: string) => ({ clusterSigningCertFile: join(d, 'leaf.crt'), clusterSigningKeyFile: join(d, 'leaf.key') }), 'is not a CA certificate'],
    ['a key of another certificate', (d: string) => ({ clusterSigningCertFile: join(d, 'shared.crt'), clusterSigningKeyFile: join(d, 'leaf.key') }), 'is not the key of --cluster-signing-cert-file'],
    ['a missing file', (d: string) => ({ clusterSigningCertFile: join(d, 'nope.crt'), clusterSigningKeyFile: join(d, 'shared.key') }), 'cannot read --cluster-signing-cert-file'],
  ])('refuses %s', async (_n, flags, message) => {
    const ca = await createCA('shared-ca');
    const leaf = await issueCertificate(ca, { commonName: 'leaf', hosts: ['localhost'], usage: 'server', validityDays: 30 });
    writeFileSync(join(dir, 'shared.crt'), ca.certPEM);
    writeFileSync(join(dir, 'shared.key'), ca.keyPEM);
    writeFileSync(join(dir, 'leaf.crt'), leaf.certPEM);
    writeFileSync(join(dir, 'leaf.key'), leaf.keyPEM);
    const err = await preparePKI({ hosts, ...flags(dir) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PKIError);
    expect((err as Error).message).toContain(message);
  });
});
