// Mutating and validating admission webhooks served by this test over
// HTTPS with its own CA (caBundle), against an in-process server: a
// mutating webhook adds a label, a validating one denies with its
// message, failurePolicy Ignore and Fail with a webhook that is down or
// never answers (timeoutSeconds 1: the outcome is asserted, not the time),
// reinvocation, the object and namespace selectors, garbage answers, a
// wrong uid, a patch of metadata.name, warnings, the request's fields
// (create, delete and a CONNECT's options), and a `service` reference
// resolved through the Service's EndpointSlice. Every configuration
// selects objects by the label `case` so the cases stay apart; each waits
// for its configuration to take effect (watch-driven) by polling a write.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';
import { startTlsWebhook, type TlsWebhook } from '../support/tls-webhook.ts';

let s: RunningServer;
const call = appCaller(() => s);
let hook: TlsWebhook | undefined;
let port = 0;
let caBundle = '';
/** Reviews received, by the object's `case` label. */
const received = new Map<string, Json[]>();

const review = (req: Json, response: Json) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: req.uid, allowed: true, ...response } });
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const labelPatch = (obj: Json | null, key: string, value: string) =>
  obj?.metadata?.labels ? [{ op: 'add', path: `/metadata/labels/${key}`, value }] : [{ op: 'add', path: '/metadata/labels', value: { [key]: value } }];

/** The webhook's answer by path. */
function answer(path: string, req: Json): unknown {
  const obj: Json | null = req.object ?? null;
  switch (path) {
    case '/add-label':
      return review(req, { patchType: 'JSONPatch', patch: b64(labelPatch(obj, 'webhook-added', 'yes')) });
    case '/deny':
      return review(req, { allowed: false, status: { code: 403, message: 'no thanks' } });
    case '/allow':
      return review(req, {});
    case '/warn':
      return review(req, { warnings: ['careful with this one'] });
    case '/garbage':
      return 'this is not a review';
    case '/wrong-uid':
      return review({ uid: 'not-the-uid' }, {});
    case '/rename':
      return review(req, { patchType: 'JSONPatch', patch: b64([{ op: 'replace', path: '/metadata/name', value: 'renamed' }]) });
    case '/count': {
      // appends one `x` per call to the annotation `calls`
      const calls = String(obj?.metadata?.annotations?.calls ?? '');
      const op = obj?.metadata?.annotations ? { op: 'add', path: '/metadata/annotations/calls', value: `${calls}x` } : { op: 'add', path: '/metadata/annotations', value: { calls: 'x' } };
      return review(req, { patchType: 'JSONPatch', patch: b64([op]) });
    }
    case '/label-b':
      return obj?.metadata?.labels?.b ? review(req, {}) : review(req, { patchType: 'JSONPatch', patch: b64(labelPatch(obj, 'b', 'yes')) });
    default:
      return review(req, { allowed: false, status: { message: `unknown path ${path}` } });
  }
}

function serve(req: IncomingMessage, res: ServerResponse) {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/slow') return; // never answers
    const r = (JSON.parse(body) as Json).request as Json;
    const obj: Json | null = r.object ?? r.oldObject ?? null;
    const c = String(obj?.metadata?.labels?.case ?? '');
    received.set(c, [...(received.get(c) ?? []), { ...r, path: req.url }]);
    const a = answer(path, r);
    res.setHeader('content-type', 'application/json');
    res.end(typeof a === 'string' ? a : JSON.stringify(a));
  });
}

beforeAll(async () => {
  // on every address: an EndpointSlice may not name a loopback address, so the service case uses the host's own
  hook = await startTlsWebhook(serve, { caName: 'admission-webhook-ca', hosts: ['127.0.0.1', 'websvc.hooks.svc'], listenHost: '0.0.0.0' });
  caBundle = hook.caBundle;
  port = hook.port;
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
  await hook?.close();
});

const GROUP = '/apis/admissionregistration.k8s.io/v1';
/** A non-loopback IPv4 address of this host, for the EndpointSlice. */
const hostIP = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
const CM = '/api/v1/namespaces/default/configmaps';
const url = (path: string) => `https://127.0.0.1:${port}${path}`;

