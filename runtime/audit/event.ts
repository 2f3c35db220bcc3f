// The audit.k8s.io/v1 Event as kube-apiserver writes it: its fields in Go's
// order (so a JSON line reads like upstream's), MicroTime timestamps
// (RFC 3339 in UTC with microseconds), the metadata-level response status
// (a Status's status, message, reason, details and code, `metadata: {}`
// always present as Go writes it), and the one-line `legacy` text of
// --audit-log-format=legacy.

import type { Level, Stage } from './policy.ts';

export interface AuditUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

let lastMs = NaN;
let lastPrefix = '';

/** MicroTime text of a time in microseconds since the epoch: `2024-05-01T12:00:00.123456Z` (the millisecond's text is reused while the clock stays in it). */
export function microTime(us: number): string {
  const ms = Math.floor(us / 1000);
  if (ms !== lastMs) {
    lastPrefix = new Date(ms).toISOString().slice(0, 23); // ...T12:00:00.123
    lastMs = ms;
  }
  const micros = Math.floor(us - ms * 1000);
  return `${lastPrefix}${micros < 10 ? '00' : micros < 100 ? '0' : ''}${micros}Z`;
}

/** The current time in microseconds since the epoch. */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/** The audit user of a user (no empty uid, groups or extra, as Go omits them). */
export function auditUser(u: { name: string; uid?: string; groups?: readonly string[]; extra?: Record<string, string[]> } | undefined): AuditUser {
  if (!u) return {};
  const out: AuditUser = { username: u.name };
  if (u.uid) out.uid = u.uid;
  if (u.groups?.length) out.groups = [...u.groups];
  if (u.extra && Object.keys(u.extra).length) out.extra = u.extra;
  return out;
}

/** The metadata-level copy of a Status (upstream copies these bounded fields only). */
export function statusOf(s: { status?: string; message?: string; reason?: string; details?: unknown; code?: number }): ResponseStatus {
  const out: ResponseStatus = { metadata: {} };
  if (s.status) out.status = s.status;
  if (s.message) out.message = s.message;
  if (s.reason) out.reason = s.reason;
  if (s.details !== undefined && s.details !== null) out.details = s.details;
  if (s.code) out.code = s.code;
  return out;
}

const goQuote = (s: string) => JSON.stringify(s);

/**
 * An event's JSON in Go's field order (as upstream's log lines read,
 * whatever order the fields were set in). `middle` is the JSON of the fields
 * from requestURI to objectRef without its braces (`eventMiddle`): they stay
 * the same through a request's stages, so a caller that keeps it serializes
 * them once, not at every stage.
 */
export function eventJSON(ev: AuditEvent, middle: string = eventMiddle(ev)): string {
  const tail = JSON.stringify({
    responseStatus: ev.responseStatus,
    requestObject: ev.requestObject,
    responseObject: ev.responseObject,
    requestReceivedTimestamp: ev.requestReceivedTimestamp,
    stageTimestamp: ev.stageTimestamp,
    annotations: ev.annotations,
  });
  return `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":${goQuote(ev.level)},"auditID":${goQuote(ev.auditID)},"stage":${goQuote(ev.stage)},${middle},${tail.slice(1)}`;
}

/** The JSON of an event's requestURI, verb, user, impersonatedUser, sourceIPs, userAgent and objectRef, braces dropped (never empty: requestURI is always there). */
export function eventMiddle(ev: AuditEvent): string {
  const json = JSON.stringify({
    requestURI: ev.requestURI,
    verb: ev.verb,
    user: ev.user,
    impersonatedUser: ev.impersonatedUser,
    sourceIPs: ev.sourceIPs,
    userAgent: ev.userAgent,
    objectRef: ev.objectRef,
  });
  return json.slice(1, -1);
}

/** The one-line text of --audit-log-format=legacy (upstream's EventString). */
export function legacyLine(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (ev.user.username) {
    username = ev.user.username;
    if (ev.user.groups?.length) groups = ev.user.groups.map(goQuote).join(',');
  }
  let asUser = '<self>';
  let asGroups = '<lookup>';
  if (ev.impersonatedUser) {
    asUser = ev.impersonatedUser.username ?? '';
    if (ev.impersonatedUser.groups) asGroups = ev.impersonatedUser.groups.map(goQuote).join(',');
  }
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code ?? 0) : '<deferred>';
  const ip = ev.sourceIPs?.[0] ?? '<unknown>';
  // Go's RFC3339Nano drops trailing zeros of the fraction
  const received = ev.requestReceivedTimestamp.replace(/\.?0+Z$/, 'Z');
  return (
    `${received} AUDIT: id=${goQuote(ev.auditID)} stage=${goQuote(ev.stage)} ip=${goQuote(ip)} method=${goQuote(ev.verb)} user=${goQuote(username)} ` +
    `groups=${goQuote(groups)} as=${goQuote(asUser)} asgroups=${goQuote(asGroups)} user-agent=${goQuote(ev.userAgent ?? '')} namespace=${goQuote(namespace)} ` +
    `uri=${goQuote(ev.requestURI)} response="${response}"`
  );
}
