// The audit of one request, as upstream's WithAudit and
// WithFailedAuthenticationAudit filters make it: after authentication the
// policy gives the request's level; at None nothing more happens. Otherwise
// an Event is built (auditID, verb, requestURI, user, sourceIPs, userAgent,
// objectRef) and written at each stage the policy does not omit:
// RequestReceived at once (its stageTimestamp is the time the request was
// received), ResponseStarted when a long-running request's headers go out,
// ResponseComplete when the response is done, Panic for an unexpected
// error. A failed authentication is one event at ResponseStarted, with no
// user. Annotations are the request record's (authorization's decision,
// admission, deprecation), copied at each stage. Each stage answers whether
// its event was stored (sink.ts): the request path waits for a blocking
// backend, and fails a request whose RequestReceived event a
// blocking-strict backend could not store. An observer (the server's
// metrics) counts each request's level, None included, once the policy
// gives it, and each event handed to the backend, as upstream's
// ObservePolicyLevel and ObserveEvent.

import type { AuditBackend, AuditObserver, Stored } from './sink.ts';
import { type AuditEvent, auditUser, microTime, nowMicros, type ObjectReference, type ResponseStatus } from './event.ts';
import { eventHead, eventMiddle, eventPieces } from './event-json.ts';
import { type AuditAttributes, evaluatePolicy, levelAtLeast, type Policy, type RequestAuditConfig, type Stage } from './policy.ts';

export interface AuditUserInfo {
  name: string;
  uid?: string;
  groups: readonly string[];
  extra?: Record<string, string[]>;
}

/** What the HTTP side knows of a request when its audit begins. */
export interface AuditRequestInput {
  attrs: AuditAttributes & { apiVersion: string };
  auditID: string;
  /** The request target as sent (path and query). */
  requestURI: string;
  userAgent: string | undefined;
  sourceIPs: string[];
  /** When the request was received (ms since the epoch). */
  receivedAt: number;
  /** The request record's annotations (read at each stage). */
  annotations: Record<string, string>;
}

