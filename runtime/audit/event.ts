// The audit.k8s.io/v1 Event as kube-apiserver writes it: its fields in Go's
// order (so a JSON line reads like upstream's), MicroTime timestamps
// (RFC 3339 in UTC with microseconds), the metadata-level response status
// (a Status's status, message, reason, details and code, `metadata: {}`
// always present as Go writes it), and the one-line `legacy` text of
// --audit-log-format=legacy. The JSON text of an event is event-json.ts's.

import type { Level, Stage } from './policy.ts';

export interface AuditUser {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
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

let lastSecond = NaN;
let secondPrefix = '';

/**
 * MicroTime text of a time in microseconds since the epoch:
 * `2024-05-01T12:00:00.123456Z` (the date and time to the second are made
 * once per second, the fraction is the six digits of the microseconds).
 */
export function microTime(us: number): string {
  const second = Math.floor(us / 1_000_000);
  if (second !== lastSecond) {
    secondPrefix = new Date(second * 1000).toISOString().slice(0, 20); // ...T12:00:00.
    lastSecond = second;
  }
  return `${secondPrefix}${`${1_000_000 + Math.floor(us - second * 1_000_000)}`.slice(1)}Z`;
}

/** The current time in microseconds since the epoch. */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

type UserInfoLike = { name: string; uid?: string; groups?: readonly string[]; extra?: Record<string, string[]> };

/** The user of an event of a failed authentication (nobody). */
const NO_USER: AuditUser = Object.freeze({});

const auditUsers = new WeakMap<UserInfoLike, AuditUser>();

/**
 * The audit user of a user (no empty uid, groups or extra, as Go omits
 * them), frozen, and the same one for the same user object: authentication
 * hands the same object for the same identity (the anonymous user, a
 * token's cache entry), so its audit user and that user's JSON
 * (event-json.ts) are made once. A user is not changed once authenticated.
 */
export function auditUser(u: UserInfoLike | undefined): AuditUser {
  if (!u) return NO_USER;
  let out = auditUsers.get(u);
  if (out === undefined) {
    const user: { -readonly [K in keyof AuditUser]: AuditUser[K] } = { username: u.name };
    if (u.uid) user.uid = u.uid;
    if (u.groups?.length) user.groups = Object.freeze([...u.groups]);
    if (u.extra && Object.keys(u.extra).length) {
      const extra: Record<string, readonly string[]> = {};
      for (const [k, v] of Object.entries(u.extra)) extra[k] = Object.freeze([...v]);
      user.extra = Object.freeze(extra);
    }
    out = Object.freeze(user);
    auditUsers.set(u, out);
  }
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
