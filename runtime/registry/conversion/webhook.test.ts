// The webhook converter against a fake POST: objects already in the wanted
// version are not sent, the answer's objects are checked and their metadata
// restored, and every failure is a 500 InternalError with upstream's
// "conversion webhook for <gvk> ..." text.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { WebhookCallError } from '../../auth/webhook/client.ts';
import type { Obj } from '../../storage/interface.ts';
import { webhookConverter, type WebhookAnswer } from './webhook.ts';
import { noneConverter, remembering } from './converter.ts';

const obj = (name: string, apiVersion = 'example.com/v1alpha1', spec: Obj = { colour: 'red' }): Obj => ({ apiVersion, kind: 'Widget', metadata: { name, namespace: 'ns', uid: `u-${name}` }, spec });

/** A webhook that renames spec.colour (v1alpha1) to spec.color (v1), then lets `tamper` change its answer. */
function renaming(tamper: (review: Obj) => unknown = (r) => r) {
  const sent: Obj[] = [];
  const post = (body: string): Promise<WebhookAnswer> => {
    const review = JSON.parse(body) as Obj;
    sent.push(review);
    const want: string = review.request.desiredAPIVersion;
    const convertedObjects = (review.request.objects as Obj[]).map((o) => {
      const { colour, color, ...rest } = o.spec ?? {};
      const spec = want.endsWith('/v1') ? { ...rest, color: colour ?? color } : { ...rest, colour: color ?? colour };
      return { ...o, apiVersion: want, spec };
    });
    const answer = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects } };
    return Promise.resolve({ status: 200, body: Buffer.from(JSON.stringify(tamper(answer))) });
  };
  return { sent, post };
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('no failure');
}

