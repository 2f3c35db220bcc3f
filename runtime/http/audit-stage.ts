// The audit stage of the request path (runtime/audit/ does the policy, the
// events and the backends): after authentication the request's audit
// begins (RequestReceived) with what the request says of itself: its
// attributes, the request target as sent, the user agent and the source IPs
// (X-Forwarded-For, X-Real-Ip, then the peer's address, as upstream's
// SourceIPs); impersonation adds the impersonated user. Its answer ends it:
// a long-running request (a watch) has ResponseStarted when its headers go
// out and ResponseComplete when its connection closes; any other request is
// complete when its answer is produced, with the answered object at
// RequestResponse (read from a copy of a JSON or YAML body, after the answer
// is handed on; protobuf decoded to JSON). An error is complete with its Status, an unexpected one is
// Panic; a 401 before anyone was authenticated is upstream's failed
// authentication event. With a blocking backend (--audit-*-mode blocking or
// blocking-strict) the request waits for each event's write before it goes
// on or its answer goes out; a RequestReceived event that a blocking-strict
// backend could not store ends the request with upstream's plain-text 500
// ("failed to store audit event") and no further events.

import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { UserInfo } from '../auth/user.ts';
import { type Auditor, type AuditRequestInput, RequestAudit } from '../audit/auditor.ts';
import type { Stored } from '../audit/sink.ts';
import type { Maybe } from '../api/maybe.ts';
import { statusOf } from '../audit/event.ts';
import { ApiError } from '../api/errors.ts';
import { addAuditAnnotation, type RequestRecord } from '../api/request-record.ts';
import { yaml } from '../api/yaml.ts';
import { outgoingOf } from './audit-id.ts';
import { isLongRunning } from './long-running.ts';
import { requestHeader, requestTarget } from './request-headers.ts';
import type { RequestInfo } from './request-info.ts';

const MAPPED_V4 = '::ffff:';

/** An IP as Go prints it (an IPv4-mapped IPv6 address as IPv4), or undefined when it is none. */
function ipText(s: string): string | undefined {
  const t = s.trim();
  const kind = isIP(t);
  if (kind === 4) return t;
  if (kind === 0) return undefined;
  if (t.length > MAPPED_V4.length && t.slice(0, MAPPED_V4.length).toLowerCase() === MAPPED_V4) {
    const v4 = t.slice(MAPPED_V4.length);
    if (isIP(v4) === 4) return v4;
  }
  return t.toLowerCase();
}

/** The last peer address and its text (a connection's requests come from one peer). */
let lastRemote: string | undefined;
let lastPeer: string | undefined;

function peerText(remote: string): string | undefined {
  if (remote !== lastRemote) {
    lastPeer = ipText(remote);
    lastRemote = remote;
  }
  return lastPeer;
}

/** Upstream's SourceIPs: X-Forwarded-For's valid entries, X-Real-Ip unless among them, then the peer unless it is the last one. */
export function sourceIPs(forwardedFor: string | undefined, realIP: string | undefined, remote: string | undefined): string[] {
  const peer = remote ? peerText(remote) : undefined;
  if (!forwardedFor && !realIP) return peer ? [peer] : [];
  const out: string[] = [];
  if (forwardedFor) {
    for (const part of forwardedFor.split(',')) {
      const ip = ipText(part);
      if (ip) out.push(ip);
    }
  }
  const real = realIP ? ipText(realIP) : undefined;
  if (real && !out.includes(real)) out.push(real);
  if (peer && (out.length === 0 || out[out.length - 1] !== peer)) out.push(peer);
  return out;
}

/** The request's audit, with the deprecation annotations once the record says the version is deprecated. */
const auditOf = (c: Context): RequestAudit | undefined => {
  const record = c.get('record') as RequestRecord | undefined;
  const a = record?.audit;
  if (!(a instanceof RequestAudit)) return undefined;
  if (record!.deprecated) {
    addAuditAnnotation(record!, 'k8s.io/deprecated', 'true');
    const removed = record!.deprecated.removedRelease;
    if (removed) addAuditAnnotation(record!, 'k8s.io/removed-release', removed);
  }
  return a;
};

function inputOf(c: Context, info: RequestInfo): AuditRequestInput {
  const record = c.get('record') as RequestRecord;
  const target = requestTarget(c);
  const remote = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
  return {
    attrs: info,
    auditID: record.auditID,
    requestURI: target.query ? `${target.path}?${target.query}` : target.path,
    userAgent: requestHeader(c, 'user-agent'),
    sourceIPs: sourceIPs(requestHeader(c, 'x-forwarded-for'), requestHeader(c, 'x-real-ip'), remote),
    receivedAt: record.receivedAt,
    annotations: record.annotations,
  };
}