/** What a request body tells the event (objectRef's name, namespace, uid, resourceVersion; the object itself at Request and above). */
export interface RequestObjectFacts {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

const MAX_USER_AGENT = 1024;

/** The user agent as upstream records it: cut at 1024 bytes with a mark. */
export function truncateUserAgent(ua: string | undefined): string | undefined {
  if (!ua) return undefined;
  return ua.length > MAX_USER_AGENT ? `${ua.slice(0, MAX_USER_AGENT)}...TRUNCATED` : ua;
}

/** Drops metadata.managedFields from an object, a list's items, or a Table's rows' objects (a copy; the input is left alone). */
export function withoutManagedFields(obj: unknown): unknown {
  if (!isObj(obj)) return obj;
  let out: Record<string, unknown> = obj;
  const meta = obj.metadata;
  if (isObj(meta) && 'managedFields' in meta) {
    const { managedFields: _drop, ...rest } = meta;
    out = { ...out, metadata: rest };
  }
  if (Array.isArray(obj.items)) out = { ...out, items: obj.items.map(withoutManagedFields) };
  if (obj.kind === 'Table' && Array.isArray(obj.rows)) {
    out = { ...out, rows: obj.rows.map((r: unknown) => (isObj(r) && r.object !== undefined ? { ...r, object: withoutManagedFields(r.object) } : r)) };
  }
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class Auditor {
  constructor(
    readonly policy: Policy,
    private readonly backend: AuditBackend,
    private readonly now: () => number = nowMicros,
    private readonly observer?: AuditObserver,
  ) {}

  /** Whether a backend writes while the request waits (a blocking mode). */
  get blocking(): boolean {
    return this.backend.blocking === true;
  }

  /** The audit of an authenticated request, its RequestReceived event taken (`received` says whether it was stored), or undefined when the policy says None. */
  begin(input: AuditRequestInput, user: AuditUserInfo): RequestAudit | undefined {
    const config = evaluatePolicy(this.policy, input.attrs, user);
    this.observer?.level(config.level);
    if (config.level === 'None') return undefined;
    const audit = new RequestAudit(config, newEvent(config, input, user), input.annotations, this.backend, this.now, this.observer);
    audit.received = audit.emit('RequestReceived');
    return audit;
  }

  /** The one event of a failed authentication (401): no user, at ResponseStarted. */
  failedAuthentication(input: AuditRequestInput, status: ResponseStatus): Stored {
    const config = evaluatePolicy(this.policy, input.attrs, undefined);
    this.observer?.level(config.level);
    if (config.level === 'None') return true;
    const audit = new RequestAudit(config, newEvent(config, input, undefined), input.annotations, this.backend, this.now, this.observer);
    audit.event.responseStatus = status;
    return audit.emit('ResponseStarted');
  }

  flush(): Promise<void> {
    return this.backend.flush();
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

function newEvent(config: RequestAuditConfig, input: AuditRequestInput, user: AuditUserInfo | undefined): AuditEvent {
  const a = input.attrs;
  let objectRef: ObjectReference | undefined;
  if (a.isResourceRequest) {
    objectRef = {};
    if (a.resource) objectRef.resource = a.resource;
    if (a.namespace) objectRef.namespace = a.namespace;
    if (a.name) objectRef.name = a.name;
    if (a.apiGroup) objectRef.apiGroup = a.apiGroup;
    if (a.apiVersion) objectRef.apiVersion = a.apiVersion;
    if (a.subresource) objectRef.subresource = a.subresource;
  }
  const received = microTime(input.receivedAt * 1000);
  const ev: AuditEvent = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: config.level,
    auditID: input.auditID,
    stage: 'RequestReceived',
    requestURI: input.requestURI,
    verb: a.verb,
    user: auditUser(user),
    sourceIPs: input.sourceIPs,
    userAgent: truncateUserAgent(input.userAgent),
    objectRef,
    requestReceivedTimestamp: received,
    stageTimestamp: received,
  };
  return ev;
}

/** One request's event through its stages. */
export class RequestAudit {
  private done = false;
  private started = false;
  /** Whether the RequestReceived event was stored. */
  received: Stored = true;
  /** The JSON of the fields that stay the same from stage to stage (event-json.ts eventHead, eventMiddle); the middle dropped when one of its fields changes. */
  private head: string | undefined = undefined;
  private middle: string | undefined = undefined;

  constructor(
    readonly config: RequestAuditConfig,
    readonly event: AuditEvent,
    private readonly annotations: Record<string, string>,
    private readonly backend: AuditBackend,
    private readonly now: () => number,
    private readonly observer?: AuditObserver,
  ) {}

  /** Whether the request body is kept (Request and RequestResponse). */
  get wantsRequestObject(): boolean {
    return levelAtLeast(this.config.level, 'Request');
  }

  /** Whether the response body is kept (RequestResponse). */
  get wantsResponseObject(): boolean {
    return this.config.level === 'RequestResponse';
  }

  /** The impersonated user, once impersonation succeeded. */
  impersonated(user: AuditUserInfo): void {
    this.event.impersonatedUser = auditUser(user);
    this.middle = undefined;
  }

  /** What the decoded request body says (objectRef's empty fields are filled from it; the object itself at Request and above). */
  requestObject(facts: RequestObjectFacts, object?: unknown): void {
    const ref = (this.event.objectRef ??= {});
    this.middle = undefined;
    if (!ref.namespace && facts.namespace) ref.namespace = facts.namespace;
    if (!ref.name && facts.name) ref.name = facts.name;
    if (!ref.uid && facts.uid) ref.uid = facts.uid;
    if (!ref.resourceVersion && facts.resourceVersion) ref.resourceVersion = facts.resourceVersion;
    // a copy: the pipeline goes on to change the decoded object (defaults, server-set fields)
    if (object !== undefined && this.wantsRequestObject) this.event.requestObject = structuredClone(this.config.omitManagedFields ? withoutManagedFields(object) : object);
  }

  /** A long-running request's headers went out. */
  responseStarted(code: number): Stored {
    if (this.started || this.done) return true;
    this.started = true;
    this.event.responseStatus ??= { metadata: {} };
    this.event.responseStatus.code = code;
    return this.emit('ResponseStarted');
  }

  /** The response is done: its status (a Status's fields for an error), and the object answered at RequestResponse. */
  complete(status: ResponseStatus, responseObject?: unknown): Stored {
    if (this.done) return true;
    this.done = true;
    this.event.responseStatus = status;
    if (responseObject !== undefined && this.wantsResponseObject) this.event.responseObject = this.config.omitManagedFields ? withoutManagedFields(responseObject) : responseObject;
    return this.emit('ResponseComplete');
  }

  /** An unexpected error ended the request (upstream: the handler panicked). */
  panic(err: unknown): Stored {
    if (this.done) return true;
    this.done = true;
    this.event.responseStatus = { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}`, reason: 'InternalError', code: 500 };
    return this.emit('Panic');
  }

  /** Gives up the request's later stages (its RequestReceived event could not be stored). */
  abandon(): void {
    this.done = true;
  }

  emit(stage: Stage): Stored {
    if (this.config.omitStages.includes(stage)) return true;
    const ev = this.event;
    ev.stage = stage;
    ev.stageTimestamp = stage === 'RequestReceived' ? ev.requestReceivedTimestamp : microTime(this.now());
    let any = false;
    for (const _k in this.annotations) {
      any = true;
      break;
    }
    // the record's own map, not a copy: the event's text is made now, and backends use the event only while they take it
    ev.annotations = any ? this.annotations : undefined;
    this.head ??= eventHead(ev);
    this.middle ??= eventMiddle(ev);
    this.observer?.event();
    return this.backend.process(ev, eventPieces(ev, this.head, this.middle));
  }
}
