// A webhook's denial as upstream's ToStatusErr builds it: the webhook's
// code, reason and message passed through, the denial prefix, Forbidden
// by default and InternalError for a 500.
import { describe, expect, it } from 'vitest';
import { denialError, dryRunUnsupported, failedClosed, WebhookCallFailure } from './errors.ts';

const GR = { group: 'apps', resource: 'deployments' };

describe('denialError', () => {
  it.each<[string, Record<string, unknown> | undefined, string, unknown]>([
    [
      'no status',
      undefined,
      'web',
      {
        code: 403,
        reason: 'Forbidden',
        message: 'deployments.apps "web" is forbidden: admission webhook "d.example.com" denied the request without explanation',
        details: { name: 'web', group: 'apps', kind: 'deployments' },
      },
    ],
    [
      'a message',
      { message: 'replicas too high' },
      'web',
      { code: 403, reason: 'Forbidden', message: 'deployments.apps "web" is forbidden: admission webhook "d.example.com" denied the request: replicas too high' },
    ],
    [
      'a reason only',
      { reason: 'NotAllowed' },
      'web',
      { code: 403, reason: 'NotAllowed', message: 'deployments.apps "web" is forbidden: admission webhook "d.example.com" denied the request: NotAllowed' },
    ],
    [
      'its own code and reason',
      { code: 409, reason: 'Conflict', message: 'taken' },
      'web',
      { code: 409, reason: 'Conflict', message: 'deployments.apps "web" is forbidden: admission webhook "d.example.com" denied the request: taken' },
    ],
    [
      'a 500',
      { code: 500, message: 'broken' },
      'web',
      {
        code: 500,
        reason: 'InternalError',
        message: 'Internal error occurred: admission webhook "d.example.com" denied the request: broken',
        details: { causes: [{ message: 'admission webhook "d.example.com" denied the request: broken' }] },
      },
    ],
    ['no name', { message: 'x' }, '', { message: 'deployments.apps "Unknown" is forbidden: admission webhook "d.example.com" denied the request: x', details: { name: 'Unknown' } }],
  ])('%s', (_name, status, objName, want) => {
    expect(denialError('d.example.com', GR, objName, status)).toMatchObject(want as object);
  });
});

describe('call failures and dry run', () => {
  it('failurePolicy Fail makes a failed call a 500 naming the webhook', () => {
    const err = failedClosed(new WebhookCallFailure('m.example.com', 'failed to call webhook: Post "https://h/?timeout=1s": context deadline exceeded'));
    expect(err).toMatchObject({
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: failed calling webhook "m.example.com": failed to call webhook: Post "https://h/?timeout=1s": context deadline exceeded',
    });
  });

  it('a dry run and a webhook with side effects is a 400', () => {
    expect(dryRunUnsupported('s.example.com')).toMatchObject({ code: 400, reason: 'BadRequest', message: 'admission webhook "s.example.com" does not support dry run' });
  });
});
