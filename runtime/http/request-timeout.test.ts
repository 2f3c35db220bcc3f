// The deadline of a request from --request-timeout and ?timeout=.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { allottedTimeoutError, requestDeadlineMs } from './request-timeout.ts';

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
