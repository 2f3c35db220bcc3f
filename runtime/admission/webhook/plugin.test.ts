// The two plugins over fake webhooks (a fake client per webhook): what
// failurePolicy makes of each kind of failure, in the mutating and the
// validating half, that a denial is never ignored, the order of calls,
// reinvocation through the chain's second round, and the exemption of the
// admission configuration kinds.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { WebhookCallError } from '../../auth/webhook/client.ts';
import type { WebhookAnswer } from '../../webhook-client/client-config.ts';
import { AdmissionChain, type AdmissionAttributes } from '../chain.ts';
import type { MatchServices } from '../matching/index.ts';
import type { WebhookConfigs, WebhookEntry } from './configs.ts';
import { mutatingWebhookPlugin, validatingWebhookPlugin } from './plugin.ts';

type Behaviour = 'allow' | 'deny' | 'down' | 'timeout' | 'garbage' | 'label' | 'count';

const services: MatchServices = {
  namespaces: { labels: () => Promise.resolve({}), get: () => Promise.resolve(undefined) },
  resources: { equivalentsFor: (r) => [r], kindFor: (r) => ({ group: r.group, version: r.version, kind: 'ConfigMap' }), convert: (_r, o) => o },
};

const calls: string[] = [];

function hookEntry(name: string, behaviour: Behaviour, over: Record<string, unknown> = {}): WebhookEntry {
  const answer = (body: string): Promise<WebhookAnswer> => {
    calls.push(name);
    const req = (JSON.parse(body) as { request: { uid: string; object: Record<string, any> } }).request;
    const respond = (response: Record<string, unknown>) =>
      Promise.resolve({ status: 200, body: Buffer.from(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: req.uid, allowed: true, ...response } })) });
    const patch = (ops: unknown[]) => respond({ patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });
    switch (behaviour) {
      case 'allow':
        return respond({});
      case 'deny':
        return respond({ allowed: false, status: { message: 'no' } });
      case 'down':
        return Promise.reject(new WebhookCallError('calling the webhook: connect ECONNREFUSED 127.0.0.1:1', true));
      case 'timeout':
        return Promise.reject(new WebhookCallError('the webhook did not answer within 1000ms', false, true));
      case 'garbage':
        return Promise.resolve({ status: 200, body: Buffer.from('garbage') });
      case 'label':
        return req.object.metadata.labels?.b ? respond({}) : patch([{ op: 'add', path: '/metadata/labels', value: { b: 'yes' } }]);
      case 'count':
        return patch([{ op: 'add', path: '/metadata/annotations', value: { calls: `${req.object.metadata.annotations?.calls ?? ''}x` } }]);
    }
  };
  const hook: Record<string, unknown> = {
    name,
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*' }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...over,
  };
  return {
    key: name,
    configName: name,
    name,
    hook,
    failurePolicy: hook.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    timeoutSeconds: 1,
    client: () => ({ url: `https://h/${name}?timeout=1s`, urlWith: (q) => `https://h/${name}?${q}`, close: () => {}, post: answer }),
  };
}

const configs = (...hooks: WebhookEntry[]) => ({ hooks }) as unknown as WebhookConfigs;
const attrs = (resource = 'configmaps', group = ''): AdmissionAttributes => ({
  operation: 'CREATE',
  group,
  version: 'v1',
  kind: 'ConfigMap',
  resource,
  subresource: '',
  namespace: 'default',
  name: 'c',
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
  oldObject: null,
  dryRun: false,
  user: { name: 'alice', groups: [] },
  warnings: [],
});

async function outcome(p: Promise<void>): Promise<string> {
  try {
    await p;
    return 'allowed';
  } catch (err) {
    return err instanceof ApiError ? `${err.code} ${err.message}` : String(err);
  }
}

describe('failurePolicy', () => {
  const failures: Behaviour[] = ['down', 'timeout', 'garbage'];
  const texts: Record<string, string> = {
    down: 'failed to call webhook: Post "https://h/x.example.com?timeout=1s": connect ECONNREFUSED 127.0.0.1:1',
    timeout: 'failed to call webhook: Post "https://h/x.example.com?timeout=1s": context deadline exceeded',
    garbage: "failed to call webhook: couldn't get version/kind; json parse error: ",
  };
  it.each(failures.flatMap((b) => (['mutating', 'validating'] as const).flatMap((half) => (['Ignore', 'Fail'] as const).map((policy) => [b, half, policy] as const))))(
    '%s, %s, %s',
    async (behaviour, half, policy) => {
      const e = hookEntry('x.example.com', behaviour, { failurePolicy: policy });
      const plugin = half === 'mutating' ? mutatingWebhookPlugin(configs(e), { match: services }) : validatingWebhookPlugin(configs(e), { match: services });
      const got = await outcome(half === 'mutating' ? new AdmissionChain([plugin]).admit(attrs()) : (plugin.validate!(attrs()) as Promise<void>));
      if (policy === 'Ignore') expect(got).toBe('allowed');
      else expect(got).toContain(`500 Internal error occurred: failed calling webhook "x.example.com": ${texts[behaviour]}`);
    },
  );

  it.each(['Ignore', 'Fail'])('a denial is a denial under %s', async (policy) => {
    const e = hookEntry('d.example.com', 'deny', { failurePolicy: policy });
    expect(await outcome(validatingWebhookPlugin(configs(e), { match: services }).validate!(attrs()) as Promise<void>)).toBe(
      '403 configmaps "c" is forbidden: admission webhook "d.example.com" denied the request: no',
    );
  });
});

