import { describe, expect, it } from 'vitest';
import { errors } from '../../api/errors.ts';
import { WebhookCallFailure } from './errors.ts';
import { callOutcome, markDenial } from './observe.ts';

describe('callOutcome (how upstream classifies a webhook call for its metrics)', () => {
  it.each<[string, unknown, string | undefined, ReturnType<typeof callOutcome>]>([
    ['no error', undefined, 'Fail', { rejected: false, code: 200 }],
    ['a failed call under Fail', new WebhookCallFailure('w', 'failed to call webhook: refused'), 'Fail', { rejected: true, code: 503, errorType: 'calling_webhook_error' }],
    ['a non-2xx answer keeps its status', new WebhookCallFailure('w', 'failed to call webhook: 500', 500), 'Fail', { rejected: true, code: 500, errorType: 'calling_webhook_error' }],
    ['a failed call under Ignore does not reject', new WebhookCallFailure('w', 'x', 400), 'Ignore', { rejected: false, code: 400 }],
    ['a denial carries its Status code', markDenial(errors.forbidden({ group: '', resource: 'pods' }, 'p', 'no')), 'Ignore', { rejected: true, code: 403, errorType: 'no_error' }],
    ["another error is the server's", errors.badRequest('admission webhook "w" does not support dry run'), 'Fail', { rejected: true, code: 0, errorType: 'apiserver_internal_error' }],
  ])('%s', (_name, err, policy, want) => {
    expect(callOutcome(err, policy)).toEqual(want);
  });
});
