// The deadline of a request from --request-timeout and ?timeout=.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { allottedTimeoutError, requestDeadlineMs, withDeadline } from './request-timeout.ts';
import { parseRequestInfo } from './request-info.ts';

describe('requestDeadlineMs', () => {
  it.each([
    ['absent', null, 60_000, 60_000],
    ['empty', '', 60_000, 60_000],
    ['shorter wins', '10s', 60_000, 10_000],
    ['sub-millisecond rounds up', '10us', 60_000, 1],
    ['longer is capped', '5m', 60_000, 60_000],
    ['equal keeps the maximum', '1m', 60_000, 60_000],
    ['0s means the server default', '0s', 60_000, 60_000],
    ['negative means the server default', '-5s', 60_000, 60_000],
    ['without a server maximum the request decides', '250ms', 0, 250],
    ['without a server maximum and none asked: no deadline', null, 0, 0],
  ])('%s', (_n, param, max, want) => {
    expect(requestDeadlineMs(param, max)).toBe(want);
  });

  it.each([
    ['foo', 'invalid timeout specified in the request URL - time: invalid duration "foo"'],
    ['10', 'invalid timeout specified in the request URL - time: missing unit in duration "10"'],
    ['1d', 'invalid timeout specified in the request URL - time: unknown unit "d" in duration "1d"'],
  ])('%j is 400 BadRequest', (param, message) => {
    let err: unknown;
    try {
      requestDeadlineMs(param, 60_000);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status()).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });

  it("answers the deadline with upstream's Status", () => {
    expect(allottedTimeoutError().status()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Timeout: request did not complete within the allotted timeout',
      reason: 'Timeout',
      details: {},
      code: 504,
    });
    expect(allottedTimeoutError().headers).toBeUndefined();
  });
});

describe('withDeadline (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const get = parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps/a', new URLSearchParams());
  const watch = parseRequestInfo('GET', '/api/v1/configmaps', new URLSearchParams('watch=true'));
  const exec = parseRequestInfo('POST', '/api/v1/namespaces/default/pods/p/exec', new URLSearchParams('command=sh'));
  const proxy = parseRequestInfo('GET', '/api/v1/namespaces/default/services/s/proxy/x', new URLSearchParams());
  const log = parseRequestInfo('GET', '/api/v1/namespaces/default/pods/p/log', new URLSearchParams('follow=true'));
  /** A run that finishes when told to, and says whether it finished. */
  const pending = () => {
    let finish!: () => void;
    let fail!: (e: Error) => void;
    const p = new Promise<void>((res, rej) => {
      finish = res;
      fail = rej;
    });
    return { run: () => p, finish, fail };
  };
  const outcome = (p: Promise<void> | void) =>
    Promise.resolve(p).then(
      () => 'done',
      (e: unknown) => (e instanceof ApiError ? `${e.code} ${e.reason}` : (e as Error).message),
    );

  it('settles as the request does before its deadline', async () => {
    const ok = pending();
    const a = outcome(withDeadline(get, new URLSearchParams(), 60_000, ok.run));
    vi.advanceTimersByTime(59_999);
    ok.finish();
    expect(await a).toBe('done');
    const bad = pending();
    const b = outcome(withDeadline(get, new URLSearchParams(), 60_000, bad.run));
    bad.fail(new Error('boom'));
    expect(await b).toBe('boom');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is 504 at the deadline, and what the request does later is dropped', async () => {
    const slow = pending();
    const a = outcome(withDeadline(get, new URLSearchParams(), 60_000, slow.run));
    vi.advanceTimersByTime(60_000);
    expect(await a).toBe('504 Timeout');
    slow.fail(new Error('late'));
  });

  it('a shorter ?timeout= sets the deadline', async () => {
    const slow = pending();
    const a = outcome(withDeadline(get, new URLSearchParams('timeout=2s'), 60_000, slow.run));
    vi.advanceTimersByTime(2000);
    expect(await a).toBe('504 Timeout');
  });

  it('an answer at hand is returned as it is (no promise, no timer); one thrown at once is thrown', () => {
    expect(withDeadline(get, new URLSearchParams(), 60_000, () => 'now')).toBe('now');
    expect(vi.getTimerCount()).toBe(0);
    expect(() =>
      withDeadline(get, new URLSearchParams(), 60_000, () => {
        throw new Error('at once');
      }),
    ).toThrow('at once');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the time run() took before it had to wait counts against the deadline', async () => {
    const slow = pending();
    const a = outcome(
      withDeadline(get, new URLSearchParams('timeout=2s'), 60_000, () => {
        vi.setSystemTime(Date.now() + 1500); // synchronous work before the first wait
        return slow.run();
      }),
    );
    vi.advanceTimersByTime(499);
    slow.finish();
    expect(await a).toBe('done');
    const slower = pending();
    const b = outcome(
      withDeadline(get, new URLSearchParams('timeout=2s'), 60_000, () => {
        vi.setSystemTime(Date.now() + 1500);
        return slower.run();
      }),
    );
    vi.advanceTimersByTime(500);
    expect(await b).toBe('504 Timeout');
  });

  it('long-running requests (watch, exec, proxy, log) and a server without a deadline are not timed', async () => {
    for (const [info, max] of [
      [watch, 60_000],
      [exec, 60_000],
      [proxy, 60_000],
      [log, 60_000],
      [get, 0],
    ] as const) {
      const slow = pending();
      const a = outcome(withDeadline(info, new URLSearchParams(), max, slow.run));
      expect(vi.getTimerCount()).toBe(0);
      vi.advanceTimersByTime(10 * 60_000);
      slow.finish();
      expect(await a).toBe('done');
    }
  });
});