describe('dispatch', () => {
  it('calls validating webhooks in parallel and answers the first refusal in calling order', async () => {
    calls.length = 0;
    const plugin = validatingWebhookPlugin(configs(hookEntry('a.example.com', 'allow'), hookEntry('b.example.com', 'deny'), hookEntry('c.example.com', 'garbage')), { match: services });
    expect(await outcome(plugin.validate!(attrs()) as Promise<void>)).toContain('admission webhook "b.example.com" denied the request');
    expect([...calls].sort()).toEqual(['a.example.com', 'b.example.com', 'c.example.com']);
  });

  it.each<[string, string, number]>([
    ['IfNeeded: called again after a later webhook changed the object', 'IfNeeded', 2],
    ['Never: called once', 'Never', 1],
  ])('reinvocation, %s', async (_n, policy, want) => {
    const a = attrs();
    const chain = new AdmissionChain([mutatingWebhookPlugin(configs(hookEntry('a.example.com', 'count', { reinvocationPolicy: policy }), hookEntry('b.example.com', 'label')), { match: services })]);
    await chain.admit(a);
    expect(a.object!.metadata.annotations.calls).toBe('x'.repeat(want));
    expect(a.object!.metadata.labels).toEqual({ b: 'yes' });
  });

  it.each([['mutatingwebhookconfigurations'], ['validatingwebhookconfigurations'], ['validatingadmissionpolicies'], ['validatingadmissionpolicybindings']])(
    'never calls webhooks for %s',
    async (resource) => {
      calls.length = 0;
      const e = hookEntry('d.example.com', 'deny');
      await new AdmissionChain([mutatingWebhookPlugin(configs(e), { match: services }), validatingWebhookPlugin(configs(e), { match: services })]).admit(
        attrs(resource, 'admissionregistration.k8s.io'),
      );
      await validatingWebhookPlugin(configs(e), { match: services }).validate!(attrs(resource, 'admissionregistration.k8s.io'));
      expect(calls).toEqual([]);
    },
  );
});

describe('observer (the webhook metrics)', () => {
  type Seen = [string, string, string, boolean, number, string | undefined];
  const observed = () => {
    const seen: Seen[] = [];
    const failOpen: string[] = [];
    return {
      seen,
      failOpen,
      observer: {
        call: (name: string, type: string, op: string, o: { rejected: boolean; code: number; errorType?: string }, seconds: number) => {
          expect(seconds).toBeGreaterThanOrEqual(0);
          seen.push([name, type, op, o.rejected, o.code, o.errorType]);
        },
        failOpen: (name: string, type: string) => failOpen.push(`${name} ${type}`),
      },
    };
  };
  it.each<[Behaviour, 'Ignore' | 'Fail', boolean, number, string | undefined, boolean]>([
    ['allow', 'Fail', false, 200, undefined, false],
    ['deny', 'Fail', true, 403, 'no_error', false],
    ['down', 'Fail', true, 503, 'calling_webhook_error', false],
    ['down', 'Ignore', false, 503, undefined, true],
  ])('%s under %s', async (behaviour, policy, rejected, code, errorType, failedOpen) => {
    for (const half of ['mutating', 'validating'] as const) {
      const o = observed();
      const e = hookEntry('o.example.com', behaviour, { failurePolicy: policy });
      const s = { match: services, observer: o.observer };
      await outcome(half === 'mutating' ? new AdmissionChain([mutatingWebhookPlugin(configs(e), s)]).admit(attrs()) : (validatingWebhookPlugin(configs(e), s).validate!(attrs()) as Promise<void>));
      const type = half === 'mutating' ? 'admit' : 'validating';
      expect(o.seen).toEqual([['o.example.com', type, 'CREATE', rejected, code, errorType]]);
      expect(o.failOpen).toEqual(failedOpen ? [`o.example.com ${type}`] : []);
    }
  });
  it('a dry run the webhook cannot take is an internal rejection with code 0', async () => {
    const o = observed();
    const e = hookEntry('o.example.com', 'allow', { sideEffects: 'Some' });
    await outcome(validatingWebhookPlugin(configs(e), { match: services, observer: o.observer }).validate!({ ...attrs(), dryRun: true }) as Promise<void>);
    expect(o.seen).toEqual([['o.example.com', 'validating', 'CREATE', true, 0, 'apiserver_internal_error']]);
  });
});
