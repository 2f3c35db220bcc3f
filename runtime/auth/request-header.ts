// The front-proxy (request header) authenticator: an authenticating proxy
// that presents a client certificate signed by `--requestheader-client-ca-file`
// (and, when `--requestheader-allowed-names` is set, with one of those common
// names) tells who the user is in headers: `--requestheader-username-headers`
// (the first non-empty one wins), `--requestheader-uid-headers`,
// `--requestheader-group-headers` (every non-empty value of every one) and
// `--requestheader-extra-headers-prefix` (`X-Remote-Extra-<key>`, key
// lower-cased and percent-decoded). Without a valid proxy certificate the
// headers are never looked at. Also the data of the
// `extension-apiserver-authentication` ConfigMap in kube-system, which
// tells aggregated API servers how to trust this server's front proxy.

import { HEADER_REMOTE_EXTRA_PREFIX, HEADER_REMOTE_GROUP, HEADER_REMOTE_USER } from '../api/k8s-names.ts';
import type { AuthRequest, AuthResult, PeerCertificate, RequestAuthenticator } from './authenticator.ts';
import { extraKey } from './extra-key.ts';
import type { UserInfo } from './user.ts';

export const DEFAULT_USERNAME_HEADERS = [HEADER_REMOTE_USER];
export const DEFAULT_GROUP_HEADERS = [HEADER_REMOTE_GROUP];
export const DEFAULT_EXTRA_HEADER_PREFIXES = [HEADER_REMOTE_EXTRA_PREFIX];

export interface RequestHeaderOptions {
  usernameHeaders?: string[];
  uidHeaders?: string[];
  groupHeaders?: string[];
  extraHeaderPrefixes?: string[];
  /** Common names a proxy certificate may carry; empty: any. */
  allowedNames?: string[];
  /** Checks the certificate against the request-header CA; undefined when it does not verify. */
  verifyProxyCertificate(cert: PeerCertificate): { commonName: string } | undefined;
}

/** Flag-level checks (upstream's `empty value in "<flag>"`); returns the errors. */
export function validateRequestHeaderOptions(o: Omit<RequestHeaderOptions, 'verifyProxyCertificate'>): string[] {
  const errs: string[] = [];
  const lists: [string, string[] | undefined][] = [
    ['requestheader-username-headers', o.usernameHeaders],
    ['requestheader-uid-headers', o.uidHeaders],
    ['requestheader-group-headers', o.groupHeaders],
    ['requestheader-extra-headers-prefix', o.extraHeaderPrefixes],
    ['requestheader-allowed-names', o.allowedNames],
  ];
  for (const [flag, values] of lists) {
    if ((values ?? []).some((v) => v.trim() === '')) errs.push(`empty value in "${flag}"`);
  }
  return errs;
}

export class RequestHeaderAuthenticator implements RequestAuthenticator {
  private readonly usernameHeaders: string[];
  private readonly uidHeaders: string[];
  private readonly groupHeaders: string[];
  private readonly extraPrefixes: string[];
  private readonly allowedNames: Set<string>;
  private readonly verify: RequestHeaderOptions['verifyProxyCertificate'];

  constructor(o: RequestHeaderOptions) {
    this.usernameHeaders = (o.usernameHeaders ?? DEFAULT_USERNAME_HEADERS).map((h) => h.toLowerCase());
    this.uidHeaders = (o.uidHeaders ?? []).map((h) => h.toLowerCase());
    this.groupHeaders = (o.groupHeaders ?? DEFAULT_GROUP_HEADERS).map((h) => h.toLowerCase());
    this.extraPrefixes = (o.extraHeaderPrefixes ?? DEFAULT_EXTRA_HEADER_PREFIXES).map((h) => h.toLowerCase());
    this.allowedNames = new Set(o.allowedNames ?? []);
    this.verify = o.verifyProxyCertificate;
  }

