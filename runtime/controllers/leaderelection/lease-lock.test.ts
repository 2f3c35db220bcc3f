import { describe, expect, it } from 'vitest';
import { formatMicroTime, leaseSpecOf, recordOfLease } from './lease-lock.ts';

describe('the record as a Lease spec', () => {
  it('writes MicroTime with six fractional digits', () => {
    expect(formatMicroTime(Date.UTC(2024, 0, 2, 3, 4, 5, 123))).toBe('2024-01-02T03:04:05.123000Z');
  });
  it('round-trips through the spec', () => {
    const r = { holderIdentity: 'host_0b4c', leaseDurationSeconds: 15, acquireTime: Date.UTC(2024, 0, 2), renewTime: Date.UTC(2024, 0, 2, 0, 0, 2, 500), leaseTransitions: 3 };
    expect(leaseSpecOf(r)).toEqual({
      holderIdentity: 'host_0b4c',
      leaseDurationSeconds: 15,
      acquireTime: '2024-01-02T00:00:00.000000Z',
      renewTime: '2024-01-02T00:00:02.500000Z',
      leaseTransitions: 3,
    });
    expect(recordOfLease({ spec: leaseSpecOf(r) })).toEqual(r);
  });
  it('reads a Lease another client wrote with fields missing as an empty record', () => {
    expect(recordOfLease({ spec: { renewTime: 'garbage' } })).toEqual({ holderIdentity: '', leaseDurationSeconds: 0, acquireTime: 0, renewTime: 0, leaseTransitions: 0 });
  });
});
