import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './event.ts';
import { joinText } from './sink.ts';
import { TRUNCATED_ANNOTATION, truncateBackend, truncateItems } from './truncate.ts';

const event = (id: string, level: AuditEvent['level'], objectBytes = 0): AuditEvent =>
  ({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level,
    auditID: id,
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/d/configmaps',
    verb: 'create',
    user: { username: 'u' },
    ...(objectBytes ? { requestObject: { data: 'x'.repeat(objectBytes) }, responseObject: { data: 'y'.repeat(objectBytes) } } : {}),
    requestReceivedTimestamp: '2026-01-02T03:04:05.000000Z',
    stageTimestamp: '2026-01-02T03:04:05.000000Z',
    annotations: { a: 'b' },
  }) as AuditEvent;
const item = (e: AuditEvent) => ({ event: e, json: JSON.stringify(e) });

describe('truncateItems (upstream truncate backend)', () => {
  const cfg = { maxEventSize: 2000, maxBatchSize: 5000 };
  it.each<[string, AuditEvent, 'kept' | 'truncated' | 'dropped']>([
    ['a small event passes as it is', event('s', 'RequestResponse', 10), 'kept'],
    ['a large one at Request and above loses its objects', event('l', 'RequestResponse', 3000), 'truncated'],
    ['a large Metadata event has nothing to lose: dropped', { ...event('m', 'Metadata'), requestURI: `/${'p'.repeat(3000)}` }, 'dropped'],
    ['one still too large without its objects is dropped', { ...event('h', 'Request', 3000), requestURI: `/${'p'.repeat(3000)}` }, 'dropped'],
  ])('%s', (_name, e, want) => {
    const { batches, dropped } = truncateItems([item(e)], cfg);
    if (want === 'dropped') {
      expect(dropped).toBe(1);
      expect(batches).toEqual([]);
      return;
    }
    expect(dropped).toBe(0);
    const out = batches[0][0];
    if (want === 'kept') {
      expect(out.json).toBe(JSON.stringify(e));
      return;
    }
    const parsed = JSON.parse(joinText(out.json)) as AuditEvent;
    expect(parsed.requestObject).toBeUndefined();
    expect(parsed.responseObject).toBeUndefined();
    expect(parsed.annotations).toEqual({ a: 'b', [TRUNCATED_ANNOTATION]: 'true' });
    // the request's own event is left alone (it goes on to later stages)
    expect(e.requestObject).toBeDefined();
    expect(e.annotations).toEqual({ a: 'b' });
  });

  it('splits events given together into batches of at most the max batch size', () => {
    const events = ['a', 'b', 'c'].map((id) => item(event(id, 'Request', 700)));
    const size = Buffer.byteLength(events[0].json) + 1;
    const { batches } = truncateItems(events, { maxEventSize: 2000, maxBatchSize: size * 2 });
    expect(batches.map((b) => b.map((i) => i.event.auditID))).toEqual([['a', 'b'], ['c']]);
  });

  it('truncateBackend passes the truncated event on and reports a dropped one', () => {
    const seen: string[] = [];
    const warnings: string[] = [];
    const failed: string[] = [];
    const b = truncateBackend(
      { process: (_e, json) => (seen.push(joinText(json)), true), flush: async () => {}, close: async () => {} },
      { maxEventSize: 2000, maxBatchSize: 10_000 },
      (m) => warnings.push(m),
      (plugin, n) => failed.push(`${plugin} ${n}`),
    );
    const big = event('l', 'RequestResponse', 3000);
    expect(b.process(big, JSON.stringify(big))).toBe(true);
    expect((JSON.parse(seen[0]) as AuditEvent).annotations?.[TRUNCATED_ANNOTATION]).toBe('true');
    const huge = { ...event('m', 'Metadata'), requestURI: `/${'p'.repeat(3000)}` };
    expect(b.process(huge, JSON.stringify(huge))).toBe(true);
    expect(seen).toHaveLength(1);
    expect(warnings).toEqual(["Error in audit plugin 'truncate' affecting 1 audit events: event is too large even after truncating"]);
    expect(failed).toEqual(['truncate 1']);
  });
});
