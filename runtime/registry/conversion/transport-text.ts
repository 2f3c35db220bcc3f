// Why a conversion webhook call failed, in the words of Go's HTTP client
// (upstream's text is `Post "<url>": <reason>`): Node's connection errors
// are given Go's spelling where the two differ (a refused connection is
// `dial tcp <address>: connect: connection refused`, a connection closed
// without an answer `EOF`, a certificate of an unknown CA `x509: certificate
// signed by unknown authority`, a call past its limit `context deadline
// exceeded`); the Service resolver's texts (`service "x" not found`, `no
// endpoints available for service "x"`) are upstream's already.
import { WebhookCallError } from '../../auth/webhook/client.ts';

const UNKNOWN_AUTHORITY = [
  'unable to verify the first certificate',
  'self-signed certificate in certificate chain',
  'self signed certificate in certificate chain',
  'self-signed certificate',
  'self signed certificate',
  'unable to get local issuer certificate',
];

/** Go's text for a failed POST to url. */
export function postFailureText(url: string, err: unknown): string {
  const prefix = `Post ${JSON.stringify(url)}: `;
  if (err instanceof WebhookCallError && err.timedOut) return `${prefix}context deadline exceeded`;
  const msg = (err instanceof Error ? err.message : String(err)).replace(/^calling the webhook: /, '');
  const refused = /^connect ECONNREFUSED (\S+)$/.exec(msg);
  if (refused) return `${prefix}dial tcp ${refused[1]}: connect: connection refused`;
  if (msg === 'socket hang up' || msg === 'Client network socket disconnected before secure TLS connection was established') return `${prefix}EOF`;
  if (UNKNOWN_AUTHORITY.includes(msg)) return `${prefix}tls: failed to verify certificate: x509: certificate signed by unknown authority`;
  return prefix + msg;
}
