// End-to-end: a CustomResourceDefinition with two versions whose schemas
// differ (spec.colour in v1alpha1, spec.color in v1) and Webhook
// conversion, applied with the real kubectl to a real server process. The
// conversion webhook is served by this test over HTTPS with its own CA
// (the CRD's caBundle). kubectl creates in v1alpha1 and reads in both
// versions; a failing webhook is a 500 with upstream's text and the server
// stays ready.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCA, issueCertificate } from '../../runtime/auth/pki/certs.ts';
import { kubectlSession, ok, type KubectlSession } from '../support/kubectl.ts';

type Json = Record<string, any>;

let webhook: Server;
let failWith: string | undefined;

function convert(o: Json, want: string): Json {
  const { colour, color, ...rest } = o.spec ?? {};
  const value = colour ?? color;
  const renamed = value === undefined ? {} : want === 'example.com/v1' ? { color: value } : { colour: value };
  return { ...o, apiVersion: want, spec: { ...rest, ...renamed } };
}

const crd = (url: string, caBundle: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Gadget, plural: gadgets}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        url: ${url}
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
  beforeAll(async () => {
    const ca = await createCA('conversion-webhook-ca');
    const serving = await issueCertificate(ca, { commonName: 'webhook', hosts: ['127.0.0.1'], usage: 'server', validityDays: 1 });
    webhook = createServer({ cert: serving.certPEM, key: serving.keyPEM }, (req, res) => {
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
    });
    await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
    session = await kubectlSession();
    const url = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/convert`;
    ok(await session.k(['apply', '-f', '-'], { input: crd(url, Buffer.from(ca.certPEM).toString('base64')) }));
    ok(await session.k(['wait', '--for', 'condition=established', '--timeout=30s', 'crd/gadgets.example.com']));
  }, 120_000);
  afterAll(async () => {
    await session?.stop();
    webhook?.closeAllConnections();
    await new Promise((r) => webhook?.close(r));
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
      expect(r.stderr).toContain('Error from server (InternalError): Internal error occurred: conversion webhook for example.com/v1, Kind=Gadget failed: the converter is broken');
      expect(ok(await k(['get', '--raw', '/readyz']))).toBe('ok');
    } finally {
      failWith = undefined;
    }
    expect(ok(await k(['get', 'gadgets.v1alpha1.example.com', 'd1', '-o', 'jsonpath={.spec.colour}']))).toBe('red');
  });
});
