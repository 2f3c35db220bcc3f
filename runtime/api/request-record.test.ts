// The request record: the client's audit ID or a fresh one, first annotation value kept.
import { describe, expect, it } from 'vitest';
import { addAuditAnnotation, newRequestRecord } from './request-record.ts';

describe('request record', () => {
  it.each([
    ['client id kept', 'abc-123', 'abc-123'],
    ['empty header: a new one', '', undefined],
    ['no header: a new one', undefined, undefined],
  ])('%s', (_n, header, want) => {
    const r = newRequestRecord(header, 5);
    if (want) expect(r.auditID).toBe(want);
    else expect(r.auditID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(r.receivedAt).toBe(5);
  });

  it('keeps the first value of an annotation key', () => {
    const r = newRequestRecord(undefined);
    expect(addAuditAnnotation(r, 'k8s.io/deprecated', 'true')).toBe(true);
    expect(addAuditAnnotation(r, 'k8s.io/deprecated', 'false')).toBe(false);
    expect(r.annotations).toEqual({ 'k8s.io/deprecated': 'true' });
  });
});
