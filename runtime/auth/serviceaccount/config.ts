// Resolves the service-account flags into the keys and issuers the
// issuer, authenticator and discovery documents use, as kube-apiserver
// reads --service-account-signing-key-file, --service-account-key-file,
// --service-account-issuer (repeatable; the first signs) and
// --api-audiences (defaulting to the issuers). One convenience over
// kube-apiserver, which requires the flags: with no key flags the server's
// own pair is generated on first start under <data-dir>/pki/ (sa.key,
// sa.pub, as kubeadm lays them out) and read back later, or kept in memory
// for an in-memory server.

import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { ensureKeyPairFiles, loadSigningKeyFile, loadVerificationKeyFiles, signingKey, type SigningKey, type VerificationKey } from './keys.ts';

/** The issuer kubeadm configures, used when --service-account-issuer is not given. */
export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface ServiceAccountFlags {
  /** --service-account-signing-key-file */
  signingKeyFile?: string;
  /** --service-account-key-file (repeatable) */
  keyFiles?: string[];
  /** --service-account-issuer (repeatable) */
  issuers?: string[];
  /** --api-audiences */
  apiAudiences?: string[];
  /** Where the generated pair lives (<data-dir>/pki); undefined keeps it in memory. */
  pkiDir?: string;
  /** Key type of a generated pair: RSA-2048 (kubeadm's choice, the default) or ECDSA P-256 (fast, for tests). */
  generate?: 'rsa' | 'ecdsa';
}

export interface ServiceAccountConfig {
  signingKey: SigningKey;
  verificationKeys: VerificationKey[];
  /** The issuer of new tokens (the first of `issuers`). */
  issuer: string;
  /** Every accepted issuer. */
  issuers: string[];
  apiAudiences: string[];
  /** Where the signing key came from, for the start-up log. */
  source: 'flags' | 'generated' | 'read-back' | 'memory';
}

function generator(kind: 'rsa' | 'ecdsa'): () => KeyObject {
  return kind === 'ecdsa' ? () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey : () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

/** Throws with a message naming the flag or file at fault. */
export function resolveServiceAccountConfig(flags: ServiceAccountFlags): ServiceAccountConfig {
  const issuers = (flags.issuers ?? []).filter((i) => i !== '');
  if (issuers.length === 0) issuers.push(DEFAULT_ISSUER);
  for (const iss of issuers) {
    if (iss.includes(':') && !URL.canParse(iss)) throw new Error(`service-account-issuer contained a ':' but was not a valid URL: ${iss}`);
  }
  const apiAudiences = flags.apiAudiences && flags.apiAudiences.length > 0 ? [...flags.apiAudiences] : [...issuers];
  const keyFiles = flags.keyFiles ?? [];
  const gen = generator(flags.generate ?? 'rsa');

  let key: SigningKey;
  let source: ServiceAccountConfig['source'];
  if (flags.signingKeyFile) {
    key = loadSigningKeyFile(flags.signingKeyFile);
    source = 'flags';
  } else if (keyFiles.length > 0) {
    throw new Error('--service-account-signing-key-file and --service-account-issuer are required flags');
  } else if (flags.pkiDir) {
    const keyPath = join(flags.pkiDir, 'sa.key');
    let generated = false;
    key = ensureKeyPairFiles(keyPath, join(flags.pkiDir, 'sa.pub'), () => {
      generated = true;
      return gen();
    });
    source = generated ? 'generated' : 'read-back';
  } else {
    key = signingKey(gen());
    source = 'memory';
  }

  const verificationKeys = keyFiles.length > 0 ? loadVerificationKeyFiles(keyFiles) : [{ publicKey: key.publicKey, keyId: key.keyId, alg: key.alg }];
  if (!verificationKeys.some((k) => k.keyId === key.keyId)) {
    throw new Error('--service-account-key-file does not contain the public key of --service-account-signing-key-file: tokens the server issues would not verify');
  }
  return { signingKey: key, verificationKeys, issuer: issuers[0], issuers, apiAudiences, source };
}
