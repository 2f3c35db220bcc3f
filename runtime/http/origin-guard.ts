// The origin guard: what keeps an unauthenticated loopback server safe from
// web pages until authentication lands. Every caller is the anonymous admin
// today, and a page in a browser on the same machine can reach 127.0.0.1:
// a simple cross-site POST (no Content-Type, which is read as JSON) needs no
// CORS preflight, and DNS rebinding makes a page's own name resolve to
// loopback so that even reads become same-origin. For a caller no credential
// identified, this stage answers 403 (a Status) to
//   - a request whose Host header is neither a loopback name or address nor
//     the address the server is bound to (rebinding always brings a foreign
//     name; when bound to every interface any IP literal is accepted);
//   - a mutating request carrying a browser's cross-site markers: an Origin
//     that is not this server, or Sec-Fetch-Site cross-site / same-site.
// kubectl, helm and client libraries send neither marker and use the address
// of their kubeconfig as Host, so they are unaffected; a request without a
// Host header (HTTP/1.0, in-process app.request()) did not come from a browser.

import type { Context } from 'hono';
import { isIP } from 'node:net';
import { canonicalAddress, isLoopbackAddress, isWildcardAddress } from './bind-address.ts';
import { errors } from '../api/errors.ts';
import { requestHeader } from './request-headers.ts';

export interface OriginGuardOptions {
  /** The address the server listens on (--bind-address). */
  bindAddress: string;
  /** Whether the guard applies to this request: to every caller no credential identified. */
  applies(c: Context): boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The host part of a Host header value (`[::1]:6443` → `::1`), lower-cased. */
export function hostOf(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end < 0 ? h : h.slice(1, end);
  }
  const colon = h.lastIndexOf(':');
  return colon >= 0 && /^\d*$/.test(h.slice(colon + 1)) ? h.slice(0, colon) : h;
}

/** Whether a Host header names this server in a way no DNS rebinding can produce. */
export function hostAllowed(header: string | undefined, bindAddress: string): boolean {
  if (header === undefined || header === '') return true;
  const host = hostOf(header);
  if (isLoopbackAddress(host)) return true;
  if (isIP(host) === 0) return false;
  return isWildcardAddress(bindAddress) || canonicalAddress(host) === canonicalAddress(bindAddress);
}

/** Why a request looks like a browser's cross-site write, or undefined when it does not. */
export function crossSiteReason(method: string, headers: { host?: string; origin?: string; secFetchSite?: string }): string | undefined {
  if (SAFE_METHODS.has(method.toUpperCase())) return undefined;
  const site = headers.secFetchSite?.trim().toLowerCase();
  if (site === 'cross-site' || site === 'same-site') return `a ${site} request from a web page may not write`;
  if (headers.origin !== undefined) {
    let originHost: string | undefined;
    try {
      originHost = new URL(headers.origin).host.toLowerCase();
    } catch {
      originHost = undefined;
    }
    if (!originHost || originHost !== headers.host?.trim().toLowerCase()) {
      return `a request from the web origin ${JSON.stringify(headers.origin)} may not write`;
    }
  }
  return undefined;
}

/** Host headers already judged (clients send the same few): the answer without parsing again. */
const HOST_MEMO_SIZE = 64;

/** The guard: throws 403 for a request it applies to that names a foreign Host or looks like a cross-site write. */
export function originGuard(opts: OriginGuardOptions): (c: Context) => void {
  const judged = new Map<string, boolean>();
  const allowed = (host: string | undefined): boolean => {
    if (host === undefined) return hostAllowed(host, opts.bindAddress);
    let ok = judged.get(host);
    if (ok === undefined) {
      ok = hostAllowed(host, opts.bindAddress);
      if (judged.size >= HOST_MEMO_SIZE) judged.clear();
      judged.set(host, ok);
    }
    return ok;
  };
  return (c) => {
    if (opts.applies(c)) {
      const host = requestHeader(c, 'host');
      if (!allowed(host)) {
        throw errors.forbiddenRequest(
          `the Host ${JSON.stringify(host)} is not a loopback address or the address this server listens on; ` +
            'without authentication the server answers only requests addressed to it by IP or as localhost',
        );
      }
      // reads (most requests) are never cross-site writes: their Origin and Sec-Fetch-Site need not be looked up
      const method = c.req.method;
      if (SAFE_METHODS.has(method.toUpperCase())) return;
      const why = crossSiteReason(method, { host, origin: requestHeader(c, 'origin'), secFetchSite: requestHeader(c, 'sec-fetch-site') });
      if (why) throw errors.forbiddenRequest(`${why} to a server without authentication`);
    }
  };
}
