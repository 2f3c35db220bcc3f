// Service-account key material: the signing key (generated on first start
// and read back on later ones, or kube-apiserver's
// --service-account-signing-key-file) and the verification keys
// (--service-account-key-file, several files, each with one or more PEM
// blocks), plus the key id kube-apiserver derives from a public key and the
// JWS algorithm a key signs with. Parsing is node:crypto's; this file only
// splits PEM text into blocks and picks what each block is.

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

/** A public key that verifies tokens, with its key id and algorithm. */
export interface VerificationKey {
  publicKey: KeyObject;
  keyId: string;
  alg: SigningAlgorithm;
}

/** The private key that signs tokens (and its public half). */
export interface SigningKey extends VerificationKey {
  privateKey: KeyObject;
}

/** Upstream's key id: base64url (no padding) of the SHA-256 of the public key's PKIX DER. */
export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

const CURVE_ALG: Record<string, SigningAlgorithm> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** RS256 for RSA keys, ES256/384/512 by curve for ECDSA keys; anything else is refused. */
export function algorithmOf(key: KeyObject): SigningAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const alg = CURVE_ALG[key.asymmetricKeyDetails?.namedCurve ?? ''];
    if (alg) return alg;
    throw new Error('unknown private key curve, must be 256, 384, or 521');
  }
  throw new Error(`unknown key type ${key.asymmetricKeyType ?? 'unknown'}, must be RSA or ECDSA`);
}

export function verificationKey(publicKey: KeyObject): VerificationKey {
  return { publicKey, keyId: keyIdOf(publicKey), alg: algorithmOf(publicKey) };
}

export function signingKey(privateKey: KeyObject): SigningKey {
  const publicKey = createPublicKey(privateKey);
  return { privateKey, ...verificationKey(publicKey) };
}

interface PemBlock {
  type: string;
  text: string;
}

/** The PEM blocks of a text, in order (text outside blocks is ignored, as Go's pem.Decode does). */
export function pemBlocks(text: string): PemBlock[] {
  const out: PemBlock[] = [];
  const re = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;
  for (const m of text.matchAll(re)) out.push({ type: m[1], text: m[0] });
  return out;
}

const PRIVATE_TYPES = new Set(['RSA PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY']);
const PUBLIC_TYPES = new Set(['PUBLIC KEY', 'RSA PUBLIC KEY']);

function keyOfBlock(block: PemBlock): { key: KeyObject; isPrivate: boolean } | undefined {
  try {
    if (PRIVATE_TYPES.has(block.type)) return { key: createPrivateKey(block.text), isPrivate: true };
    if (PUBLIC_TYPES.has(block.type)) return { key: createPublicKey(block.text), isPrivate: false };
    if (block.type === 'CERTIFICATE') return { key: new X509Certificate(block.text).publicKey, isPrivate: false };
  } catch {
    return undefined;
  }
  return undefined;
}

function usable(key: KeyObject): boolean {
  try {
    algorithmOf(key);
    return true;
  } catch {
    return false;
  }
}

/** The first RSA or ECDSA private key in PEM text (upstream's keyutil.ParsePrivateKeyPEM). */
export function parsePrivateKeyPem(text: string): SigningKey {
  for (const block of pemBlocks(text)) {
    const k = keyOfBlock(block);
    if (k?.isPrivate && usable(k.key)) return signingKey(k.key);
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

/**
 * Every RSA or ECDSA public key in PEM text: public keys, certificates, and
 * the public halves of private keys (upstream's keyutil.ParsePublicKeysPEM).
 */
export function parsePublicKeysPem(text: string): VerificationKey[] {
  const out: VerificationKey[] = [];
  for (const block of pemBlocks(text)) {
    const k = keyOfBlock(block);
    if (!k) continue;
    const pub = k.isPrivate ? createPublicKey(k.key) : k.key;
    if (usable(pub)) out.push(verificationKey(pub));
  }
  if (out.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return out;
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`error reading ${what} file ${path}: ${(e as Error).message}`, { cause: e });
  }
}

/** --service-account-signing-key-file. Errors name the file and the flag. */
export function loadSigningKeyFile(path: string): SigningKey {
  try {
    const text = readText(path, 'private key');
    try {
      return parsePrivateKeyPem(text);
    } catch (e) {
      throw new Error(`error reading private key file ${path}: ${(e as Error).message}`, { cause: e });
    }
  } catch (e) {
    throw new Error(`failed to parse service-account-issuer-key-file: ${(e as Error).message}`, { cause: e });
  }
}

/** --service-account-key-file (repeatable): all keys of all files, in order. Errors name the file. */
export function loadVerificationKeyFiles(paths: string[]): VerificationKey[] {
  const out: VerificationKey[] = [];
  for (const path of paths) {
    const text = readText(path, 'public key');
    try {
      out.push(...parsePublicKeysPem(text));
    } catch (e) {
      throw new Error(`error reading public key file ${path}: ${(e as Error).message}`, { cause: e });
    }
  }
  return out;
}

/**
 * The server's own key pair: read `keyPath` (PKCS#1 RSA, as kubeadm's
 * sa.key) when it exists, otherwise generate an RSA-2048 pair and write
 * `keyPath` (mode 0600) and `pubPath` (PKIX public key, mode 0644). The
 * public file is rewritten when missing so the pair stays consistent.
 */
export function ensureKeyPairFiles(keyPath: string, pubPath: string, generate: () => KeyObject = generateRsa2048): SigningKey {
  if (existsSync(keyPath)) {
    const key = loadSigningKeyFile(keyPath);
    if (!existsSync(pubPath)) writePublic(pubPath, key.publicKey);
    return key;
  }
  const privateKey = generate();
  const key = signingKey(privateKey);
  mkdirSync(dirname(keyPath), { recursive: true });
  const pem = privateKey.asymmetricKeyType === 'rsa' ? privateKey.export({ type: 'pkcs1', format: 'pem' }) : privateKey.export({ type: 'sec1', format: 'pem' });
  writeFileSync(keyPath, pem, { mode: 0o600 });
  writePublic(pubPath, key.publicKey);
  return key;
}

function writePublic(path: string, publicKey: KeyObject): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
}

function generateRsa2048(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}
