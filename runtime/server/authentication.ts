// Builds the server's authenticator chain from its options, in
// kube-apiserver's order: the front proxy (--requestheader-*), client
// certificates (--client-ca-file), then bearer tokens: the token file
// (--token-auth-file), service-account tokens (--service-account-*; a key
// pair generated under <data-dir>/pki when none is given), bootstrap tokens
// (--enable-bootstrap-token-auth), then the webhook (--authentication-token-webhook-*);
// anonymous access from --anonymous-auth or the AuthenticationConfiguration
// file (--authentication-config). Files are read here, at start, and every
// problem is an AuthenticationSetupError naming the flag or file. Also the
// data of the kube-system/extension-apiserver-authentication ConfigMap.

import type { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RequestAuthenticator, TokenAuthenticator } from '../auth/authenticator.ts';
import { anonymousAllowed, effectiveAnonymous, loadAuthenticationConfiguration } from '../auth/authn-config.ts';
import { AuthenticationChain } from '../auth/chain.ts';
import { FileError } from '../auth/file-error.ts';
import {
  DEFAULT_EXTRA_HEADER_PREFIXES,
  DEFAULT_GROUP_HEADERS,
  DEFAULT_USERNAME_HEADERS,
  extensionApiserverAuthenticationData,
  RequestHeaderAuthenticator,
  validateRequestHeaderOptions,
} from '../auth/request-header.ts';
import { loadTokenFile } from '../auth/token-file.ts';
import { loadWebhookTokenAuthenticator, type WebhookTokenAuthenticator } from '../auth/webhook/authenticator.ts';
import { parseWebhookVersion } from '../auth/webhook/token-review.ts';
import { ClientCertAuthenticator, subjectNames } from '../auth/x509/authenticator.ts';
import { BootstrapTokenAuthenticator } from '../auth/bootstrap/authenticator.ts';
import { ServiceAccountTokenAuthenticator } from '../auth/serviceaccount/authenticator.ts';
import { resolveServiceAccountConfig, type ServiceAccountConfig } from '../auth/serviceaccount/config.ts';
import { TokenIssuer } from '../auth/serviceaccount/issuer.ts';
import type { ObjectReader } from '../auth/serviceaccount/ports.ts';
import { parseCABundle, verifyChain } from '../auth/x509/verify.ts';

export class AuthenticationSetupError extends Error {}

export interface RequestHeaderFlags {
  /** --requestheader-client-ca-file: without it the front proxy is off. */
  clientCAFile?: string;
  allowedNames?: string[];
  usernameHeaders?: string[];
  uidHeaders?: string[];
  groupHeaders?: string[];
  extraHeadersPrefix?: string[];
}

export interface AuthenticationOptions {
  /** Authenticators of the embedder, consulted first. */
  extra?: RequestAuthenticator[];
  /** Trusted client CAs (undefined over plain HTTP) and their PEM. */
  clientCAs?: X509Certificate[];
  clientCAPEM?: string;
  requestHeader?: RequestHeaderFlags;
  tokenAuthFile?: string;
  webhook?: { configFile: string; version?: string; cacheTtlMs?: number };
  /** --anonymous-auth; undefined when not given (default true). */
  anonymousAuth?: boolean;
  /** --authentication-config. */
  authenticationConfig?: string;
  /** --api-audiences (default: the service-account issuers). */
  apiAudiences?: string[];
  serviceAccounts: {
    signingKeyFile?: string;
    keyFiles?: string[];
    issuers?: string[];
    /** Where a generated key pair is kept (<data-dir>/pki); undefined: in memory. */
    pkiDir?: string;
  };
  /** --enable-bootstrap-token-auth */
  bootstrapTokens?: boolean;
  /** Reads Secrets, ServiceAccounts, Pods and Nodes for the token checks. */
  reader: ObjectReader;
  log: (msg: string) => void;
}

export interface BuiltAuthentication {
  chain: AuthenticationChain;
  /** The extension-apiserver-authentication ConfigMap's data. */
  extensionData: Record<string, string>;
  /** PEM of the request-header CA, for the TLS certificate request. */
  requestHeaderCAPEM?: string;
  serviceAccounts: ServiceAccountConfig;
  /** Signs service-account tokens (TokenRequest). */
  issuer: TokenIssuer;
  apiAudiences: string[];
  close(): void;
}

function fail(what: string, err: unknown): never {
  if (err instanceof FileError) throw new AuthenticationSetupError(err.message);
  throw new AuthenticationSetupError(`${what}: ${(err as Error).message}`);
}