interface HookSpec {
  path?: string;
  failurePolicy?: string;
  timeoutSeconds?: number;
  reinvocationPolicy?: string;
  operations?: string[];
  sideEffects?: string;
  namespaceSelector?: Json;
  clientConfig?: Json;
  name?: string;
}

const webhook = (c: string, h: HookSpec, i: number, mutating: boolean): Json => {
  const w: Json = {
    name: h.name ?? `h${i}.${c}.example.com`,
    clientConfig: h.clientConfig ?? { url: url(h.path ?? '/allow'), caBundle },
    rules: [{ operations: h.operations ?? ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchLabels: { case: c } },
    sideEffects: h.sideEffects ?? 'None',
    admissionReviewVersions: ['v1'],
  };
  if (h.failurePolicy) w.failurePolicy = h.failurePolicy;
  if (h.timeoutSeconds) w.timeoutSeconds = h.timeoutSeconds;
  if (mutating && h.reinvocationPolicy) w.reinvocationPolicy = h.reinvocationPolicy;
  if (h.namespaceSelector) w.namespaceSelector = h.namespaceSelector;
  return w;
};

async function configure(kind: 'mutating' | 'validating', name: string, c: string, hooks: HookSpec[]) {
  const mutating = kind === 'mutating';
  const res = await call('POST', `${GROUP}/${kind}webhookconfigurations`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
    metadata: { name },
    webhooks: hooks.map((h, i) => webhook(c, h, i, mutating)),
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
}

const cm = (name: string, c: string, extra: Json = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { case: c }, ...extra }, data: { a: '1' } });
const create = (name: string, c: string, dryRun = false, ns = 'default') => call('POST', `/api/v1/namespaces/${ns}/configmaps${dryRun ? '?dryRun=All' : ''}`, cm(name, c));

/** Polls dry-run creates of a `case` object until `ready` says the configuration is in effect. */
const whenInEffect = (c: string, ready: (r: { status: number; json: Json }) => boolean, ns = 'default') =>
  eventually(async () => {
    const r = await create(`probe-${c}`, c, true, ns);
    return ready(r) ? r : undefined;
  }, `the webhooks of ${c} in effect`);