/** Decodes an enveloped protobuf body to its JSON form. */
export type ProtobufDecode = (bytes: Uint8Array) => Promise<unknown>;

/** The response body's object, for RequestResponse: JSON, YAML or protobuf answers (decoded to JSON, as upstream converts them), read from a copy. */
async function responseObject(res: Response, decodeProtobuf: ProtobufDecode | undefined): Promise<unknown> {
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
  if (type === 'application/vnd.kubernetes.protobuf') return decodeProtobuf ? decodeProtobuf(new Uint8Array(await res.arrayBuffer())) : undefined;
  const json = type === 'application/json' || type.endsWith('+json');
  if (!json && type !== 'application/yaml') return undefined;
  const text = await res.text();
  if (!text) return undefined;
  try {
    return json ? (JSON.parse(text) as unknown) : (yaml().parse(text) as unknown);
  } catch {
    return undefined;
  }
}

export interface AuditStage {
  /**
   * After authentication: the request's audit begins, unless the policy says None. Undefined to go on (a
   * promise of it while a blocking backend writes), or the answer of a request whose first event could not be
   * stored.
   */
  begin(c: Context, info: RequestInfo, requestor: UserInfo): Maybe<Response | undefined>;
  /** Impersonation succeeded. */
  impersonated(c: Context, user: UserInfo): void;
  /** The answer of a request: its audit ends (a long-running one when its connection closes). */
  answered(c: Context, res: Response): Maybe<Response>;
  /** The answer of an error (a promise while a blocking backend writes its event). */
  failed(c: Context, err: unknown, apiErr: ApiError): Maybe<void>;
}

/** Go's escaping of the text of responsewriters.InternalError. */
const sanitize = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Upstream's answer when the RequestReceived event could not be stored (responsewriters.InternalError). */
export function auditFailureResponse(requestURI: string): Response {
  return new Response(`${sanitize(`Internal Server Error: ${JSON.stringify(requestURI)}: failed to store audit event`)}\n`, {
    status: 500,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  });
}

/** `then` once the event is stored, at once when it was written already. */
const whenStored = <T>(stored: Stored, then: T): Maybe<T> => (typeof stored === 'boolean' ? then : stored.then(() => then));

export function auditStage(auditor: Auditor, decodeProtobuf?: ProtobufDecode): AuditStage {
  const refuse = (c: Context, audit: RequestAudit, stored: boolean): Response | undefined => {
    if (stored) {
      (c.get('record') as RequestRecord).audit = audit;
      return undefined;
    }
    audit.abandon();
    return auditFailureResponse(audit.event.requestURI);
  };
  return {
    begin(c, info, requestor) {
      const audit = auditor.begin(inputOf(c, info), requestor);
      if (!audit) return undefined;
      const received = audit.received;
      if (typeof received === 'boolean') return refuse(c, audit, received);
      return received.then((stored) => refuse(c, audit, stored));
    },

    impersonated(c, user) {
      const a = (c.get('record') as RequestRecord).audit;
      if (a instanceof RequestAudit) a.impersonated(user);
    },

    answered(c, res) {
      const audit = auditOf(c);
      if (!audit) return res;
      const info = c.get('info') as RequestInfo;
      if (isLongRunning(info)) {
        const started = audit.responseStarted(res.status);
        const outgoing = outgoingOf(c);
        if (outgoing && !outgoing.writableFinished) outgoing.once('close', () => void audit.complete({ metadata: {}, code: outgoing.statusCode }));
        else void audit.complete({ metadata: {}, code: res.status });
        return whenStored(started, res);
      }
      if (audit.wantsResponseObject && res.body) {
        // the object is read from a copy after the answer is handed on (a blocking backend: before)
        const copy = res.clone();
        const completed = responseObject(copy, decodeProtobuf).then(
          (obj) => audit.complete({ metadata: {}, code: res.status }, obj),
          () => audit.complete({ metadata: {}, code: res.status }),
        );
        return auditor.blocking ? completed.then(() => res) : res;
      }
      return whenStored(audit.complete({ metadata: {}, code: res.status }), res);
    },

    failed(c, err, apiErr) {
      const audit = auditOf(c);
      if (audit) {
        if (!(err instanceof ApiError) && apiErr.code >= 500) return whenStored(audit.panic(err), undefined);
        return whenStored(audit.complete(statusOf(apiErr.status()), audit.wantsResponseObject ? apiErr.status() : undefined), undefined);
      }
      const info = c.get('info') as RequestInfo | undefined;
      // a credential that failed (or none where anonymous access is off): nobody was authenticated
      if (apiErr.code === 401 && info && !c.get('user') && c.get('record')) return whenStored(auditor.failedAuthentication(inputOf(c, info), statusOf(apiErr.status())), undefined);
      return undefined;
    },
  };
}
