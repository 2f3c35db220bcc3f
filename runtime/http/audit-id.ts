// The `Audit-Id` response header: every answer carries its request's audit
// ID (the client's `Audit-ID` request header when it sent one, as is, else a
// new UUID: runtime/api/request-record.ts), as upstream's WithAuditInit
// filter echoes it. Over a socket the header is set once on the Node
// response, which every way of answering sends with its own headers (Hono's
// writeHead merges them, and a watch written straight to its socket calls
// writeHead too); an in-process request (app.request()) has no Node
// response, so its Response gets the header instead.

import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';

/** Go's canonical form of upstream's `Audit-ID`. */
export const AUDIT_ID_HEADER = 'Audit-Id';

/** The Node response of a request served over a socket; undefined in-process. */
export function outgoingOf(c: Context): ServerResponse | undefined {
  return (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
}

/** The response with the request's Audit-Id when served in-process (a socket's answer has it from the Node response already). */
export function auditIDOnResponse(c: Context, res: Response): Response {
  if (outgoingOf(c)) return res;
  const id = (c.get('record') as { auditID?: string } | undefined)?.auditID;
  if (!id || res.headers.has(AUDIT_ID_HEADER)) return res;
  try {
    res.headers.set(AUDIT_ID_HEADER, id);
    return res;
  } catch {
    // immutable headers (a fetched response): a copy carries the header
    const copy = new Response(res.body, res);
    copy.headers.set(AUDIT_ID_HEADER, id);
    return copy;
  }
}
