// One webhook call with a fake client: a dry run is refused for a webhook
// with side effects (Some, Unknown: what v1beta1 configurations stored
// before v1 may still have) and sent with dryRun true otherwise; a webhook
// without a known review version, a non-2xx answer and a transport
// failure are call failures; warnings and audit annotations reach the
// attributes; a denial is the webhook's Status.
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../chain.ts';
import type { CallOptions, WebhookAnswer, WebhookPost } from '../../webhook-client/client-config.ts';
import { WebhookCallError } from '../../auth/webhook/client.ts';
import { callWebhook } from './call.ts';
import type { WebhookEntry } from './configs.ts';
import { WebhookCallFailure } from './errors.ts';

const UID = '0000-uid';
const versions = {
  resource: { group: '', version: 'v1', resource: 'configmaps' },
  kind: { group: '', version: 'v1', kind: 'ConfigMap' },
  requestResource: { group: '', version: 'v1', resource: 'configmaps' },
  requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
};
const attrs = (dryRun = false): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  subresource: '',
  namespace: 'default',
  name: 'c',
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
  oldObject: null,
  dryRun,
  user: { name: 'alice', groups: ['g'] },
  warnings: [],
});

function entry(hook: Record<string, unknown>, post: (body: string) => Promise<WebhookAnswer>, calls: (CallOptions | undefined)[] = []): { e: WebhookEntry; sent: unknown[] } {
  const sent: unknown[] = [];
  const client: WebhookPost = {
    url: 'https://h/x?timeout=10s',
    urlWith: (q) => (q ? `https://h/x?${q}` : 'https://h/x'),
    close: () => {},
    post: (body, call) => {
      sent.push(JSON.parse(body));
      calls.push(call);
      return post(body);
    },
  };
  const e: WebhookEntry = {
    key: 'c/0',
    configName: 'c',
    name: 'h.example.com',
    hook: { sideEffects: 'None', admissionReviewVersions: ['v1'], ...hook },
    failurePolicy: 'Fail',
    timeoutSeconds: 10,
    client: () => client,
  };
  return { e, sent };
}

const ok = (response: Record<string, unknown>): Promise<WebhookAnswer> =>
  Promise.resolve({ status: 200, body: Buffer.from(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: UID, allowed: true, ...response } })) });

describe('callWebhook', () => {
  it.each(['Some', 'Unknown'])('refuses a dry run for sideEffects %s without calling', async (sideEffects) => {
    const { e, sent } = entry({ sideEffects }, () => ok({}));
    await expect(callWebhook(e, attrs(true), versions, false, () => UID)).rejects.toMatchObject({ code: 400, message: 'admission webhook "h.example.com" does not support dry run' });
    expect(sent).toEqual([]);
  });

  it.each(['None', 'NoneOnDryRun'])('calls a webhook with sideEffects %s with dryRun true', async (sideEffects) => {
    const { e, sent } = entry({ sideEffects }, () => ok({}));
    await callWebhook(e, attrs(true), versions, false, () => UID);
    expect(sent).toMatchObject([{ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: UID, dryRun: true, options: { dryRun: ['All'] } } }]);
  });

  it('sends a v1beta1 review when that is the only known version', async () => {
    const { e, sent } = entry({ admissionReviewVersions: ['v2', 'v1beta1'] }, () => Promise.resolve({ status: 200, body: Buffer.from(JSON.stringify({ response: { allowed: true } })) }));
    await callWebhook(e, attrs(), versions, false, () => UID);
    expect(sent).toMatchObject([{ apiVersion: 'admission.k8s.io/v1beta1' }]);
  });

  it.each<[string, Record<string, unknown>, (body: string) => Promise<WebhookAnswer>, string]>([
    ['no known review version', { admissionReviewVersions: ['v2'] }, () => ok({}), 'could not create admission objects: webhook does not accept v1 or v1beta1 AdmissionReview'],
    [
      'a 500 without a Status',
      {},
      () => Promise.resolve({ status: 500, body: Buffer.from('oops') }),
      'failed to call webhook: the server responded with the status code 500 but did not return more information',
    ],
    [
      'a timeout',
      {},
      () => Promise.reject(new WebhookCallError('the webhook did not answer within 10000ms', false, true)),
      'failed to call webhook: Post "https://h/x?timeout=10s": context deadline exceeded',
    ],
    [
      'a refused connection',
      {},
      () => Promise.reject(new WebhookCallError('calling the webhook: connect ECONNREFUSED 127.0.0.1:1', true)),
      'failed to call webhook: Post "https://h/x?timeout=10s": connect ECONNREFUSED 127.0.0.1:1',
    ],
  ])('%s is a call failure', async (_n, hook, post, reason) => {
    const { e } = entry(hook, post);
    const err: unknown = await callWebhook(e, attrs(), versions, false, () => UID).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(WebhookCallFailure);
    expect((err as WebhookCallFailure).message).toBe(`failed calling webhook "h.example.com": ${reason}`);
  });

  it('adds warnings and audit annotations, and throws a denial', async () => {
    const a = attrs();
    const { e } = entry({}, () => ok({ allowed: false, warnings: ['w'], auditAnnotations: { k: 'v' }, status: { message: 'no' } }));
    await expect(callWebhook(e, a, versions, false, () => UID)).rejects.toMatchObject({ code: 403, message: 'configmaps "c" is forbidden: admission webhook "h.example.com" denied the request: no' });
    expect(a.warnings).toEqual(['w']);
    expect(a.auditAnnotations).toEqual({ 'h.example.com/k': 'v' });
  });
});

describe('the request deadline', () => {
  const NOW = 1_000_000;
  const allowed = () => ok({ allowed: true });
  const withDeadline = (ms: number): AdmissionAttributes => ({ ...attrs(), deadline: NOW + ms });

  it('caps the call at what is left of the request, with ?timeout= rounded up to whole seconds', async () => {
    const calls: (CallOptions | undefined)[] = [];
    const { e } = entry({}, allowed, calls);
    await callWebhook(
      e,
      withDeadline(1500),
      versions,
      false,
      () => UID,
      () => NOW,
    );
    expect(calls).toEqual([{ timeoutMs: 1500, query: 'timeout=2s' }]);
  });

  it('leaves the webhook its own timeout when the request has more time, or no deadline', async () => {
    const calls: (CallOptions | undefined)[] = [];
    const { e } = entry({}, allowed, calls);
    await callWebhook(
      e,
      withDeadline(60_000),
      versions,
      false,
      () => UID,
      () => NOW,
    );
    await callWebhook(
      e,
      attrs(),
      versions,
      false,
      () => UID,
      () => NOW,
    );
    expect(calls).toEqual([undefined, undefined]);
  });

  it('fails at once, as a timeout, when the deadline has passed', async () => {
    const calls: (CallOptions | undefined)[] = [];
    const { e, sent } = entry({}, allowed, calls);
    const err = await callWebhook(
      e,
      withDeadline(0),
      versions,
      false,
      () => UID,
      () => NOW,
    ).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(WebhookCallFailure);
    expect((err as Error).message).toContain('failed to call webhook: Post "https://h/x": context deadline exceeded');
    expect(sent).toEqual([]);
  });
});
