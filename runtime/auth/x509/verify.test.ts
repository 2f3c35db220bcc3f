// Client-certificate verification and the certificate authenticator, over
// certificates made for each case: good chains (direct and through an
// intermediate the client sends), and each way a certificate can be bad.
import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCA, issueCertificate, type KeyPairPEM } from '../pki/certs.ts';
import type { AuthRequest, PeerCertificate } from '../authenticator.ts';
import { ClientCertAuthenticator, subjectNames } from './authenticator.ts';
import { CABundleError, parseCABundle, verifyChain } from './verify.ts';

const der = (pem: string) => new Uint8Array(new X509Certificate(pem).raw);
const peer = (pair: KeyPairPEM, ...intermediates: KeyPairPEM[]): PeerCertificate => ({ raw: der(pair.certPEM), intermediates: intermediates.map((i) => der(i.certPEM)) });
const request = (certificate?: PeerCertificate): AuthRequest => ({ path: '/', header: () => undefined, headerValues: () => [], headerNames: () => [], certificate });

let ca: KeyPairPEM;
let other: KeyPairPEM;
let roots: X509Certificate[];
beforeAll(async () => {
  [ca, other] = await Promise.all([createCA('test-ca'), createCA('other-ca')]);
  roots = parseCABundle(ca.certPEM, 'test');
});

describe('verifyChain', () => {
  const DAY = 86_400_000;
  it('accepts a client certificate of the CA; a self-signed CA the client sends along is not trusted', async () => {
    const alice = await issueCertificate(ca, { commonName: 'alice', usage: 'client', validityDays: 1 });
    expect(verifyChain(peer(alice), roots).ok).toBe(true);
    const mid = await createCA('mid');
    const leaf = await issueCertificate(mid, { commonName: 'bob', usage: 'client', validityDays: 1 });
    expect(verifyChain(peer(leaf, mid), roots)).toEqual({ ok: false, reason: 'x509: certificate signed by unknown authority' });
    // trusting that CA makes the same chain good
    expect(verifyChain(peer(leaf, mid), [...roots, ...parseCABundle(mid.certPEM, 'mid')]).ok).toBe(true);
  });

  const cases: [string, () => Promise<PeerCertificate>, string, number?][] = [
    ['another CA', async () => peer(await issueCertificate(other, { commonName: 'eve', usage: 'client', validityDays: 1 })), 'x509: certificate signed by unknown authority'],
    ['expired', async () => peer(await issueCertificate(ca, { commonName: 'old', usage: 'client', validityDays: 1, now: Date.now() - 10 * DAY })), 'x509: certificate has expired or is not yet valid'],
    [
      'not yet valid',
      async () => peer(await issueCertificate(ca, { commonName: 'new', usage: 'client', validityDays: 1, now: Date.now() + 10 * DAY })),
      'x509: certificate has expired or is not yet valid',
    ],
    [
      'a serving certificate (no clientAuth usage)',
      async () => peer(await issueCertificate(ca, { commonName: 'srv', usage: 'server', validityDays: 1, hosts: ['localhost'] })),
      'x509: certificate specifies an incompatible key usage',
    ],
    ['the CA itself presented as a client certificate', async () => peer(other), 'x509: certificate signed by unknown authority'],
    ['garbage bytes', async () => ({ raw: new Uint8Array([0x30, 0x03, 0x01, 0x02, 0x03]), intermediates: [] }), 'the client certificate cannot be parsed'],
    ['an empty certificate', async () => ({ raw: new Uint8Array(), intermediates: [] }), 'the client certificate cannot be parsed'],
  ];
  it.each(cases)('refuses %s', async (_name, make, reason) => {
    expect(verifyChain(await make(), roots)).toEqual({ ok: false, reason });
  });
});

describe('parseCABundle', () => {
  it('reads every certificate of a bundle and names the file in errors', () => {
    expect(parseCABundle(ca.certPEM + other.certPEM, 'f')).toHaveLength(2);
    expect(() => parseCABundle('not a pem', '/etc/ca.crt')).toThrow(new CABundleError('/etc/ca.crt: no PEM certificate found'));
    expect(() => parseCABundle('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', '/etc/ca.crt')).toThrow(/\/etc\/ca.crt: certificate 1 cannot be read/);
  });
});

describe('ClientCertAuthenticator', () => {
  it('names the user by CN and the groups by O, odd characters included', async () => {
    const odd = await issueCertificate(ca, { commonName: 'jane, "doe"+x\\y', organizations: ['system:masters', 'a,b', 'ünï'], usage: 'client', validityDays: 1 });
    expect(subjectNames(new X509Certificate(odd.certPEM))).toEqual({ commonName: 'jane, "doe"+x\\y', organizations: ['system:masters', 'a,b', 'ünï'] });
    const r = await new ClientCertAuthenticator(roots).authenticate(request(peer(odd)));
    expect(r?.user).toEqual({ name: 'jane, "doe"+x\\y', groups: ['system:masters', 'a,b', 'ünï'] });
  });

  it('goes on without a certificate, and is a 401 for a bad one (cached per certificate, rechecked after a failure)', async () => {
    const a = new ClientCertAuthenticator(roots);
    expect(await a.authenticate(request())).toBeUndefined();
    const bad = peer(await issueCertificate(other, { commonName: 'eve', usage: 'client', validityDays: 1 }));
    for (let i = 0; i < 2; i++) await expect(a.authenticate(request(bad))).rejects.toMatchObject({ code: 401, reason: 'Unauthorized' });
  });

  it('checks a cached verdict again once the certificate expires', async () => {
    let now = Date.now();
    const a = new ClientCertAuthenticator(roots, () => now);
    const short = peer(await issueCertificate(ca, { commonName: 'brief', usage: 'client', validityDays: 1 }));
    expect((await a.authenticate(request(short)))?.user.name).toBe('brief');
    now += 2 * 86_400_000;
    await expect(a.authenticate(request(short))).rejects.toMatchObject({ code: 401 });
  });
});
