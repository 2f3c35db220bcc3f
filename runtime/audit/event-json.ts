// The JSON text of an audit Event, written field by field in Go's order of
// audit.k8s.io/v1 (as upstream's log lines read, whatever order the fields
// were set in) without building the objects JSON.stringify would need: a
// string with nothing to escape is quoted as it is, anything else goes
// through JSON.stringify, so the text is what JSON.stringify writes for the
// same fields in Go's order (event-json.test.ts holds the two side by side);
// the timestamps are MicroTime texts, which have nothing to escape.
// The parts of an event that stay the same through a request's stages
// (kind to auditID: `eventHead`, requestURI to objectRef: `eventMiddle`)
// are made once by the caller, each one piece in memory; `eventPieces`
// gives a stage's text as those pieces, its stage and the rest, not joined
// (the log writes them one after the other into its write buffer). A
// user's text is kept with the user (auditUser in event.ts gives one frozen
// user per authenticated identity), so a request of a known identity does not
// serialize its user at all. The strings of the audit's own vocabulary
// (kind, apiVersion, levels, stages, a status that is only a code) are
// quoted from tables, not checked for escapes each time. The request and
// response objects and a Status's details are JSON.stringify's.

import type { AuditEvent, AuditUser, ObjectReference, ResponseStatus } from './event.ts';
import { AUDIT_API_VERSION, LEVELS, STAGES } from './policy.ts';

/** What JSON.stringify escapes in a string: the quote, the backslash, control characters, and surrogates (a lone one is escaped). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string's JSON text, as JSON.stringify writes it. */
export function jsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** The audit's own words, which have nothing to escape (compared by identity first: they are the same strings each time). */
const KNOWN: readonly string[] = ['Event', AUDIT_API_VERSION, ...LEVELS, ...STAGES];
const KNOWN_TEXT: readonly string[] = KNOWN.map((w) => `"${w}"`);

/** jsonString of a word that is most likely one of the audit's own. */
function knownString(s: string): string {
  for (let i = 0; i < KNOWN.length; i++) if (KNOWN[i] === s) return KNOWN_TEXT[i];
  return jsonString(s);
}

function stringsJSON(list: readonly string[]): string {
  let out = '[';
  for (let i = 0; i < list.length; i++) out += i === 0 ? jsonString(list[i]) : `,${jsonString(list[i])}`;
  return `${out}]`;
}

/** `,"key":<value>` for a field JSON.stringify would write (undefined when it would leave the field out). */
function anyField(key: string, value: unknown): string {
  if (value === undefined) return '';
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? '' : `,"${key}":${text}`;
}

const strField = (key: string, value: string | undefined): string => (value === undefined ? '' : `,"${key}":${jsonString(value)}`);

/** A number field as JSON.stringify writes it (not finite: null). */
const numField = (key: string, value: number | undefined): string => (value === undefined ? '' : `,"${key}":${Number.isFinite(value) ? `${value}` : 'null'}`);

/** Whether JSON.stringify writes `{}` for the value without asking it anything (a plain object with no fields). */
function isPlainEmpty(value: object | undefined): boolean {
  if (value === undefined || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const _k in value) return false;
  return true;
}

/** An object field, written without JSON.stringify when it is empty (a status's `metadata: {}`). */
function emptyOrAnyField(key: string, value: object | undefined): string {
  if (value === undefined) return '';
  return isPlainEmpty(value) ? `,"${key}":{}` : anyField(key, value);
}

/** An object's text from its fields' `,"key":value` parts. */
const object = (fields: string): string => (fields === '' ? '{}' : `{${fields.slice(1)}}`);

const userTexts = new WeakMap<AuditUser, string>();

/** A user's JSON (username, uid, groups, extra); kept for a frozen user, which cannot change after. */
export function userJSON(u: AuditUser): string {
  const kept = userTexts.get(u);
  if (kept !== undefined) return kept;
  const text = object(strField('username', u.username) + strField('uid', u.uid) + (u.groups === undefined ? '' : `,"groups":${stringsJSON(u.groups)}`) + anyField('extra', u.extra));
  if (Object.isFrozen(u)) userTexts.set(u, text);
  return text;
}

function objectRefJSON(r: ObjectReference): string {
  return object(
    strField('resource', r.resource) +
      strField('namespace', r.namespace) +
      strField('name', r.name) +
      strField('uid', r.uid) +
      strField('apiGroup', r.apiGroup) +
      strField('apiVersion', r.apiVersion) +
      strField('resourceVersion', r.resourceVersion) +
      strField('subresource', r.subresource),
  );
}

/** The `,"responseStatus":...` fields of statuses that are only a code (`{"metadata":{},"code":200}`), by code. */
const codeOnly = new Map<number, string>();

