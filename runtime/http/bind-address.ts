// The addresses the server may listen on, and how a bind address is shown.
// Served over plain HTTP (--insecure-serve-http) nothing is private on the
// wire, so the server then listens on loopback only; a non-loopback
// --bind-address (0.0.0.0, ::, or any other IP or name) is refused at start
// unless the operator also passes --insecure-allow-unauthenticated-remote
// (startServer's allowInsecureRemote), and then the server warns loudly.
// Over TLS (the default) any address may be served. Also: the URL a kubeconfig should use to
// reach a bind address (a wildcard is reached through loopback) and the URL
// that shows what is really bound.

import { isIP } from 'node:net';

export const INSECURE_REMOTE_FLAG = 'insecure-allow-unauthenticated-remote';

export class BindAddressError extends Error {}

/** An IPv6 literal in its canonical (compressed, lower-case) form, or undefined when it is not one. */
function canonicalIPv6(addr: string): string | undefined {
  const a = addr.replace(/^\[(.*)\]$/, '$1');
  if (isIP(a) !== 6) return undefined;
  return new URL(`http://[${a}]/`).hostname.slice(1, -1);
}

/** The address without brackets, lower-cased, with IPv6 in canonical form. */
export function canonicalAddress(addr: string): string {
  const a = addr.trim().toLowerCase();
  return canonicalIPv6(a) ?? a.replace(/^\[(.*)\]$/, '$1');
}

/** 127.0.0.0/8, ::1 (in any spelling), IPv4-mapped 127.x, or `localhost`. */
export function isLoopbackAddress(addr: string): boolean {
  const a = canonicalAddress(addr);
  if (a === 'localhost') return true;
  if (isIP(a) === 4) return a.startsWith('127.');
  if (isIP(a) === 6) return a === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(a);
  return false;
}

/** The unspecified address (every interface): 0.0.0.0, ::, or empty. */
export function isWildcardAddress(addr: string): boolean {
  const a = canonicalAddress(addr);
  return a === '' || a === '0.0.0.0' || a === '::';
}

/** Throws unless the address is loopback or the operator accepted unauthenticated remote access. */
export function checkBindAddress(addr: string, allowInsecureRemote: boolean): void {
  if (isLoopbackAddress(addr) || allowInsecureRemote) return;
  throw new BindAddressError(
    `--bind-address ${JSON.stringify(addr)} is not a loopback address, and --insecure-serve-http serves without TLS: ` +
      'credentials and data would cross the network in the clear. Bind to 127.0.0.1 (the default) or ::1, serve TLS ' +
      `(drop --insecure-serve-http), or pass --${INSECURE_REMOTE_FLAG} to serve plain HTTP to the network anyway.`,
  );
}

/** The warning printed when a non-loopback address is served anyway (undefined for loopback). */
export function insecureBindWarning(addr: string): string | undefined {
  if (isLoopbackAddress(addr)) return undefined;
  return `WARNING: serving on ${isWildcardAddress(addr) ? 'every network interface' : addr} with --${INSECURE_REMOTE_FLAG}: ` + 'there is no TLS, credentials and data cross the network in the clear.';
}

const urlHost = (addr: string): string => (isIP(addr) === 6 ? `[${canonicalAddress(addr)}]` : addr);

/** The URL that shows the address really bound (`https://0.0.0.0:6443`). */
export function boundURL(addr: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  return `${scheme}://${urlHost(addr === '' ? '::' : addr)}:${port}`;
}

/** The URL a client on this machine uses to reach the server (a wildcard is reached through loopback). */
export function clientURL(addr: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  const a = canonicalAddress(addr);
  if (a === '' || a === '0.0.0.0') return `${scheme}://127.0.0.1:${port}`;
  if (a === '::') return `${scheme}://[::1]:${port}`;
  return `${scheme}://${urlHost(addr)}:${port}`;
}
