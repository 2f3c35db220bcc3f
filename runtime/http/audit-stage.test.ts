import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { Auditor } from '../audit/auditor.ts';
import { joinText } from '../audit/sink.ts';
import type { AuditEvent } from '../audit/event.ts';
import { parsePolicy } from '../audit/policy.ts';
import { newRequestRecord, type RequestRecord } from '../api/request-record.ts';
import { auditStage, sourceIPs } from './audit-stage.ts';
import { parseRequestInfo } from './request-info.ts';

describe('sourceIPs (upstream SourceIPs)', () => {
  const rows: [string, string | undefined, string | undefined, string | undefined, string[]][] = [
    ['the peer alone', undefined, undefined, '127.0.0.1', ['127.0.0.1']],
    ['an IPv4-mapped peer prints as IPv4', undefined, undefined, '::ffff:10.1.2.3', ['10.1.2.3']],
    ['X-Forwarded-For entries, invalid ones skipped, then the peer', '1.2.3.4, nope ,5.6.7.8', undefined, '127.0.0.1', ['1.2.3.4', '5.6.7.8', '127.0.0.1']],
    ['X-Real-Ip after them unless already there', '1.2.3.4', '1.2.3.4', '127.0.0.1', ['1.2.3.4', '127.0.0.1']],
    ['X-Real-Ip added', undefined, '9.9.9.9', '127.0.0.1', ['9.9.9.9', '127.0.0.1']],
    ['the peer not repeated when it is the last one', '1.2.3.4, 127.0.0.1', undefined, '127.0.0.1', ['1.2.3.4', '127.0.0.1']],
    ['IPv6', '2001:DB8::1', undefined, '::1', ['2001:db8::1', '::1']],
    ['no peer (in-process)', undefined, undefined, undefined, []],
    ['an upper-case IPv4-mapped peer', undefined, undefined, '::FFFF:10.1.2.3', ['10.1.2.3']],
    ['a peer that is no IP', undefined, undefined, 'nope', []],
    ['the same peer again after another one', undefined, undefined, '127.0.0.1', ['127.0.0.1']],
  ];
  it.each(rows)('%s', (_name, xff, real, remote, want) => {
    expect(sourceIPs(xff, real, remote)).toEqual(want);
  });
});

describe('the audit stage: deprecation annotations', () => {
  it('adds k8s.io/deprecated and k8s.io/removed-release when the record marks the request deprecated', async () => {
    const seen: AuditEvent[] = [];
    const auditor = new Auditor(parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Metadata}]'), {
      process: (_ev, json) => {
        seen.push(JSON.parse(joinText(json)) as AuditEvent);
        return true;
      },
      flush: async () => {},
      close: async () => {},
    });
    const stage = auditStage(auditor);
    const app = new Hono<{ Variables: { record: RequestRecord; info: ReturnType<typeof parseRequestInfo> } }>();
    app.get('*', (c) => {
      const record = newRequestRecord('dep-1');
      c.set('record', record);
      const info = parseRequestInfo('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas', new URLSearchParams());
      c.set('info', info);
      void stage.begin(c, info, { name: 'u', groups: [] });
      record.deprecated = { removedRelease: '1.32' };
      return stage.answered(c, new Response('{}', { headers: { 'content-type': 'application/json' } }));
    });
    await app.request('/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas');
    expect(seen.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(seen[0].annotations).toBeUndefined();
    expect(seen[1].annotations).toEqual({ 'k8s.io/deprecated': 'true', 'k8s.io/removed-release': '1.32' });
    expect(seen[1].objectRef).toEqual({ resource: 'flowschemas', apiGroup: 'flowcontrol.apiserver.k8s.io', apiVersion: 'v1beta3' });
  });
});