/** An event's `,"responseStatus":<status>` (a status that is only a code: its text kept by code). */
function statusField(s: ResponseStatus): string {
  if (s.status === undefined && s.message === undefined && s.reason === undefined && s.details === undefined && typeof s.code === 'number' && isPlainEmpty(s.metadata)) {
    let text = codeOnly.get(s.code);
    if (text === undefined) {
      text = `,"responseStatus":{"metadata":{}${numField('code', s.code)}}`;
      if (codeOnly.size < 1000) codeOnly.set(s.code, text);
    }
    return text;
  }
  return `,"responseStatus":${statusJSON(s)}`;
}

/** A response status's JSON (metadata, status, message, reason, details, code). */
function statusJSON(s: ResponseStatus): string {
  return object(
    emptyOrAnyField('metadata', s.metadata) + strField('status', s.status) + strField('message', s.message) + strField('reason', s.reason) + anyField('details', s.details) + numField('code', s.code),
  );
}

/**
 * The string made one piece in memory. V8 keeps a string built with `+` as
 * a tree of its parts, copied into one piece when it is written out; a
 * part of every stage's line (the head, the middle) is made one piece here
 * once per request, not walked again for each line. Reading a character of
 * such a tree makes V8 flatten it in place.
 */
function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

/** An event's timestamp quoted: a MicroTime text (event.ts microTime: digits, `-`, `:`, `T`, `.`, `Z`) has nothing to escape. */
const timeString = (t: string): string => `"${t}"`;

/** The JSON of an event's requestURI, verb, user, impersonatedUser, sourceIPs, userAgent and objectRef, braces dropped (never empty: requestURI is always there). */
export function eventMiddle(ev: AuditEvent): string {
  let out = `"requestURI":${jsonString(ev.requestURI)}${strField('verb', ev.verb)},"user":${userJSON(ev.user)}`;
  if (ev.impersonatedUser !== undefined) out += `,"impersonatedUser":${userJSON(ev.impersonatedUser)}`;
  if (ev.sourceIPs !== undefined) out += `,"sourceIPs":${stringsJSON(ev.sourceIPs)}`;
  out += strField('userAgent', ev.userAgent);
  if (ev.objectRef !== undefined) out += `,"objectRef":${objectRefJSON(ev.objectRef)}`;
  return flat(out);
}

/** The text of an annotations map (`{"key":"value",...}`). */
function annotationsJSON(annotations: Record<string, string>): string {
  let out = '';
  for (const k in annotations) out += `,${jsonString(k)}:${jsonString(annotations[k])}`;
  return object(out);
}

/** `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"<level>","auditID":` by level (an event's kind and apiVersion are always these). */
const HEAD_PREFIX = new Map<string, string>(LEVELS.map((l) => [l, `{"kind":"Event","apiVersion":"${AUDIT_API_VERSION}","level":"${l}","auditID":`]));

/** The JSON of an event's kind, apiVersion, level and auditID, the opening brace kept, the closing comma too (the same through a request's stages). */
export function eventHead(ev: AuditEvent): string {
  const prefix = ev.kind === 'Event' && ev.apiVersion === AUDIT_API_VERSION ? HEAD_PREFIX.get(ev.level) : undefined;
  if (prefix === undefined) return `{"kind":${knownString(ev.kind)},"apiVersion":${knownString(ev.apiVersion)},"level":${knownString(ev.level)},"auditID":${jsonString(ev.auditID)},`;
  return flat(`${prefix}${jsonString(ev.auditID)},`);
}

/** `"stage":"<stage>",` by stage. */
const STAGE_FIELD = new Map<string, string>(STAGES.map((st) => [st, `"stage":"${st}",`]));

/**
 * An event's JSON in Go's field order. `head` and `middle` are eventHead's
 * and eventMiddle's texts: the same through a request's stages, a caller that
 * keeps them serializes those fields once, not at every stage.
 */
export function eventJSON(ev: AuditEvent, head: string = eventHead(ev), middle: string = eventMiddle(ev)): string {
  return head + stageField(ev) + middle + eventTail(ev);
}

/**
 * eventJSON's text in pieces, not joined: the head, the stage, the middle
 * (the same strings at each of a request's stages) and the rest. A backend
 * writes the pieces one after the other (the log: into its write buffer)
 * without a joined copy of the line per stage.
 */
export function eventPieces(ev: AuditEvent, head: string, middle: string): string[] {
  return [head, stageField(ev), middle, eventTail(ev)];
}

const stageField = (ev: AuditEvent): string => STAGE_FIELD.get(ev.stage) ?? `"stage":${jsonString(ev.stage)},`;

/** The fields after the middle (responseStatus to annotations) and the closing brace. */
function eventTail(ev: AuditEvent): string {
  let out = ev.responseStatus === undefined ? '' : statusField(ev.responseStatus);
  if (ev.requestObject !== undefined) out += anyField('requestObject', ev.requestObject);
  if (ev.responseObject !== undefined) out += anyField('responseObject', ev.responseObject);
  out += `,"requestReceivedTimestamp":${timeString(ev.requestReceivedTimestamp)},"stageTimestamp":${timeString(ev.stageTimestamp)}`;
  if (ev.annotations !== undefined) out += `,"annotations":${annotationsJSON(ev.annotations)}`;
  return `${out}}`;
}
