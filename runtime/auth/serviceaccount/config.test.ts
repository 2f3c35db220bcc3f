// Resolving the service-account flags: issuers and API audiences defaults,
// the generated pair (first start, read back later, in memory), key files
// from the flags, and refusals that name the flag or file.

import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ISSUER, resolveServiceAccountConfig } from './config.ts';

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'sa-config-'));
}

function ecPair(dir: string, name: string): { key: string; pub: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const key = join(dir, `${name}.key`);
  const pub = join(dir, `${name}.pub`);
  writeFileSync(key, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }));
  return { key, pub };
}

describe('resolveServiceAccountConfig', () => {
  it("defaults: kubeadm's issuer, audiences = issuers, an in-memory key", () => {
    const c = resolveServiceAccountConfig({ generate: 'ecdsa' });
    expect(c).toMatchObject({ issuer: DEFAULT_ISSUER, issuers: [DEFAULT_ISSUER], apiAudiences: [DEFAULT_ISSUER], source: 'memory' });
    expect(c.verificationKeys.map((k) => k.keyId)).toEqual([c.signingKey.keyId]);
    expect(c.signingKey.alg).toBe('ES256');
  });
  it('the first issuer signs, all are accepted; --api-audiences wins over the default', () => {
    const c = resolveServiceAccountConfig({ issuers: ['https://new', 'https://old'], apiAudiences: ['api'], generate: 'ecdsa' });
    expect(c).toMatchObject({ issuer: 'https://new', issuers: ['https://new', 'https://old'], apiAudiences: ['api'] });
  });
  it('generates the pair under the pki dir on first start and reads it back later', () => {
    const dir = join(tmp(), 'pki');
    const first = resolveServiceAccountConfig({ pkiDir: dir, generate: 'ecdsa' });
    expect(first.source).toBe('generated');
    expect(existsSync(join(dir, 'sa.key')) && existsSync(join(dir, 'sa.pub'))).toBe(true);
    const again = resolveServiceAccountConfig({ pkiDir: dir, generate: 'ecdsa' });
    expect(again.source).toBe('read-back');
    expect(again.signingKey.keyId).toBe(first.signingKey.keyId);
  });
  it('uses the key flags: several verification files (rotation), the signing key among them', () => {
    const dir = tmp();
    const a = ecPair(dir, 'a');
    const b = ecPair(dir, 'b');
    const c = resolveServiceAccountConfig({ signingKeyFile: a.key, keyFiles: [b.pub, a.pub] });
    expect(c.source).toBe('flags');
    expect(c.verificationKeys).toHaveLength(2);
    expect(c.verificationKeys[1].keyId).toBe(c.signingKey.keyId);
  });
  it('a signing key alone also verifies its own tokens', () => {
    const dir = tmp();
    const a = ecPair(dir, 'a');
    const c = resolveServiceAccountConfig({ signingKeyFile: a.key });
    expect(c.verificationKeys.map((k) => k.keyId)).toEqual([c.signingKey.keyId]);
  });
  it.each<[string, (dir: string) => Parameters<typeof resolveServiceAccountConfig>[0], string]>([
    ['verification keys without a signing key', (d) => ({ keyFiles: [ecPair(d, 'a').pub] }), '--service-account-signing-key-file and --service-account-issuer are required flags'],
    [
      'signing key missing from the verification keys',
      (d) => ({ signingKeyFile: ecPair(d, 'a').key, keyFiles: [ecPair(d, 'b').pub] }),
      '--service-account-key-file does not contain the public key of --service-account-signing-key-file',
    ],
    [
      'malformed signing key file',
      (d) => {
        writeFileSync(join(d, 'bad.key'), 'nope');
        return { signingKeyFile: join(d, 'bad.key') };
      },
      'failed to parse service-account-issuer-key-file: error reading private key file',
    ],
    [
      'malformed key file',
      (d) => {
        writeFileSync(join(d, 'bad.pub'), '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n');
        return { signingKeyFile: ecPair(d, 'a').key, keyFiles: [join(d, 'bad.pub')] };
      },
      'bad.pub: data does not contain any valid RSA or ECDSA public keys',
    ],
    ['issuer with a colon that is no URL', () => ({ issuers: ['https://a b:x'], generate: 'ecdsa' }), "service-account-issuer contained a ':' but was not a valid URL: https://a b:x"],
  ])('refuses %s', (_n, flags, msg) => {
    expect(() => resolveServiceAccountConfig(flags(tmp()))).toThrow(msg);
  });
});