describe('admission webhooks', () => {
  it('a mutating webhook adds a label to the stored object', async () => {
    await configure('mutating', 'add-label', 'add', [{ path: '/add-label' }]);
    await whenInEffect('add', (r) => r.json.metadata?.labels?.['webhook-added'] === 'yes');
    const r = await create('added', 'add');
    expect(r.status).toBe(201);
    expect(r.json.metadata.labels).toEqual({ case: 'add', 'webhook-added': 'yes' });
    expect((await call('GET', `${CM}/added`)).json.metadata.labels['webhook-added']).toBe('yes');
  });

  it('a validating webhook denies with its message', async () => {
    await configure('validating', 'deny', 'deny', [{ path: '/deny' }]);
    const r = await whenInEffect('deny', (x) => x.status !== 201);
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'configmaps "probe-deny" is forbidden: admission webhook "h0.deny.example.com" denied the request: no thanks',
      details: { name: 'probe-deny', kind: 'configmaps' },
    });
    expect((await create('denied', 'deny')).status).toBe(403);
    expect((await call('GET', `${CM}/denied`)).status).toBe(404);
  });

  it('failurePolicy Fail: a webhook that is down fails the request with a 500', async () => {
    await configure('validating', 'down-fail', 'down-fail', [{ clientConfig: { url: 'https://127.0.0.1:1/down', caBundle }, failurePolicy: 'Fail' }]);
    const r = await whenInEffect('down-fail', (x) => x.status !== 201);
    expect(r.status).toBe(500);
    expect(r.json.reason).toBe('InternalError');
    expect(r.json.message).toMatch(/^Internal error occurred: failed calling webhook "h0\.down-fail\.example\.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:1\/down\?timeout=10s": /);
  });

  it('failurePolicy Ignore: a webhook that is down is skipped, the next one runs', async () => {
    await configure('mutating', 'down-ignore', 'down-ignore', [{ clientConfig: { url: 'https://127.0.0.1:1/down', caBundle }, failurePolicy: 'Ignore' }, { path: '/add-label' }]);
    const r = await whenInEffect('down-ignore', (x) => x.json.metadata?.labels?.['webhook-added'] === 'yes');
    expect(r.status).toBe(201);
  });

  it('failurePolicy Fail: a webhook that never answers fails after its timeout with context deadline exceeded', async () => {
    await configure('validating', 'slow-fail', 'slow-fail', [{ path: '/slow', timeoutSeconds: 1, failurePolicy: 'Fail' }]);
    const r = await whenInEffect('slow-fail', (x) => x.status !== 201);
    expect(r.status).toBe(500);
    expect(r.json.message).toBe(
      `Internal error occurred: failed calling webhook "h0.slow-fail.example.com": failed to call webhook: Post "https://127.0.0.1:${port}/slow?timeout=1s": context deadline exceeded`,
    );
  });

  it('failurePolicy Ignore: a webhook that never answers is skipped after its timeout', async () => {
    await configure('mutating', 'slow-ignore', 'slow-ignore', [{ path: '/slow', timeoutSeconds: 1, failurePolicy: 'Ignore' }, { path: '/add-label' }]);
    const r = await whenInEffect('slow-ignore', (x) => x.json.metadata?.labels?.['webhook-added'] === 'yes');
    expect(r.status).toBe(201);
  });

  it('garbage answers and a wrong uid fail the call with upstream texts', async () => {
    await configure('validating', 'garbage', 'garbage', [{ path: '/garbage' }]);
    const g = await whenInEffect('garbage', (x) => x.status !== 201);
    expect(g.status).toBe(500);
    expect(g.json.message).toMatch(/^Internal error occurred: failed calling webhook "h0\.garbage\.example\.com": failed to call webhook: couldn't get version\/kind; json parse error: /);
    await configure('validating', 'wrong-uid', 'wrong-uid', [{ path: '/wrong-uid' }]);
    const w = await whenInEffect('wrong-uid', (x) => x.status !== 201);
    expect(w.status).toBe(500);
    expect(w.json.message).toMatch(
      /^Internal error occurred: failed calling webhook "h0\.wrong-uid\.example\.com": received invalid webhook response: expected response\.uid="[0-9a-f-]+", got "not-the-uid"$/,
    );
  });

  it('a patch of metadata.name: refused on an update (the name is immutable); on a create the object is stored under the new name', async () => {
    expect((await create('keep-name', 'rename')).status).toBe(201);
    await configure('mutating', 'rename', 'rename', [{ path: '/rename', operations: ['UPDATE'] }]);
    const r = await eventually(async () => {
      const x = await call('PUT', `${CM}/keep-name?dryRun=All`, cm('keep-name', 'rename', { annotations: { n: String(Math.random()) } }));
      return x.status !== 200 ? x : undefined;
    }, 'the rename webhook in effect');
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ reason: 'Invalid', message: 'ConfigMap "keep-name" is invalid: metadata.name: Invalid value: "renamed": field is immutable' });
    await configure('mutating', 'rename-create', 'rename-create', [{ path: '/rename', operations: ['CREATE'] }]);
    const c = await whenInEffect('rename-create', (x) => x.json.metadata?.name === 'renamed');
    expect(c.status).toBe(201);
    expect((await create('asked-for', 'rename-create')).json.metadata.name).toBe('renamed');
    expect((await call('GET', `${CM}/renamed`)).status).toBe(200);
    expect((await call('GET', `${CM}/asked-for`)).status).toBe(404);
  });

  it('warnings of a webhook reach the client as Warning headers', async () => {
    await configure('validating', 'warn', 'warn', [{ path: '/warn' }]);
    const r = await eventually(async () => {
      const x = await create('probe-warn', 'warn', true);
      return x.headers.get('warning') ? x : undefined;
    }, 'the warning webhook in effect');
    expect(r.status).toBe(201);
    expect(r.headers.get('warning')).toBe('299 - "careful with this one"');
  });

  it('reinvocation: an IfNeeded webhook is called again when a later webhook changed the object', async () => {
    await configure('mutating', 'reinvoke-a', 'reinvoke', [{ path: '/count', reinvocationPolicy: 'IfNeeded' }]);
    await configure('mutating', 'reinvoke-b', 'reinvoke', [{ path: '/label-b' }]);
    const r = await whenInEffect('reinvoke', (x) => x.json.metadata?.labels?.b === 'yes' && x.json.metadata?.annotations?.calls !== undefined);
    expect(r.json.metadata.annotations.calls).toBe('xx');
    // with Never, one call
    await configure('mutating', 'never-a', 'never', [{ path: '/count', reinvocationPolicy: 'Never' }]);
    await configure('mutating', 'never-b', 'never', [{ path: '/label-b' }]);
    const n = await whenInEffect('never', (x) => x.json.metadata?.labels?.b === 'yes' && x.json.metadata?.annotations?.calls !== undefined);
    expect(n.json.metadata.annotations.calls).toBe('x');
  });

  it('objectSelector and namespaceSelector filter what a webhook is called for', async () => {
    expect((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hooked', labels: { hooked: 'yes' } } })).status).toBe(201);
    expect((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'unhooked' } })).status).toBe(201);
    await configure('mutating', 'ns-select', 'ns', [{ path: '/add-label', namespaceSelector: { matchLabels: { hooked: 'yes' } } }]);
    await whenInEffect('ns', (x) => x.json.metadata?.labels?.['webhook-added'] === 'yes', 'hooked');
    expect((await create('in-other', 'ns', false, 'unhooked')).json.metadata.labels).toEqual({ case: 'ns' });
    expect((await create('in-hooked', 'ns', false, 'hooked')).json.metadata.labels).toEqual({ case: 'ns', 'webhook-added': 'yes' });
    // the object selector: no `case: ns` label, no call
    const plain = await call('POST', '/api/v1/namespaces/hooked/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain' } });
    expect(plain.json.metadata.labels).toBeUndefined();
  });

  it('sends every AdmissionRequest field: a create and a delete (oldObject)', async () => {
    await configure('validating', 'record', 'record', [{ path: '/allow', operations: ['CREATE', 'DELETE'] }]);
    await whenInEffect('record', () => (received.get('record') ?? []).length > 0);
    received.delete('record');
    expect((await create('recorded', 'record')).status).toBe(201);
    const [c] = received.get('record')!;
    expect(c).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      requestResource: { group: '', version: 'v1', resource: 'configmaps' },
      name: 'recorded',
      namespace: 'default',
      operation: 'CREATE',
      dryRun: false,
      object: { metadata: { name: 'recorded' }, data: { a: '1' } },
      oldObject: null,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    expect(c.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.userInfo.username).toBeTruthy();
    expect(c.path).toBe('/allow?timeout=10s');
    received.delete('record');
    expect((await call('DELETE', `${CM}/recorded`)).status).toBe(200);
    const [d] = received.get('record')!;
    expect(d).toMatchObject({ operation: 'DELETE', name: 'recorded', object: null, oldObject: { metadata: { name: 'recorded' } }, options: { kind: 'DeleteOptions' } });
  });

  it("sends the request's options: CreateOptions, a patch's UpdateOptions, a delete's DeleteOptions", async () => {
    await configure('validating', 'opts', 'opts', [{ path: '/allow', operations: ['CREATE', 'UPDATE', 'DELETE'] }]);
    await whenInEffect('opts', () => (received.get('opts') ?? []).length > 0);
    received.delete('opts');
    const made = await call('POST', `${CM}?fieldManager=tester&fieldValidation=Strict`, cm('with-options', 'opts'));
    expect(made.status).toBe(201);
    expect(received.get('opts')![0].options).toEqual({ kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'tester', fieldValidation: 'Strict' });
    received.delete('opts');
    const patched = await call('PATCH', `${CM}/with-options?fieldManager=patcher&dryRun=All`, { data: { b: '2' } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(received.get('opts')![0]).toMatchObject({ operation: 'UPDATE', dryRun: true, options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'patcher', dryRun: ['All'] } });
    received.delete('opts');
    const deleted = await call('DELETE', `${CM}/with-options`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, propagationPolicy: 'Background' });
    expect(deleted.status).toBe(200);
    expect(received.get('opts')![0].options).toEqual({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 0, propagationPolicy: 'Background' });
  });

  it.skipIf(!hostIP)('a service reference is called at the address of its EndpointSlice', async () => {
    expect((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hooks' } })).status).toBe(201);
    const svc = await call('POST', '/api/v1/namespaces/hooks/services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'websvc' },
      spec: { ports: [{ name: 'https', port: 443, targetPort: 8443 }] },
    });
    expect(svc.status).toBe(201);
    const slice = await call('POST', '/apis/discovery.k8s.io/v1/namespaces/hooks/endpointslices', {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'websvc-1', labels: { 'kubernetes.io/service-name': 'websvc' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [hostIP], conditions: { ready: true } }],
      ports: [{ name: 'https', port, protocol: 'TCP' }],
    });
    expect(slice.status).toBe(201);
    await configure('mutating', 'by-service', 'svc', [{ clientConfig: { service: { namespace: 'hooks', name: 'websvc', path: '/add-label' }, caBundle } }]);
    const r = await whenInEffect('svc', (x) => x.status !== 201 || x.json.metadata?.labels?.['webhook-added'] === 'yes');
    expect(r.status).toBe(201);
    expect(r.json.metadata.labels['webhook-added']).toBe('yes');
  });

  it('a CONNECT is sent with its options object and a denial wins over the missing pod', async () => {
    const res = await call('POST', `${GROUP}/validatingwebhookconfigurations`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'connect' },
      webhooks: [
        {
          name: 'exec.connect.example.com',
          clientConfig: { url: url('/deny'), caBundle },
          rules: [{ operations: ['CONNECT'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/exec'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    });
    expect(res.status).toBe(201);
    const r = await eventually(async () => {
      const x = await call('POST', '/api/v1/namespaces/default/pods/missing/exec?command=ls&container=c&stdout=1');
      return x.status === 403 ? x : undefined;
    }, 'the CONNECT webhook in effect');
    expect(r.json.message).toBe('pods "missing" is forbidden: admission webhook "exec.connect.example.com" denied the request: no thanks');
    const sent = (received.get('') ?? []).filter((x) => x.operation === 'CONNECT');
    expect(sent.at(-1)).toMatchObject({
      operation: 'CONNECT',
      subResource: 'exec',
      requestSubResource: 'exec',
      name: 'missing',
      object: { kind: 'PodExecOptions', apiVersion: 'v1', command: ['ls'], container: 'c', stdout: true },
      oldObject: null,
    });
    expect((await call('DELETE', `${GROUP}/validatingwebhookconfigurations/connect`)).status).toBe(200);
  });

  it('webhook configurations themselves are never sent to webhooks', async () => {
    await configure('validating', 'deny-all', 'deny-all', [{ path: '/deny' }]);
    // a configuration write is not intercepted even by a webhook matching everything
    const res = await call('POST', `${GROUP}/validatingwebhookconfigurations`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'catch-all', labels: { case: 'deny' } },
      webhooks: [
        {
          name: 'all.example.com',
          clientConfig: { url: url('/deny'), caBundle },
          rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
          objectSelector: { matchLabels: { never: 'matches' } },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    });
    expect(res.status).toBe(201);
    expect((await call('DELETE', `${GROUP}/validatingwebhookconfigurations/catch-all`)).status).toBe(200);
  });

  it('defaults and validation of a configuration on write', async () => {
    await configure('mutating', 'defaults', 'defaults', [{ path: '/allow' }]);
    const got = (await call('GET', `${GROUP}/mutatingwebhookconfigurations/defaults`)).json;
    expect(got.webhooks[0]).toMatchObject({ failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, timeoutSeconds: 10, reinvocationPolicy: 'Never' });
    expect(got.webhooks[0].rules[0].scope).toBe('*');
    const bad = await call('POST', `${GROUP}/validatingwebhookconfigurations`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'bad' },
      webhooks: [{ name: 'short.com', clientConfig: { url: 'http://x/' }, timeoutSeconds: 40, sideEffects: 'Some', admissionReviewVersions: ['v2'] }],
    });
    expect(bad.status).toBe(422);
    expect(bad.json.details.causes).toEqual(
      expect.arrayContaining([
        { reason: 'FieldValueInvalid', message: 'Invalid value: "short.com": should be a domain with at least three segments separated by dots', field: 'webhooks[0].name' },
        { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Some": supported values: "None", "NoneOnDryRun"', field: 'webhooks[0].sideEffects' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: []string{"v2"}: must include at least one of v1, v1beta1', field: 'webhooks[0].admissionReviewVersions' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]', field: 'webhooks[0].clientConfig.url' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: 40: the timeout value must be between 1 and 30 seconds', field: 'webhooks[0].timeoutSeconds' },
      ]),
    );
  });
});
