// Required fields of the admissionregistration.k8s.io/v1 kinds through the
// HTTP API: a field the schema marks required and the kind's validation
// checks itself is answered with the validation's text (upstream's
// ValidateMutatingWebhookConfiguration, ValidateValidatingAdmissionPolicy,
// ...), not the schema check's bare `Required value`, and the other errors
// of the same object are reported with it. One row per missing field, each
// a valid object with that field removed (on create, and on update through
// a JSON patch).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, type Json } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);
const AR = '/apis/admissionregistration.k8s.io/v1';

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

const hook = (): Json => ({
  name: 'a.example.com',
  clientConfig: { service: { namespace: 'ns', name: 'svc' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  matchConditions: [{ name: 'c', expression: 'true' }],
});
const webhookConfig = (kind: string, name: string): Json => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks: [hook()] });
const policy = (name: string): Json => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: {
    matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] },
    matchConditions: [{ name: 'c', expression: 'true' }],
    variables: [{ name: 'v', expression: '1' }],
    validations: [{ expression: 'true' }],
    auditAnnotations: [{ key: 'k', valueExpression: "'x'" }],
  },
});

/** Removes the field at a dotted path with numeric list indexes. */
function without(obj: Json, path: string): Json {
  const copy = structuredClone(obj);
  const keys = path.split('.');
  let cur: Json = copy;
  for (const k of keys.slice(0, -1)) cur = cur[k];
  delete cur[keys[keys.length - 1]];
  return copy;
}

const causes = (r: { json: Json }) => ((r.json.details?.causes ?? []) as Json[]).map((c) => `${c.field}: ${c.message}`);

type Row = [string, string, (name: string) => Json, string, string[]];
const MWC = (n: string) => webhookConfig('MutatingWebhookConfiguration', n);
const VWC = (n: string) => webhookConfig('ValidatingWebhookConfiguration', n);
const rows: Row[] = [
  ['mutatingwebhookconfigurations', 'sideEffects', MWC, 'webhooks.0.sideEffects', ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']],
  ['mutatingwebhookconfigurations', 'admissionReviewVersions', MWC, 'webhooks.0.admissionReviewVersions', ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']],
  ['mutatingwebhookconfigurations', 'clientConfig', MWC, 'webhooks.0.clientConfig', ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']],
  [
    'mutatingwebhookconfigurations',
    'the service namespace',
    MWC,
    'webhooks.0.clientConfig.service.namespace',
    ['webhooks[0].clientConfig.service.namespace: Required value: service namespace is required'],
  ],
  ['mutatingwebhookconfigurations', 'the service name', MWC, 'webhooks.0.clientConfig.service.name', ['webhooks[0].clientConfig.service.name: Required value: service name is required']],
  ['mutatingwebhookconfigurations', 'the name', MWC, 'webhooks.0.name', ['webhooks[0].name: Required value']],
  ['mutatingwebhookconfigurations', 'a match condition expression', MWC, 'webhooks.0.matchConditions.0.expression', ['webhooks[0].matchConditions[0].expression: Required value']],
  ['validatingwebhookconfigurations', 'sideEffects', VWC, 'webhooks.0.sideEffects', ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']],
  ['validatingwebhookconfigurations', 'admissionReviewVersions', VWC, 'webhooks.0.admissionReviewVersions', ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']],
  ['validatingwebhookconfigurations', 'clientConfig', VWC, 'webhooks.0.clientConfig', ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']],
  ['validatingwebhookconfigurations', 'a match condition name', VWC, 'webhooks.0.matchConditions.0.name', ['webhooks[0].matchConditions[0].name: Required value']],
  ['validatingadmissionpolicies', 'a validation expression', policy, 'spec.validations.0.expression', ['spec.validations[0].expression: Required value: expression is not specified']],
  ['validatingadmissionpolicies', 'a variable name', policy, 'spec.variables.0.name', ['spec.variables[0].name: Required value: name is not specified']],
  ['validatingadmissionpolicies', 'a variable expression', policy, 'spec.variables.0.expression', ['spec.variables[0].expression: Required value: expression is not specified']],
  [
    'validatingadmissionpolicies',
    'an audit annotation value',
    policy,
    'spec.auditAnnotations.0.valueExpression',
    ['spec.auditAnnotations[0].valueExpression: Required value: valueExpression is not specified'],
  ],
  ['validatingadmissionpolicies', 'a match condition expression', policy, 'spec.matchConditions.0.expression', ['spec.matchConditions[0].expression: Required value']],
];

describe('required fields of admissionregistration kinds get their validation texts', () => {
  it.each(rows)('%s without %s (create)', async (resource, _what, make, path, want) => {
    const name = `create-${resource.slice(0, 8)}-${path
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase()
      .slice(0, 40)}`;
    const r = await call('POST', `${AR}/${resource}`, without(make(name), path));
    expect(r.status, JSON.stringify(r.json)).toBe(422);
    expect(causes(r)).toEqual(want);
  });

  it.each(rows)('%s without %s (JSON patch)', async (resource, _what, make, path, want) => {
    const name = `patch-${resource.slice(0, 8)}-${path
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase()
      .slice(0, 40)}`;
    expect((await call('POST', `${AR}/${resource}`, make(name))).status).toBe(201);
    const r = await call('PATCH', `${AR}/${resource}/${name}`, [{ op: 'remove', path: `/${path.replaceAll('.', '/')}` }], 'application/json-patch+json');
    expect(r.status, JSON.stringify(r.json)).toBe(422);
    expect(causes(r)).toEqual(want);
  });

  it('reports a missing field together with the validation errors of the rest (upstream has one list)', async () => {
    const obj = without(MWC('together'), 'webhooks.0.sideEffects');
    obj.webhooks[0].timeoutSeconds = 31;
    const r = await call('POST', `${AR}/mutatingwebhookconfigurations`, obj);
    expect(r.status).toBe(422);
    expect(causes(r)).toEqual([
      'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
    ]);
  });

  it('an audit annotation without a key is checked as the key it makes (policy name/key)', async () => {
    const r = await call('POST', `${AR}/validatingadmissionpolicies`, without(policy('nokey'), 'spec.auditAnnotations.0.key'));
    expect(r.status).toBe(422);
    expect(causes(r)[0]).toBe('spec.auditAnnotations[0].key: Invalid value: "nokey/": name part must be non-empty');
  });
});
