import { describe, expect, it } from 'vitest';
import { Auditor } from './auditor.ts';
import { type AuditEvent, auditUser, microTime, statusOf } from './event.ts';
import { eventHead, eventJSON, eventMiddle, eventPieces, jsonString, userJSON } from './event-json.ts';
import { parsePolicy } from './policy.ts';
import { type AuditBackend, joinText } from './sink.ts';
import { EVENT_FIELDS, OBJECT_REF_FIELDS, USER_FIELDS } from '../../test/support/audit-order.ts';

const EVENT = EVENT_FIELDS;
const USER = USER_FIELDS;
const OBJECT_REF = OBJECT_REF_FIELDS;
const STATUS = ['metadata', 'status', 'message', 'reason', 'details', 'code'];

/** A copy of `o` with its fields in `order` (undefined ones left out, as JSON.stringify leaves them). */
function ordered(o: object | undefined, order: string[]): Record<string, unknown> | undefined {
  if (o === undefined) return undefined;
  const src = o as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of order) if (src[k] !== undefined) out[k] = src[k];
  return out;
}

/** The reference: the event and its users, objectRef and status in Go order, written by JSON.stringify. */
function reference(ev: AuditEvent): string {
  const e = ordered(ev, EVENT)!;
  if (e.user) e.user = ordered(ev.user, USER);
  if (e.impersonatedUser) e.impersonatedUser = ordered(ev.impersonatedUser, USER);
  if (e.objectRef) e.objectRef = ordered(ev.objectRef, OBJECT_REF);
  if (e.responseStatus) e.responseStatus = ordered(ev.responseStatus, STATUS);
  return JSON.stringify(e);
}

const base: AuditEvent = {
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'Metadata',
  auditID: '8f4a3a1e-0c7b-4b7e-9d38-1f0c2a6d9e51',
  stage: 'ResponseComplete',
  requestURI: '/api/v1/namespaces/default/configmaps/x',
  verb: 'get',
  user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
  sourceIPs: ['127.0.0.1'],
  objectRef: { resource: 'configmaps', namespace: 'default', name: 'x', apiVersion: 'v1' },
  responseStatus: { metadata: {}, code: 200 },
  requestReceivedTimestamp: '2026-11-24T00:00:00.000001Z',
  stageTimestamp: '2026-11-24T00:00:00.000002Z',
  annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
};

const ROWS: [string, Partial<AuditEvent>][] = [
  ['a GET at Metadata as the log writes it', {}],
  ['RequestReceived: no status, no annotations', { stage: 'RequestReceived', responseStatus: undefined, annotations: undefined }],
  ['a user with uid, groups and extra', { user: auditUser({ name: 'alice', uid: 'u-1', groups: ['system:authenticated', 'dev'], extra: { 'scopes.example.com': ['a', 'b'], empty: [] } }) }],
  ['impersonation', { user: auditUser({ name: 'admin', groups: ['system:masters'] }), impersonatedUser: auditUser({ name: 'bob', groups: ['g1'], extra: { 'x/y': ['1'] } }) }],
  [
    'a 404 with its Status fields and details',
    {
      responseStatus: statusOf({
        status: 'Failure',
        message: 'configmaps "x" not found',
        reason: 'NotFound',
        details: { name: 'x', kind: 'configmaps' },
        code: 404,
      }),
    },
  ],
  ['annotations that need escaping, numeric keys first', { annotations: { 'b"\\': 'v\n', '10': 'ten', a: '\u2028\ud800' } }],
  ['text that needs escaping everywhere', { requestURI: '/x?q="\\\u0001', auditID: 'id"', userAgent: 'kubectl/v1.31 "quoted" \u00e9 \ud83d\ude00', sourceIPs: ['10.0.0.1', '::1'] }],
  [
    'objectRef with every field, set in another order than Go writes them',
    { objectRef: { subresource: 'status', uid: 'u', resourceVersion: '7', apiGroup: 'apps', name: 'n', namespace: 'ns', resource: 'deployments', apiVersion: 'v1' } },
  ],
  ['request and response objects', { level: 'RequestResponse', requestObject: { kind: 'ConfigMap', data: { k: 'v' } }, responseObject: { items: [1, null, 'x'] } }],
  ['an empty user (a failed authentication), no source IPs, empty objectRef', { user: {}, sourceIPs: undefined, objectRef: {} }],
  ['a status with a code that is not a number Go writes', { responseStatus: { metadata: {}, code: NaN } }],
  ['a status with only a code (its text kept by code)', { responseStatus: { metadata: {}, code: 201 } }],
  ['the same code again, with metadata that is not empty', { responseStatus: { metadata: { x: 1 } as never, code: 201 } }],
  ['a status with no code', { responseStatus: { metadata: {}, reason: 'Timeout' } }],
];

