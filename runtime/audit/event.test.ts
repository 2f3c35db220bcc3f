import { describe, expect, it } from 'vitest';
import { Auditor } from './auditor.ts';
import type { AuditEvent } from './event.ts';
import { eventJSON } from './event-json.ts';
import { parsePolicy } from './policy.ts';
import { type AuditBackend, joinText } from './sink.ts';
import { EVENT_FIELDS } from '../../test/support/audit-order.ts';

const GO_ORDER = EVENT_FIELDS;

const base: AuditEvent = {
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'Metadata',
  auditID: 'a-1',
  stage: 'RequestReceived',
  requestURI: '/api/v1/namespaces/default/configmaps/x?timeout=3s',
  verb: 'get',
  user: { username: 'alice', groups: ['system:authenticated'] },
  requestReceivedTimestamp: '2026-11-24T00:00:00.000001Z',
  stageTimestamp: '2026-11-24T00:00:00.000002Z',
};

describe('eventJSON', () => {
  const rows: [string, Partial<AuditEvent>][] = [
    ['the fields every event has', {}],
    ['optional fields set in another order than Go writes them', { annotations: { 'k8s.io/deprecated': 'true' }, impersonatedUser: { username: 'bob' }, responseStatus: { metadata: {}, code: 200 } }],
    [
      'objects, source IPs, user agent and objectRef',
      { sourceIPs: ['10.0.0.1'], userAgent: 'kubectl/v1.31 "quoted"', objectRef: { resource: 'configmaps', name: 'x' }, requestObject: { a: [1] }, responseObject: { b: null } },
    ],
    ['text that needs escaping', { requestURI: '/x?q=\u2028"\\', auditID: 'id"\n' }],
  ];
  it.each(rows)('%s: the JSON of the event with its fields in Go order', (_name, extra) => {
    const ev = { ...extra, ...base, ...extra } as AuditEvent;
    const ordered: Record<string, unknown> = {};
    for (const k of GO_ORDER) if ((ev as unknown as Record<string, unknown>)[k] !== undefined) ordered[k] = (ev as unknown as Record<string, unknown>)[k];
    const json = eventJSON(ev);
    expect(json).toBe(JSON.stringify(ordered));
    expect(Object.keys(JSON.parse(json) as object)).toEqual(GO_ORDER.filter((k) => k in ordered));
  });
});

describe('RequestAudit events through the stages', () => {
  it('carries what changed between stages (impersonation, the request body) into the next line', async () => {
    const lines: string[] = [];
    const backend: AuditBackend = { process: (_ev, json) => (lines.push(joinText(json)), true), flush: async () => {}, close: async () => {} };
    const auditor = new Auditor(parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Request\n'), backend, () => 1_700_000_000_000_000);
    const attrs = {
      isResourceRequest: true,
      verb: 'create',
      apiGroup: '',
      apiVersion: 'v1',
      resource: 'configmaps',
      namespace: 'default',
      name: '',
      subresource: '',
      path: '/api/v1/namespaces/default/configmaps',
    };
    const audit = auditor.begin(
      { attrs, auditID: 'id-1', requestURI: attrs.path, userAgent: 'ua', sourceIPs: ['127.0.0.1'], receivedAt: 1_700_000_000_000, annotations: {} },
      { name: 'alice', groups: ['g'] },
    )!;
    audit.impersonated({ name: 'bob', groups: [] });
    audit.requestObject({ name: 'made', namespace: 'default' }, { kind: 'ConfigMap', metadata: { name: 'made' } });
    await audit.complete({ metadata: {}, code: 201 });
    const [received, complete] = lines.map((l) => JSON.parse(l) as AuditEvent);
    expect(received.stage).toBe('RequestReceived');
    expect(received.impersonatedUser).toBeUndefined();
    expect(received.objectRef).toEqual({ resource: 'configmaps', namespace: 'default', apiVersion: 'v1' });
    expect(complete.stage).toBe('ResponseComplete');
    expect(complete.impersonatedUser).toEqual({ username: 'bob' });
    expect(complete.objectRef).toEqual({ resource: 'configmaps', namespace: 'default', name: 'made', apiVersion: 'v1' });
    expect(complete.requestObject).toEqual({ kind: 'ConfigMap', metadata: { name: 'made' } });
    expect(complete.responseStatus).toEqual({ metadata: {}, code: 201 });
  });
});