  /** Whether the request comes from a trusted proxy (valid certificate with an allowed CN). */
  isTrustedProxy(req: AuthRequest): boolean {
    if (!req.certificate) return false;
    const verified = this.verify(req.certificate);
    if (!verified) return false;
    return this.allowedNames.size === 0 || this.allowedNames.has(verified.commonName);
  }

  authenticate(req: AuthRequest): AuthResult | undefined {
    if (!this.isTrustedProxy(req)) return undefined;
    const name = firstValue(req, this.usernameHeaders);
    if (!name) return undefined;
    const user: UserInfo = { name, groups: allValues(req, this.groupHeaders) };
    const uid = firstValue(req, this.uidHeaders);
    if (uid) user.uid = uid;
    const extra = this.extra(req);
    if (Object.keys(extra).length) user.extra = extra;
    return { user };
  }

  /**
   * The (lower-case) names of the headers this authenticator reads, present
   * on the request. Once it has authenticated a request, the chain deletes
   * them so nothing later (a proxied request to an aggregated server, a
   * handler) sees them, as upstream's ClearAuthenticationHeaders does.
   */
  headersToStrip(req: AuthRequest): string[] {
    const fixed = new Set([...this.usernameHeaders, ...this.uidHeaders, ...this.groupHeaders]);
    return req.headerNames().filter((h) => fixed.has(h) || this.extraPrefixes.some((p) => h.startsWith(p)));
  }

  private extra(req: AuthRequest): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    const names = req.headerNames();
    for (const prefix of this.extraPrefixes) {
      for (const h of names) {
        if (!h.startsWith(prefix)) continue;
        const key = extraKey(h.slice(prefix.length));
        (out[key] ??= []).push(...req.headerValues(h));
      }
    }
    return out;
  }
}

function firstValue(req: AuthRequest, headers: string[]): string | undefined {
  for (const h of headers) {
    const v = req.header(h);
    if (v) return v;
  }
  return undefined;
}

function allValues(req: AuthRequest, headers: string[]): string[] {
  const out: string[] = [];
  for (const h of headers) for (const v of req.headerValues(h)) if (v) out.push(v);
  return out;
}

export interface ExtensionAuthenticationInput {
  /** PEM bundle of `--client-ca-file`. */
  clientCA?: string;
  /** PEM bundle of `--requestheader-client-ca-file`; without it no requestheader-* key is written. */
  requestHeaderClientCA?: string;
  /** Each list as configured; undefined (flag not given) is written as `null` as upstream does. */
  requestHeaderAllowedNames?: string[];
  requestHeaderUsernameHeaders?: string[];
  requestHeaderUIDHeaders?: string[];
  requestHeaderGroupHeaders?: string[];
  requestHeaderExtraHeaderPrefixes?: string[];
}

/** The `data` of kube-system/extension-apiserver-authentication as kube-apiserver writes it. */
export function extensionApiserverAuthenticationData(i: ExtensionAuthenticationInput): Record<string, string> {
  const data: Record<string, string> = {};
  if (i.clientCA) data['client-ca-file'] = i.clientCA;
  if (!i.requestHeaderClientCA) return data;
  data['requestheader-username-headers'] = goJsonStrings(i.requestHeaderUsernameHeaders);
  data['requestheader-uid-headers'] = goJsonStrings(i.requestHeaderUIDHeaders);
  data['requestheader-group-headers'] = goJsonStrings(i.requestHeaderGroupHeaders);
  data['requestheader-extra-headers-prefix'] = goJsonStrings(i.requestHeaderExtraHeaderPrefixes);
  data['requestheader-client-ca-file'] = i.requestHeaderClientCA;
  data['requestheader-allowed-names'] = goJsonStrings(i.requestHeaderAllowedNames);
  return data;
}

/** Go's json.Marshal of a []string: nil is `null`, and <, >, & are escaped. */
function goJsonStrings(v: string[] | undefined): string {
  if (v === undefined) return 'null';
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
