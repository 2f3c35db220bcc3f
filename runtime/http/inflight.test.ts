import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { InflightLimiter } from './inflight.ts';
import { parseRequestInfo } from './request-info.ts';

const info = (method: string, path: string, q = '') => parseRequestInfo(method, path, new URLSearchParams(q));
const user = { name: 'u', groups: ['system:authenticated'] };
const admin = { name: 'a', groups: ['system:masters'] };

describe('InflightLimiter', () => {
  it('refuses reads over the limit with 429 and counts them out again', () => {
    const l = new InflightLimiter(2, 1);
    const a = l.enter(info('GET', '/api/v1/pods'), user);
    l.enter(info('GET', '/api/v1/pods'), user);
    let err: unknown;
    try {
      l.enter(info('GET', '/api/v1/pods'), user);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status()).toMatchObject({ code: 429, reason: 'TooManyRequests', details: { retryAfterSeconds: 1 } });
    expect((err as ApiError).headers).toEqual({ 'Retry-After': '1' });
    a();
    a(); // idempotent
    expect(() => l.enter(info('GET', '/api/v1/pods'), user)).not.toThrow();
  });
  it('keeps mutating and read-only budgets apart', () => {
    const l = new InflightLimiter(1, 1);
    l.enter(info('POST', '/api/v1/namespaces/d/pods'), user);
    expect(() => l.enter(info('GET', '/api/v1/pods'), user)).not.toThrow();
    expect(() => l.enter(info('DELETE', '/api/v1/namespaces/d/pods/x'), user)).toThrow(ApiError);
  });
  it('never counts watches and never refuses system:masters (served beyond the limit uncounted)', () => {
    const l = new InflightLimiter(1, 1);
    l.enter(info('GET', '/api/v1/pods'), user);
    expect(() => l.enter(info('GET', '/api/v1/pods', 'watch=1'), user)).not.toThrow();
    expect(() => l.enter(info('GET', '/api/v1/pods'), admin)).not.toThrow();
    expect(l.counts.readOnly).toBe(1);
  });
  it.each([
    ['POST', '/api/v1/namespaces/d/pods/p/exec'],
    ['POST', '/api/v1/namespaces/d/pods/p/attach'],
    ['POST', '/api/v1/namespaces/d/pods/p/portforward'],
    ['GET', '/api/v1/namespaces/d/pods/p/log'],
    ['GET', '/api/v1/namespaces/d/pods/p/proxy/x'],
    ['POST', '/api/v1/namespaces/d/services/s/proxy/'],
    ['PUT', '/api/v1/nodes/n/proxy/configz'],
  ])('never counts the long-running %s %s', (method, path) => {
    const l = new InflightLimiter(1, 1);
    l.enter(info('GET', '/api/v1/pods'), user);
    l.enter(info('POST', '/api/v1/namespaces/d/pods'), user);
    expect(() => l.enter(info(method, path), user)).not.toThrow();
    expect(l.counts).toEqual({ readOnly: 1, mutating: 1 });
  });
  it('counts system:masters while under the limit', () => {
    const l = new InflightLimiter(1, 1);
    const leave = l.enter(info('GET', '/api/v1/pods'), admin);
    expect(() => l.enter(info('GET', '/api/v1/pods'), user)).toThrow(ApiError);
    leave();
    expect(() => l.enter(info('GET', '/api/v1/pods'), user)).not.toThrow();
  });
  it.each(['/healthz', '/livez', '/readyz'])('never refuses the probe %s', (path) => {
    const l = new InflightLimiter(1, 1);
    l.enter(info('GET', '/api/v1/pods'), user);
    expect(() => l.enter(info('GET', path), user)).not.toThrow();
    expect(() => l.enter(info('GET', '/version'), user)).toThrow(ApiError);
    expect(() => l.enter(info('GET', `${path}/etcd`), user)).toThrow(ApiError);
  });
  it('0 disables a limit', () => {
    const l = new InflightLimiter(0, 0);
    for (let i = 0; i < 1000; i++) l.enter(info('GET', '/api/v1/pods'), user);
    expect(l.counts.readOnly).toBe(1000);
  });
});

describe('InflightLimiter watermark (apiserver_current_inflight_requests)', () => {
  const get = info('GET', '/api/v1/pods');
  const post = info('POST', '/api/v1/namespaces/d/pods');
  it.each([
    // [arrivals as [ms, kind, leave-at-once], read at ms, expected]
    ['nothing arrived', [], 5_000, { readOnly: 0, mutating: 0 }],
    [
      'the peak of the second before',
      [
        [1_000, 'r', false],
        [1_100, 'r', false],
        [1_200, 'm', true],
      ],
      2_500,
      { readOnly: 2, mutating: 1 },
    ],
    ['not the second being measured', [[2_000, 'r', false]], 2_999, { readOnly: 0, mutating: 0 }],
    ['0 for a quiet second, even with requests still in flight', [[1_000, 'r', false]], 3_000, { readOnly: 0, mutating: 0 }],
  ] as const)('%s', (_name, arrivals, at, expected) => {
    const l = new InflightLimiter(10, 10);
    for (const [ms, kind, leaveNow] of arrivals) {
      const leave = l.enter(kind === 'r' ? get : post, user, ms);
      if (leaveNow) leave();
    }
    expect(l.watermark(at)).toEqual(expected);
  });
  it('starts each second from the counts that arrivals and departures record in it', () => {
    const l = new InflightLimiter(10, 10);
    const a = l.enter(get, user, 1_000);
    const b = l.enter(get, user, 1_010);
    const c = l.enter(get, user, 1_020);
    a();
    b();
    // second 2: one arrival while one is still in flight
    const d = l.enter(get, user, 2_000);
    expect(l.watermark(2_500)).toEqual({ readOnly: 3, mutating: 0 });
    expect(l.watermark(3_000)).toEqual({ readOnly: 2, mutating: 0 });
    c();
    d();
    expect(l.counts).toEqual({ readOnly: 0, mutating: 0 });
  });
});