export function buildAuthentication(o: AuthenticationOptions): BuiltAuthentication {
  let sa: ServiceAccountConfig;
  try {
    sa = resolveServiceAccountConfig({
      ...o.serviceAccounts,
      apiAudiences: o.apiAudiences,
      // an in-memory server makes a quick ECDSA key; a kept one is RSA-2048 as kubeadm's
      generate: o.serviceAccounts.pkiDir ? 'rsa' : 'ecdsa',
    });
  } catch (err) {
    fail('service-account key', err);
  }
  const apiAudiences = sa.apiAudiences;
  const requestAuthenticators: RequestAuthenticator[] = [...(o.extra ?? [])];
  // the header lists in force (the ConfigMap publishes what the authenticator uses)
  const rh = o.requestHeader && {
    ...o.requestHeader,
    usernameHeaders: o.requestHeader.usernameHeaders ?? DEFAULT_USERNAME_HEADERS,
    groupHeaders: o.requestHeader.groupHeaders ?? DEFAULT_GROUP_HEADERS,
    extraHeadersPrefix: o.requestHeader.extraHeadersPrefix ?? DEFAULT_EXTRA_HEADER_PREFIXES,
  };
  let requestHeaderCAPEM: string | undefined;
  if (rh?.clientCAFile) {
    const problems = validateRequestHeaderOptions({
      usernameHeaders: rh.usernameHeaders,
      uidHeaders: rh.uidHeaders,
      groupHeaders: rh.groupHeaders,
      extraHeaderPrefixes: rh.extraHeadersPrefix,
      allowedNames: rh.allowedNames,
    });
    if (problems.length) throw new AuthenticationSetupError(problems.join('; '));
    let roots: X509Certificate[];
    try {
      requestHeaderCAPEM = readFileSync(rh.clientCAFile, 'utf8');
      roots = parseCABundle(requestHeaderCAPEM, rh.clientCAFile);
    } catch (err) {
      fail('--requestheader-client-ca-file', err);
    }
    requestAuthenticators.push(
      new RequestHeaderAuthenticator({
        usernameHeaders: rh.usernameHeaders,
        uidHeaders: rh.uidHeaders,
        groupHeaders: rh.groupHeaders,
        extraHeaderPrefixes: rh.extraHeadersPrefix,
        allowedNames: rh.allowedNames,
        verifyProxyCertificate(cert) {
          const v = verifyChain(cert, roots);
          return v.ok ? { commonName: subjectNames(v.leaf).commonName } : undefined;
        },
      }),
    );
  }
  if (o.clientCAs) requestAuthenticators.push(new ClientCertAuthenticator(o.clientCAs));

  const tokenAuthenticators: TokenAuthenticator[] = [];
  if (o.tokenAuthFile) {
    try {
      const tf = loadTokenFile(o.tokenAuthFile);
      for (const w of tf.warnings) o.log(`--token-auth-file: ${w}`);
      tokenAuthenticators.push(tf.authenticator);
    } catch (err) {
      fail('--token-auth-file', err);
    }
  }
  tokenAuthenticators.push(new ServiceAccountTokenAuthenticator({ issuers: sa.issuers, keys: sa.verificationKeys, apiAudiences, reader: o.reader }));
  if (o.bootstrapTokens) tokenAuthenticators.push(new BootstrapTokenAuthenticator({ reader: o.reader, log: o.log }));
  let webhook: WebhookTokenAuthenticator | undefined;
  if (o.webhook) {
    try {
      webhook = loadWebhookTokenAuthenticator(o.webhook.configFile, {
        version: parseWebhookVersion(o.webhook.version ?? 'v1beta1'),
        cacheTtlMs: o.webhook.cacheTtlMs,
        apiAudiences,
        now: Date.now,
        onError: (msg) => o.log(`token webhook: ${msg}`),
      });
    } catch (err) {
      fail('--authentication-token-webhook-config-file', err);
    }
    tokenAuthenticators.push(webhook);
  }

  let config;
  if (o.authenticationConfig) {
    try {
      config = loadAuthenticationConfiguration(o.authenticationConfig);
    } catch (err) {
      fail('--authentication-config', err);
    }
  }
  let anonymous;
  try {
    anonymous = effectiveAnonymous({ value: o.anonymousAuth ?? true, set: o.anonymousAuth !== undefined }, config);
  } catch (err) {
    fail('--authentication-config', err);
  }

  const chain = new AuthenticationChain({
    requestAuthenticators,
    tokenAuthenticators,
    apiAudiences,
    anonymous: anonymous.enabled ? (path) => anonymousAllowed(path, anonymous) : undefined,
  });
  const extensionData = extensionApiserverAuthenticationData({
    clientCA: o.clientCAPEM,
    requestHeaderClientCA: requestHeaderCAPEM,
    requestHeaderAllowedNames: rh?.allowedNames,
    requestHeaderUsernameHeaders: rh?.usernameHeaders,
    requestHeaderUIDHeaders: rh?.uidHeaders,
    requestHeaderGroupHeaders: rh?.groupHeaders,
    requestHeaderExtraHeaderPrefixes: rh?.extraHeadersPrefix,
  });
  return {
    chain,
    extensionData,
    requestHeaderCAPEM,
    serviceAccounts: sa,
    apiAudiences,
    issuer: new TokenIssuer({ key: sa.signingKey, issuer: sa.issuer }),
    close: () => webhook?.close(),
  };
}