describe('eventJSON (the log line) against JSON.stringify of the event in Go order', () => {
  it.each(ROWS)('%s', (_name, change) => {
    const ev = { ...base, ...change } as AuditEvent;
    const json = eventJSON(ev);
    expect(json).toBe(reference(ev));
    expect(eventJSON(ev, eventHead(ev), eventMiddle(ev))).toBe(json);
    expect(eventPieces(ev, eventHead(ev), eventMiddle(ev)).join('')).toBe(json);
    expect(Object.keys(JSON.parse(json) as object)).toEqual(EVENT.filter((k) => (ev as unknown as Record<string, unknown>)[k] !== undefined));
  });

  it('quotes strings as JSON.stringify does', () => {
    for (const s of ['', 'plain', '"', '\\', '\u0000\u001f\u007f', '\u2028\u2029', '\ud83d\ude00', '\ud800', '\udc00x', 'é']) expect(jsonString(s)).toBe(JSON.stringify(s));
  });

  it('a user is serialized once: the same frozen user for the same user info, its JSON kept', () => {
    const info = { name: 'carol', groups: ['g'] };
    const u = auditUser(info);
    expect(auditUser(info)).toBe(u);
    expect(Object.isFrozen(u) && Object.isFrozen(u.groups)).toBe(true);
    expect(userJSON(u)).toBe('{"username":"carol","groups":["g"]}');
    expect(userJSON(u)).toBe(userJSON(u));
  });
});

describe('the events of a request through its stages against the reference', () => {
  it.each([
    ['Metadata GET', 'Metadata', 'get', ''],
    ['Request create with impersonation', 'Request', 'create', 'bob'],
  ])('%s', async (_name, level, verb, impersonate) => {
    const seen: [string, string][] = [];
    const backend: AuditBackend = { process: (ev, json) => (seen.push([joinText(json), reference(ev)]), true), flush: async () => {}, close: async () => {} };
    let t = 1_700_000_000_000_123;
    const auditor = new Auditor(parsePolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: ${level}\n`), backend, () => (t += 1_001));
    const attrs = {
      isResourceRequest: true,
      verb,
      apiGroup: '',
      apiVersion: 'v1',
      resource: 'configmaps',
      namespace: 'default',
      name: verb === 'get' ? 'x' : '',
      subresource: '',
      path: '/api/v1/namespaces/default/configmaps',
    };
    const annotations: Record<string, string> = {};
    const audit = auditor.begin(
      { attrs, auditID: 'id-1', requestURI: attrs.path, userAgent: 'ua', sourceIPs: ['127.0.0.1'], receivedAt: 1_700_000_000_000, annotations },
      { name: 'alice', groups: ['system:authenticated'], extra: { k: ['v'] } },
    )!;
    annotations['authorization.k8s.io/decision'] = 'allow';
    if (impersonate) audit.impersonated({ name: impersonate, groups: [] });
    if (verb === 'create') audit.requestObject({ name: 'made', uid: 'u-9', resourceVersion: '3' }, { kind: 'ConfigMap', metadata: { name: 'made' } });
    await audit.complete(verb === 'get' ? { metadata: {}, code: 200 } : statusOf({ status: 'Failure', message: 'exists', reason: 'AlreadyExists', details: { name: 'made' }, code: 409 }));
    expect(seen).toHaveLength(2);
    for (const [json, ref] of seen) expect(json).toBe(ref);
    expect(seen[0][0]).toContain(`"requestReceivedTimestamp":"${microTime(1_700_000_000_000_000)}"`);
  });
});

describe('microTime', () => {
  it.each([
    [0, '1970-01-01T00:00:00.000000Z'],
    [Date.parse('2026-01-02T03:04:05.678Z') * 1000 + 901, '2026-01-02T03:04:05.678901Z'],
    [Date.parse('2026-01-02T03:04:05Z') * 1000 + 7, '2026-01-02T03:04:05.000007Z'],
    [Date.parse('2026-01-02T03:04:05Z') * 1000 + 999_999, '2026-01-02T03:04:05.999999Z'],
    [Date.parse('2026-12-31T23:59:59Z') * 1000 + 1_000_000, '2027-01-01T00:00:00.000000Z'],
  ])('%d: %s', (us, want) => {
    expect(microTime(us)).toBe(want);
    // the second's text is kept: asking again (and after another second) gives the same
    expect(microTime(us + 1_000_000 - (us % 1_000_000))).not.toBe(want);
    expect(microTime(us)).toBe(want);
  });
});