describe('webhookConverter', () => {
  it('sends only the objects not yet in the wanted version, in one review', async () => {
    const hook = renaming();
    const c = webhookConverter({ reviewVersions: ['v1'], post: hook.post, uid: () => 'uid-1' });
    const out = await c.convert([obj('a'), obj('b', 'example.com/v1', { color: 'blue' })], 'example.com/v1');
    expect(out.map((o) => o.spec)).toEqual([{ color: 'red' }, { color: 'blue' }]);
    expect(hook.sent).toHaveLength(1);
    expect(hook.sent[0].request).toMatchObject({ uid: 'uid-1', desiredAPIVersion: 'example.com/v1' });
    expect(hook.sent[0].request.objects).toHaveLength(1);
  });

  it('calls nothing when every object is in the wanted version', async () => {
    const hook = renaming();
    const c = webhookConverter({ reviewVersions: ['v1'], post: hook.post });
    await c.convert([obj('a', 'example.com/v1')], 'example.com/v1');
    expect(hook.sent).toHaveLength(0);
  });

  it.each<[string, (r: Obj) => unknown, string, number?]>([
    [
      'a failed result',
      (r) => ({ ...r, response: { ...r.response, result: { status: 'Failure', message: 'cannot convert' } } }),
      'conversion webhook for example.com/v1alpha1, Kind=Widget failed: cannot convert',
    ],
    ['another uid', (r) => ({ ...r, response: { ...r.response, uid: 'other' } }), 'failed: expected response.uid='],
    ['too few objects', (r) => ({ ...r, response: { ...r.response, convertedObjects: [] } }), 'conversion webhook for example.com/v1alpha1, Kind=Widget returned 0 objects, expected 1'],
    [
      'a wrong version',
      (r) => ({ ...r, response: { ...r.response, convertedObjects: [{ ...r.response.convertedObjects[0], apiVersion: 'example.com/v2' }] } }),
      'returned invalid object at index 0: invalid groupVersion (expected example.com/v1, received example.com/v2)',
    ],
    [
      'a wrong kind',
      (r) => ({ ...r, response: { ...r.response, convertedObjects: [{ ...r.response.convertedObjects[0], kind: 'Gadget' }] } }),
      'returned invalid object at index 0: invalid kind (expected Widget, received Gadget)',
    ],
    [
      'another name',
      (r) => ({ ...r, response: { ...r.response, convertedObjects: [{ ...r.response.convertedObjects[0], metadata: { name: 'z', namespace: 'ns', uid: 'u-a' } }] } }),
      'returned invalid object: must have the same name: a != z',
    ],
    ['no metadata', (r) => ({ ...r, response: { ...r.response, convertedObjects: [{ apiVersion: 'example.com/v1', kind: 'Widget' }] } }), 'returned invalid object: must have the same name'],
    ['a body that is not JSON', () => undefined, 'conversion webhook for example.com/v1alpha1, Kind=Widget failed: '],
  ])('answers 500 for %s', async (_, tamper, message) => {
    const hook = renaming(tamper);
    const c = webhookConverter({ reviewVersions: ['v1'], post: hook.post });
    const err = await failure(c.convert([obj('a')], 'example.com/v1'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe(500);
    // upstream's converter returns a plain error: no reason, the text as it is
    expect(err.status().reason).toBeUndefined();
    expect(err.message.startsWith('conversion webhook for example.com/v1alpha1, Kind=Widget ')).toBe(true);
    expect(err.message).toContain(message);
  });

  it('answers 500 when the call fails or answers an error status', async () => {
    const down = webhookConverter({ reviewVersions: ['v1'], post: () => Promise.reject(new Error('the webhook did not answer within 30000ms')) });
    expect((await failure(down.convert([obj('a')], 'example.com/v1'))).message).toBe('conversion webhook for example.com/v1alpha1, Kind=Widget failed: the webhook did not answer within 30000ms');
    const bad = webhookConverter({ reviewVersions: ['v1'], post: () => Promise.resolve({ status: 503, body: Buffer.from('') }) });
    expect((await failure(bad.convert([obj('a')], 'example.com/v1'))).code).toBe(500);
  });

  it('uses the list texts (indexes from one) when converting several objects', async () => {
    const hook = renaming((r) => ({ ...r, response: { ...r.response, convertedObjects: r.response.convertedObjects.map((o: Obj) => ({ ...o, kind: 'Gadget' })) } }));
    const c = webhookConverter({ reviewVersions: ['v1'], post: hook.post });
    const err = await failure(c.convert([obj('a'), obj('b')], 'example.com/v1'));
    expect(err.message).toContain('returned invalid converted object at index 1: invalid kind (expected Widget, received Gadget)');
  });

  it('keeps the metadata of the original but labels and annotations', async () => {
    const hook = renaming((r) => ({
      ...r,
      response: { ...r.response, convertedObjects: r.response.convertedObjects.map((o: Obj) => ({ ...o, metadata: { ...o.metadata, generation: 7, labels: { added: 'yes' } } })) },
    }));
    const c = webhookConverter({ reviewVersions: ['v1'], post: hook.post });
    const [out] = await c.convert([obj('a')], 'example.com/v1');
    expect(out.metadata).toEqual({ name: 'a', namespace: 'ns', uid: 'u-a', labels: { added: 'yes' } });
  });
});

describe('remembering', () => {
  it('converts one object to one version once, whoever asks', async () => {
    const hook = renaming();
    const c = remembering(webhookConverter({ reviewVersions: ['v1'], post: hook.post }));
    const o = obj('a');
    const [x] = await c.convert([o], 'example.com/v1');
    const [y] = await c.convert([o], 'example.com/v1');
    expect(y).toBe(x);
    expect(hook.sent).toHaveLength(1);
    await c.convert([o, obj('b')], 'example.com/v1');
    expect(hook.sent).toHaveLength(2);
    expect(hook.sent[1].request.objects.map((s: Obj) => s.metadata.name)).toEqual(['b']);
  });

  it('asks again after a failure', async () => {
    let calls = 0;
    const c = remembering(webhookConverter({ reviewVersions: ['v1'], post: () => (calls++, Promise.reject(new Error('down'))) }));
    const o = obj('a');
    await failure(c.convert([o], 'example.com/v1'));
    await failure(c.convert([o], 'example.com/v1'));
    expect(calls).toBe(2);
  });
});

describe('a failed POST in Go client words', () => {
  const URL = 'https://conv.hooks.svc:443/convert?timeout=30s';
  it.each<[string, Error, string]>([
    ['a refused connection', new WebhookCallError('calling the webhook: connect ECONNREFUSED 10.1.2.3:8443', false), 'dial tcp 10.1.2.3:8443: connect: connection refused'],
    ['a closed connection', new WebhookCallError('calling the webhook: socket hang up', true), 'EOF'],
    [
      'an unknown CA',
      new WebhookCallError('calling the webhook: self-signed certificate in certificate chain', false),
      'tls: failed to verify certificate: x509: certificate signed by unknown authority',
    ],
    ['a call past its limit', new WebhookCallError('the webhook did not answer within 30000ms', false, true), 'context deadline exceeded'],
    ['a Service without endpoints', new Error('no endpoints available for service "conv"'), 'no endpoints available for service "conv"'],
  ])('%s', async (_, err, text) => {
    const c = webhookConverter({ reviewVersions: ['v1'], post: () => Promise.reject(err), url: URL });
    const e = await failure(c.convert([obj('a')], 'example.com/v1'));
    expect([e.code, e.message]).toEqual([500, `conversion webhook for example.com/v1alpha1, Kind=Widget failed: Post "${URL}": ${text}`]);
  });
});

it('None conversion rewrites apiVersion only', async () => {
  const o = obj('a');
  expect(await noneConverter.convert([o], 'example.com/v1')).toEqual([{ ...o, apiVersion: 'example.com/v1' }]);
  expect(noneConverter.nop).toBe(true);
});
