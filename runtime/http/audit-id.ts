// The `Audit-Id` response header: every answer carries its request's audit
// ID (the client's `Audit-ID` request header when it sent one, as is, else a
// new UUID: runtime/api/request-record.ts), as upstream's WithAuditInit
// filter echoes it. Over a socket the ID is put on the Node response, whose
// class (AuditIdResponse, the server's ServerResponse) adds it to the
// headers of writeHead, the one call every way of answering makes (Hono's
// adapter, a watch written straight to its socket): the header object gets
// one more key, and Node keeps its fast path for a response with no headers
// set beforehand (setHeader would send every header through it again). A
// response of another class gets setHeader. An in-process request
// (app.request()) has no Node response: its answer is a Response made anew
// with the header (auditIDOnResponse).

import { ServerResponse, type IncomingMessage, type OutgoingHttpHeaders, type OutgoingHttpHeader } from 'node:http';
import type { Context } from 'hono';

/** A Node response that sends its request's Audit-Id with its headers. */
export class AuditIdResponse<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {
  /** Set by the app once the request's audit ID is known. */
  auditID: string | undefined = undefined;

  override writeHead(statusCode: number, ...rest: unknown[]): this {
    const id = this.auditID;
    if (id !== undefined) {
      const headers = rest[rest.length - 1];
      if (Array.isArray(headers)) headers.push(AUDIT_ID_HEADER, id);
      else if (headers && typeof headers === 'object') (headers as OutgoingHttpHeaders)[AUDIT_ID_HEADER] = id;
      else if (!this.hasHeader(AUDIT_ID_HEADER)) this.setHeader(AUDIT_ID_HEADER, id);
    }
    return (super.writeHead as (code: number, ...args: unknown[]) => this)(statusCode, ...rest);
  }
}

/** Gives a socket's response its audit ID. */
export function setResponseAuditID(res: ServerResponse, id: string): void {
  if (res instanceof AuditIdResponse) res.auditID = id;
  else res.setHeader(AUDIT_ID_HEADER, id as OutgoingHttpHeader);
}

/** Go's canonical form of upstream's `Audit-ID`. */
export const AUDIT_ID_HEADER = 'Audit-Id';

/** The Node response of a request served over a socket; undefined in-process. */
export function outgoingOf(c: Context): ServerResponse | undefined {
  return (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
}

/**
 * The response with the request's Audit-Id when served in-process (a socket's
 * answer has it from the Node response already): a new Response built with
 * the headers it has now plus the ID. Setting the header on the answer
 * itself would not last: @hono/node-server's Response keeps the headers it
 * was built with and builds its body, status text and any Response made
 * from it (a HEAD's answer) from those, without the headers set since.
 */
export function auditIDOnResponse(c: Context, res: Response): Response {
  if (outgoingOf(c)) return res;
  const id = (c.get('record') as { auditID?: string } | undefined)?.auditID;
  if (!id || res.headers.has(AUDIT_ID_HEADER)) return res;
  // the headers first: reading the body may build them anew
  const headers = new Headers(res.headers);
  headers.set(AUDIT_ID_HEADER, id);
  const status = res.status;
  return new Response(res.body, { status, statusText: res.statusText, headers });
}
