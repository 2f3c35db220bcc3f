// The bootstrap token authenticator (--enable-bootstrap-token-auth): a
// bearer token `<id>.<secret>` matches the Secret kube-system/
// bootstrap-token-<id> when that Secret is of type
// bootstrap.kubernetes.io/token, not being deleted, holds the same id and
// secret (compared in constant time), has not expired and is marked
// usage-bootstrap-authentication=true; the user is system:bootstrap:<id> in
// system:bootstrappers plus the Secret's auth-extra-groups.
//
// As upstream, every failed check means "not recognised" (undefined): the
// chain goes on, and a bearer token nobody recognises is a 401 there. The
// optional log hook gets upstream's reasons, never the token or its secret.

import { timingSafeEqual } from 'node:crypto';
import type { AuthResult, TokenAuthenticator } from '../authenticator.ts';
import { BOOTSTRAP_USER_PREFIX, SECRET_TYPE_BOOTSTRAP_TOKEN } from '../../api/k8s-names.ts';
import { expiration, getData, groupsOf, KEY, meta, parseToken, secretName, TOKEN_SECRET_NAMESPACE, type SecretObject } from './token.ts';

/** Reads Secrets (an ObjectReader of the service-account module fits). */
export interface SecretReader {
  get(resource: 'secrets', namespace: string, name: string): Promise<SecretObject | undefined>;
}

export interface BootstrapTokenAuthenticatorOptions {
  reader: SecretReader;
  /** Unix milliseconds. */
  now?: () => number;
  log?: (message: string) => void;
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class BootstrapTokenAuthenticator implements TokenAuthenticator {
  private readonly reader: SecretReader;
  private readonly now: () => number;
  private readonly log: (message: string) => void;

  constructor(opts: BootstrapTokenAuthenticatorOptions) {
    this.reader = opts.reader;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (() => {});
  }

  async authenticateToken(token: string, _audiences: string[]): Promise<AuthResult | undefined> {
    const parsed = parseToken(token);
    if (!parsed) return undefined;
    const name = secretName(parsed.id);
    const secret = await this.reader.get('secrets', TOKEN_SECRET_NAMESPACE, name);
    if (!secret) {
      this.log(`No secret of name ${name} to match bootstrap bearer token`);
      return undefined;
    }
    const reject = (why: string): undefined => {
      this.log(`Bootstrap secret ${TOKEN_SECRET_NAMESPACE}/${name} matching bearer token ${why}`);
      return undefined;
    };
    if (meta(secret).deletionTimestamp) return reject('is deleted and awaiting removal');
    if (secret.type !== SECRET_TYPE_BOOTSTRAP_TOKEN || !secret.data || typeof secret.data !== 'object') return reject(`has invalid type, expected ${SECRET_TYPE_BOOTSTRAP_TOKEN}.`);
    if (!sameString(getData(secret, KEY.tokenSecret), parsed.secret)) return reject(`has invalid value for key ${KEY.tokenSecret}.`);
    if (getData(secret, KEY.tokenID) !== parsed.id) return reject(`has invalid value for key ${KEY.tokenID}.`);
    if (expiration(secret, this.now()).expired) return reject('has expired.');
    if (getData(secret, KEY.usageAuthentication) !== 'true') return reject(`not marked ${KEY.usageAuthentication}=true.`);
    let groups: string[];
    try {
      groups = groupsOf(secret);
    } catch (e) {
      return reject(`has invalid value for key ${KEY.extraGroups}: ${(e as Error).message}.`);
    }
    return { user: { name: BOOTSTRAP_USER_PREFIX + parsed.id, groups } };
  }
}
