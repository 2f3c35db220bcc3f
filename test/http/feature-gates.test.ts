// Feature gates through startServer() and app.request(): the served
// behaviour follows each server's own gates (two servers in one process,
// different gates): WatchList off (1.31's default) refuses a watch's
// sendInitialEvents with upstream's 422, on serves it;
// CustomResourceFieldSelectors off ignores a CRD's selectableFields (a field
// selector on one is then 400, as for any unknown field label). Start-up
// refuses unknown gates, locked gates set against their lock, and the
// config-file flags whose gate is off, with upstream's texts, and warns of
// deprecated and GA gates set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeatureGateError } from '../../runtime/features/feature-gates.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';

let byDefault: RunningServer;
let gated: RunningServer;
const callDefault = appCaller(() => byDefault);
const callGated = appCaller(() => gated);

beforeAll(async () => {
  [byDefault, gated] = await Promise.all([
    startServer({ authorizationMode: ['AlwaysAllow'] }),
    startServer({ authorizationMode: ['AlwaysAllow'], featureGates: 'WatchList=true,CustomResourceFieldSelectors=false' }),
  ]);
});
afterAll(async () => {
  await Promise.all([byDefault?.stop(), gated?.stop()]);
});

const CM = '/api/v1/namespaces/default/configmaps';
const GATE_MESSAGE = 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled';

describe('WatchList', () => {
  it('off: a watch asking sendInitialEvents is 422 on ListOptions', async () => {
    const r = await callDefault('GET', `${CM}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      code: 422,
      message: `ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: ${GATE_MESSAGE}`,
      details: { group: 'meta.k8s.io', kind: 'ListOptions', causes: [{ reason: 'FieldValueForbidden', field: 'sendInitialEvents', message: `Forbidden: ${GATE_MESSAGE}` }] },
    });
  });

  it('off: the gate error follows the resourceVersionMatch one, as upstream orders them', async () => {
    const r = await callDefault('GET', `${CM}?watch=1&sendInitialEvents=false`);
    expect(r.status).toBe(422);
    expect(r.json.details.causes.map((c: Json) => c.field)).toEqual(['resourceVersionMatch', 'sendInitialEvents']);
  });

  it('off: a watch without sendInitialEvents is served', async () => {
    const res = await byDefault.app.request(`${CM}?watch=1`);
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });

  it('on: sendInitialEvents is served', async () => {
    const res = await gated.app.request(`${CM}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });
});

describe('CustomResourceFieldSelectors', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'paints.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind: 'Paint', plural: 'paints' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          selectableFields: [{ jsonPath: '.spec.color' }],
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' } } } } } },
        },
      ],
    },
  };
  const PAINTS = '/apis/example.com/v1/namespaces/default/paints';

  it('on (the default): a selectable field selects; off: it is an unknown field label', async () => {
    for (const call of [callDefault, callGated]) {
      expect((await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
      await eventually(async () => ((await call('GET', PAINTS)).status === 200 ? true : undefined), 'paints served');
      for (const color of ['red', 'blue']) {
        expect((await call('POST', PAINTS, { apiVersion: 'example.com/v1', kind: 'Paint', metadata: { name: color }, spec: { color } })).status).toBe(201);
      }
    }
    const on = await callDefault('GET', `${PAINTS}?fieldSelector=spec.color=red`);
    expect(on.status).toBe(200);
    expect(on.json.items.map((i: Json) => i.metadata.name)).toEqual(['red']);
    const off = await callGated('GET', `${PAINTS}?fieldSelector=spec.color=red`);
    expect(off.status).toBe(400);
    expect(off.json.message).toBe('field label not supported: spec.color');
  });
});

describe('start-up', () => {
  it.each([
    ['Bogus=true', 'unrecognized feature gate: Bogus'],
    ['ValidatingAdmissionPolicy=false', 'cannot set feature gate ValidatingAdmissionPolicy to false, feature is locked to true'],
    ['WatchList=yes', 'invalid value of WatchList=yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
  ])('--feature-gates=%s is refused: %s', async (featureGates, message) => {
    await expect(startServer({ insecureServeHTTP: true, featureGates })).rejects.toThrow(new FeatureGateError(message));
  });

  it.each([
    [
      { authenticationConfig: '/nonexistent/authn.yaml', featureGates: { StructuredAuthenticationConfiguration: false } },
      'set --feature-gates=StructuredAuthenticationConfiguration=true to use authentication-config file',
    ],
    [
      { authorizationConfig: '/nonexistent/authz.yaml', featureGates: { StructuredAuthorizationConfiguration: false } },
      '--authorization-config cannot be used without enabling StructuredAuthorizationConfiguration feature flag',
    ],
  ])('a config file whose gate is off is refused: %s', async (options, message) => {
    await expect(startServer({ insecureServeHTTP: true, ...options })).rejects.toThrow(new FeatureGateError(message));
  });

  it('warns of deprecated and GA gates set', async () => {
    const logs: string[] = [];
    const s = await startServer({ insecureServeHTTP: true, featureGates: 'KMSv1=false,WatchBookmark=true', log: (m) => logs.push(m) });
    await s.stop();
    expect(logs).toContain('Setting deprecated feature gate KMSv1=false. It will be removed in a future release.');
    expect(logs).toContain('Setting GA feature gate WatchBookmark=true. It will be removed in a future release.');
  });
});
