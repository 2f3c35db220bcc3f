// The ValidatingAdmissionPolicy plugin's outcomes for one request, as
// upstream's dispatcher: the Warn warning text, the Audit annotation
// (validation.policy.admission.k8s.io/validation_failure and its JSON), the
// policy's audit annotations under <policy>/<key> with distinct values of
// several bindings joined by ", ", and an audit annotation that fails to
// evaluate denying under Fail and left out under Ignore.
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { loadAdmissionCel } from '../matching/cel.ts';
import type { MatchServices } from '../matching/index.ts';
import { PolicyState, validatingAdmissionPolicyPlugin, VALIDATION_FAILURE_ANNOTATION } from './plugin.ts';

beforeAll(loadAdmissionCel);

const match: MatchServices = {
  namespaces: { labels: () => Promise.resolve({}), get: () => Promise.resolve(undefined) },
  resources: { equivalentsFor: (r) => [r], kindFor: (r) => ({ group: r.group, version: r.version, kind: 'ConfigMap' }), convert: (_r, o) => o },
};
const configMaps: Obj[] = [
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one', namespace: 'default' }, data: { tier: 'gold' } },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'two', namespace: 'default' }, data: { tier: 'silver' } },
];
const params = {
  resolve: () => ({
    namespaced: true,
    get: (_ns: string, name: string) => Promise.resolve(configMaps.find((c) => c.metadata.name === name)),
    list: () => Promise.resolve(configMaps),
  }),
};

const policy = (name: string, spec: Obj): Obj => ({
  metadata: { name, generation: 1 },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: {
      resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], scope: '*' }],
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
    },
    ...spec,
  },
});
const binding = (name: string, policyName: string, validationActions: string[], paramRef?: Obj): Obj => ({
  metadata: { name },
  spec: { policyName, validationActions, ...(paramRef ? { paramRef } : {}) },
});

const attrs = (): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  subresource: '',
  namespace: 'default',
  name: 'c',
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { size: 'big' } },
  oldObject: null,
  dryRun: false,
  user: { name: 'alice', groups: [] },
  warnings: [],
  auditAnnotations: {},
});

async function run(policies: Obj[], bindings: Obj[]): Promise<{ outcome: string; a: AdmissionAttributes }> {
  const state = new PolicyState();
  state.resyncPolicies(policies);
  state.resyncBindings(bindings);
  const plugin = validatingAdmissionPolicyPlugin(state, { match, params });
  const a = attrs();
  try {
    await plugin.validate!(a);
    return { outcome: 'allowed', a };
  } catch (err) {
    return { outcome: err instanceof ApiError ? `${err.code} ${err.message}` : String(err), a };
  }
}

describe('validatingAdmissionPolicyPlugin', () => {
  it("Warn: upstream's warning text", async () => {
    const { outcome, a } = await run([policy('small', { validations: [{ expression: "object.data.size == 'small'", message: 'too big' }] })], [binding('small-b', 'small', ['Warn'])]);
    expect(outcome).toBe('allowed');
    expect(a.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'small' with binding 'small-b': too big"]);
  });

  it('Audit: the validation_failure annotation with the failure as JSON', async () => {
    const { outcome, a } = await run(
      [policy('small', { validations: [{ expression: 'true' }, { expression: "object.data.size == 'small'", message: 'too big' }] })],
      [binding('small-b', 'small', ['Audit', 'Warn'])],
    );
    expect(outcome).toBe('allowed');
    expect(VALIDATION_FAILURE_ANNOTATION).toBe('validation.policy.admission.k8s.io/validation_failure');
    expect(a.auditAnnotations).toEqual({
      'validation.policy.admission.k8s.io/validation_failure': '[{"message":"too big","policy":"small","binding":"small-b","expressionIndex":1,"validationActions":["Audit","Warn"]}]',
    });
  });

  it('audit annotations: trimmed, empty and null left out, distinct values of several params joined', async () => {
    const { outcome, a } = await run(
      [
        policy('tiers', {
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          auditAnnotations: [
            { key: 'tier', valueExpression: "' ' + params.data.tier + ' '" },
            { key: 'same', valueExpression: "'x'" },
            { key: 'empty', valueExpression: "'  '" },
            { key: 'none', valueExpression: 'null' },
          ],
        }),
      ],
      [binding('b1', 'tiers', ['Deny'], { name: 'one', parameterNotFoundAction: 'Deny' }), binding('b2', 'tiers', ['Deny'], { selector: {}, parameterNotFoundAction: 'Deny' })],
    );
    expect(outcome).toBe('allowed');
    expect(a.auditAnnotations).toEqual({ 'tiers/tier': 'gold, silver', 'tiers/same': 'x' });
  });

  it.each([
    ['Fail', "422 configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'broken' with binding 'broken-b' denied request: expression 'string(object.data.missing)' resulted in error: "],
    ['Ignore', 'allowed'],
  ])('an audit annotation that fails to evaluate, failurePolicy %s', async (failurePolicy, want) => {
    const { outcome, a } = await run(
      [policy('broken', { failurePolicy, auditAnnotations: [{ key: 'k', valueExpression: 'string(object.data.missing)' }] })],
      [binding('broken-b', 'broken', ['Audit'])],
    );
    if (want === 'allowed') expect(outcome).toBe('allowed');
    else expect(outcome.startsWith(want), outcome).toBe(true);
    expect(a.auditAnnotations).toEqual({});
  });
});
