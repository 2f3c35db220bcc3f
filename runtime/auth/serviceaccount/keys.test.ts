// Key material: upstream's key ids for known keys, the algorithm per key
// type, PEM files with several blocks of several kinds, first-start key
// generation and read-back, and errors that name the file.

import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { algorithmOf, ensureKeyPairFiles, keyIdOf, loadSigningKeyFile, loadVerificationKeyFiles, parsePrivateKeyPem, parsePublicKeysPem, pemBlocks } from './keys.ts';
import { EC_PRIVATE, RSA_PUBLIC } from './test-keys.ts';

// Test keys and the key ids upstream's own tests expect for them (pkg/serviceaccount/jwt_test.go).
const RSA_KID = 'JHJehTTTZlsspKHT-GaJxK7Kd1NQgZJu3fyK6K_QDYU';
const EC_KID = 'SoABiieYuNx4UdqYvZRVeuC6SihxgLrhLy9peHMHpTc';

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'sa-keys-'));
}

describe('key ids and algorithms', () => {
  it('derives the key id upstream derives (RSA public key)', () => {
    const [k] = parsePublicKeysPem(RSA_PUBLIC);
    expect(k.keyId).toBe(RSA_KID);
    expect(k.alg).toBe('RS256');
  });
  it('derives the key id upstream derives (ECDSA private key, SEC1 PEM)', () => {
    const k = parsePrivateKeyPem(EC_PRIVATE);
    expect(k.keyId).toBe(EC_KID);
    expect(keyIdOf(k.publicKey)).toBe(EC_KID);
    expect(k.alg).toBe('ES256');
  });
  it.each<[string, () => ReturnType<typeof generateKeyPairSync>['publicKey'], string]>([
    ['P-384', () => generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey, 'ES384'],
    ['P-521', () => generateKeyPairSync('ec', { namedCurve: 'P-521' }).publicKey, 'ES512'],
  ])('signs %s keys with %s', (_n, make, alg) => {
    expect(algorithmOf(make())).toBe(alg);
  });
  it.each<[string, () => ReturnType<typeof generateKeyPairSync>['publicKey'], string]>([
    ['Ed25519', () => generateKeyPairSync('ed25519').publicKey, 'unknown key type ed25519, must be RSA or ECDSA'],
    ['secp256k1', () => generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey, 'unknown private key curve, must be 256, 384, or 521'],
  ])('refuses %s keys', (_n, make, msg) => {
    expect(() => algorithmOf(make())).toThrow(msg);
  });
});

describe('PEM parsing', () => {
  it('splits blocks and ignores text between them', () => {
    expect(pemBlocks(`junk\n${RSA_PUBLIC}more junk\n${EC_PRIVATE}`).map((b) => b.type)).toEqual(['PUBLIC KEY', 'EC PRIVATE KEY']);
  });
  it('reads every public key of a file: public keys, private keys and certificates', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pkcs8 = ec.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const keys = parsePublicKeysPem(`${RSA_PUBLIC}${EC_PRIVATE}${pkcs8}`);
    expect(keys.map((k) => k.keyId)).toEqual([RSA_KID, EC_KID, keyIdOf(ec.publicKey)]);
  });
  it('skips blocks of other kinds and unusable keys', () => {
    const ed = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const keys = parsePublicKeysPem(`-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n${ed}${RSA_PUBLIC}`);
    expect(keys.map((k) => k.keyId)).toEqual([RSA_KID]);
  });
  it.each<[string, string, string]>([
    ['empty', '', 'data does not contain any valid RSA or ECDSA public keys'],
    ['not PEM', 'hello', 'data does not contain any valid RSA or ECDSA public keys'],
    ['broken base64', '-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----\n', 'data does not contain any valid RSA or ECDSA public keys'],
    ['truncated block', RSA_PUBLIC.slice(0, 200), 'data does not contain any valid RSA or ECDSA public keys'],
  ])('refuses public key text: %s', (_n, text, msg) => {
    expect(() => parsePublicKeysPem(text)).toThrow(msg);
  });
  it.each<[string, string]>([
    ['a public key only', RSA_PUBLIC],
    ['garbage', 'xyz'],
    ['a corrupted private key', EC_PRIVATE.replace('MHcCAQEE', 'MHcCAQXX')],
  ])('refuses private key text: %s', (_n, text) => {
    expect(() => parsePrivateKeyPem(text)).toThrow('data does not contain a valid RSA or ECDSA private key');
  });
});

describe('key files', () => {
  it('names the file in errors for --service-account-key-file', () => {
    const dir = tmp();
    const good = join(dir, 'good.pub');
    const bad = join(dir, 'bad.pub');
    writeFileSync(good, RSA_PUBLIC);
    writeFileSync(bad, 'not a key');
    expect(loadVerificationKeyFiles([good]).map((k) => k.keyId)).toEqual([RSA_KID]);
    expect(() => loadVerificationKeyFiles([good, bad])).toThrow(`error reading public key file ${bad}: data does not contain any valid RSA or ECDSA public keys`);
    expect(() => loadVerificationKeyFiles([join(dir, 'missing.pub')])).toThrow(`error reading public key file ${join(dir, 'missing.pub')}`);
  });
  it('names the file and the flag in errors for --service-account-signing-key-file', () => {
    const dir = tmp();
    const bad = join(dir, 'sa.key');
    writeFileSync(bad, RSA_PUBLIC);
    expect(() => loadSigningKeyFile(bad)).toThrow(`failed to parse service-account-issuer-key-file: error reading private key file ${bad}: data does not contain a valid RSA or ECDSA private key`);
    expect(() => loadSigningKeyFile(join(dir, 'nope.key'))).toThrow(`failed to parse service-account-issuer-key-file: error reading private key file ${join(dir, 'nope.key')}`);
  });
  it('generates an RSA pair on first start (PKCS#1 key, 0600) and reads the same key back later', () => {
    const dir = tmp();
    const keyPath = join(dir, 'pki', 'sa.key');
    const pubPath = join(dir, 'pki', 'sa.pub');
    const first = ensureKeyPairFiles(keyPath, pubPath);
    expect(first.alg).toBe('RS256');
    expect(first.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(readFileSync(keyPath, 'utf8')).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    expect(readFileSync(pubPath, 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    const again = ensureKeyPairFiles(keyPath, pubPath);
    expect(again.keyId).toBe(first.keyId);
    expect(loadVerificationKeyFiles([pubPath])[0].keyId).toBe(first.keyId);
  });
  it('keeps an existing key and rewrites a missing public file from it', () => {
    const dir = tmp();
    const keyPath = join(dir, 'sa.key');
    const pubPath = join(dir, 'sa.pub');
    writeFileSync(keyPath, EC_PRIVATE);
    const k = ensureKeyPairFiles(keyPath, pubPath, () => {
      throw new Error('must not generate');
    });
    expect(k.keyId).toBe(EC_KID);
    expect(loadVerificationKeyFiles([pubPath])[0].keyId).toBe(EC_KID);
  });
  it('refuses a corrupt existing key instead of replacing it', () => {
    const dir = tmp();
    const keyPath = join(dir, 'sa.key');
    writeFileSync(keyPath, 'garbage');
    expect(() => ensureKeyPairFiles(keyPath, join(dir, 'sa.pub'))).toThrow(`error reading private key file ${keyPath}`);
    expect(readFileSync(keyPath, 'utf8')).toBe('garbage');
  });
});
