// End-to-end: a CustomResourceDefinition with two versions whose schemas
// differ (spec.colour in v1alpha1, spec.color in v1) and Webhook
// conversion, applied with the real kubectl to a real server process. The
// conversion webhook is served by this test over HTTPS with its own CA
// (the CRD's caBundle), reached by `url` and, for a second CRD, by a
// `service` reference (namespace, name, path, port) resolved through the
// Service's EndpointSlice to this host's address. kubectl creates in
// v1alpha1 and reads in both versions; a failing webhook is a 500 with
// upstream's text (a plain error: `Error from server: conversion webhook
// for ... failed: ...`, a failed POST in Go's words) and the server stays
// ready.
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession, ok, type KubectlSession } from '../support/kubectl.ts';
import { startTlsWebhook, type TlsWebhook } from '../support/tls-webhook.ts';

type Json = Record<string, any>;

let webhook: TlsWebhook;
let failWith: string | undefined;

function convert(o: Json, want: string): Json {
  const { colour, color, ...rest } = o.spec ?? {};
  const value = colour ?? color;
  const renamed = value === undefined ? {} : want === 'example.com/v1' ? { color: value } : { colour: value };
  return { ...o, apiVersion: want, spec: { ...rest, ...renamed } };
}

/** A non-loopback IPv4 address of this host (an EndpointSlice may not name a loopback address). */
const hostIP = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

const crd = (clientConfig: string, caBundle: string, kind = 'Gadget', plural = 'gadgets') => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {kind: ${kind}, plural: ${plural}}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        ${clientConfig}
        caBundle: ${caBundle}
  versions:
    - name: v1alpha1
      served: true
      storage: false
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, properties: {colour: {type: string}}}
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, properties: {color: {type: string}}}
`;

describe('a CRD with a conversion webhook, through kubectl', () => {
  let session: KubectlSession;
  let caBundle = '';
  beforeAll(async () => {
    // on every address: the service case reaches it at the host's own address
    webhook = await startTlsWebhook(
      (req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const { uid, desiredAPIVersion, objects } = (JSON.parse(body) as Json).request;
          const response = failWith
            ? { uid, result: { status: 'Failure', message: failWith } }
            : { uid, result: { status: 'Success' }, convertedObjects: (objects as Json[]).map((o) => convert(o, desiredAPIVersion)) };
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response }));
        });
      },
      { caName: 'conversion-webhook-ca', hosts: ['127.0.0.1', 'convsvc.convert.svc'], listenHost: '0.0.0.0' },
    );
    caBundle = webhook.caBundle;
    session = await kubectlSession();
    ok(await session.k(['apply', '-f', '-'], { input: crd(`url: ${webhook.url('/convert')}`, caBundle) }));
    ok(await session.k(['wait', '--for', 'condition=established', '--timeout=30s', 'crd/gadgets.example.com']));
  }, 120_000);
  afterAll(async () => {
    await session?.stop();
    await webhook?.close();
  });

  it('creates in v1alpha1 and reads in both versions', async () => {
    const { k } = session;
    ok(await k(['apply', '-f', '-'], { input: 'apiVersion: example.com/v1alpha1\nkind: Gadget\nmetadata:\n  name: d1\nspec:\n  colour: red\n' }));
    expect(ok(await k(['get', 'gadgets.v1alpha1.example.com', 'd1', '-o', 'jsonpath={.apiVersion} {.spec.colour}']))).toBe('example.com/v1alpha1 red');
    expect(ok(await k(['get', 'gadgets.v1.example.com', 'd1', '-o', 'jsonpath={.apiVersion} {.spec.color}']))).toBe('example.com/v1 red');
    expect(ok(await k(['get', 'gadgets.v1alpha1.example.com', '-o', 'jsonpath={.items[*].spec.colour}']))).toBe('red');
    expect(ok(await k(['get', 'gadgets']))).toMatch(/^d1\s/m);
  });

  it('answers 500 with the upstream text when the webhook fails, and stays ready', async () => {
    const { k } = session;
    failWith = 'the converter is broken';
    try {
      const r = await k(['get', 'gadgets.v1alpha1.example.com', 'd1']);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('Error from server: conversion webhook for example.com/v1, Kind=Gadget failed: the converter is broken');
      expect(ok(await k(['get', '--raw', '/readyz']))).toBe('ok');
    } finally {
      failWith = undefined;
    }
    expect(ok(await k(['get', 'gadgets.v1alpha1.example.com', 'd1', '-o', 'jsonpath={.spec.colour}']))).toBe('red');
  });

  describe.skipIf(!hostIP)('by a service reference', () => {
    const slice = (port: number) => `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: convsvc-1
  namespace: convert
  labels: {kubernetes.io/service-name: convsvc}
addressType: IPv4
endpoints:
  - addresses: [${hostIP}]
    conditions: {ready: true}
ports:
  - {name: https, port: ${port}, protocol: TCP}
`;
    beforeAll(async () => {
      const { k } = session;
      ok(await k(['create', 'namespace', 'convert']));
      ok(
        await k(['apply', '-f', '-'], {
          input: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: convsvc\n  namespace: convert\nspec:\n  ports:\n    - {name: https, port: 8443, targetPort: 9443}\n',
        }),
      );
      ok(await k(['apply', '-f', '-'], { input: slice(webhook.port) }));
      const ref = 'service: {namespace: convert, name: convsvc, path: /convert, port: 8443}';
      ok(await k(['apply', '-f', '-'], { input: crd(ref, caBundle, 'Widget', 'widgets') }));
      ok(await k(['wait', '--for', 'condition=established', '--timeout=30s', 'crd/widgets.example.com']));
    }, 120_000);

    it("creates in v1alpha1 and reads in both versions through the Service's EndpointSlice", async () => {
      const { k } = session;
      ok(await k(['apply', '-f', '-'], { input: 'apiVersion: example.com/v1alpha1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  colour: blue\n' }));
      expect(ok(await k(['get', 'widgets.v1.example.com', 'w1', '-o', 'jsonpath={.apiVersion} {.spec.color}']))).toBe('example.com/v1 blue');
      expect(ok(await k(['get', 'widgets.v1alpha1.example.com', 'w1', '-o', 'jsonpath={.apiVersion} {.spec.colour}']))).toBe('example.com/v1alpha1 blue');
    });

    it('says in Go client words why the POST failed: a refused connection, then no endpoints', async () => {
      const { k } = session;
      const prefix = 'Error from server: conversion webhook for example.com/v1, Kind=Widget failed: Post "https://convsvc.convert.svc:8443/convert?timeout=30s": ';
      // a port nothing listens on: taken, then let go
      const closed = createTcpServer();
      await new Promise<void>((r) => closed.listen(0, '0.0.0.0', r));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((r) => closed.close(r));
      ok(await k(['apply', '-f', '-'], { input: slice(port) }));
      const refused = await k(['get', 'widgets.v1alpha1.example.com', 'w1']);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(`${prefix}dial tcp ${hostIP}:${port}: connect: connection refused`);
      ok(await k(['delete', 'endpointslice', '-n', 'convert', 'convsvc-1']));
      const none = await k(['get', 'widgets.v1alpha1.example.com', 'w1']);
      expect(none.stderr).toContain(`${prefix}no endpoints available for service "convsvc"`);
      expect(ok(await k(['get', '--raw', '/readyz']))).toBe('ok');
      // back again
      ok(await k(['apply', '-f', '-'], { input: slice(webhook.port) }));
      expect(ok(await k(['get', 'widgets.v1alpha1.example.com', 'w1', '-o', 'jsonpath={.spec.colour}']))).toBe('blue');
    });
  });
});
