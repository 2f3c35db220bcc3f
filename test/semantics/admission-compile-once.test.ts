// Admission expressions are compiled once per configuration: the
// strategy's write-time check of a webhook configuration's matchConditions
// or a ValidatingAdmissionPolicy's expressions, and the admission plugin's
// compile of the same configuration when its watch event arrives, share
// the CEL module's compile cache (keyed by the expression text and the
// environment's declarations), so the second asks compile nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { compileCount } from '../../runtime/cel/compile.ts';
import { loadAdmissionCel } from '../../runtime/admission/matching/cel.ts';
import { compileMatchConditions } from '../../runtime/admission/matching/conditions.ts';
import { compilePolicy } from '../../runtime/admission/policy/evaluate.ts';
import { loadMatchConditionsCompiler } from '../../runtime/registry/strategies/admissionregistration/match-conditions.ts';
import { webhookConfigurationErrors } from '../../runtime/registry/strategies/admissionregistration/webhook-configuration.ts';
import { policyErrors, validatingAdmissionPolicyStrategy } from '../../runtime/registry/strategies/admissionregistration/policy.ts';
import type { Obj } from '../../runtime/storage/interface.ts';

beforeAll(async () => {
  await loadAdmissionCel();
  await loadMatchConditionsCompiler();
  // the policy strategy's compiler is loaded by its load()
  await validatingAdmissionPolicyStrategy({} as never, { validate: () => [], validateUpdate: () => [] } as never).load?.();
});

/** Expressions no other test compiles (the cache is the process's). */
const unique = (n: number) => `request.name == 'compile-once-${n}-${Math.random().toString(36).slice(2)}'`;

describe('one compile per admission configuration', () => {
  it("a webhook configuration's matchConditions: the strategy's check, then the plugin's compile", () => {
    const conditions = [
      { name: 'a', expression: unique(1) },
      { name: 'b', expression: unique(2) },
    ];
    const config: Obj = {
      metadata: { name: 'c' },
      webhooks: [{ name: 'a.example.com', clientConfig: { url: 'https://h/x' }, sideEffects: 'None', admissionReviewVersions: ['v1'], matchConditions: conditions }],
    };
    const before = compileCount();
    expect(webhookConfigurationErrors(config, true)).toEqual([]);
    expect(compileCount() - before).toBe(2);
    const plugin = compileMatchConditions(conditions, 'matchConditions');
    expect(plugin.errors).toEqual([]);
    expect(compileCount() - before).toBe(2);
  });

  it("a policy's matchConditions, variables, validations, messages and audit annotations", () => {
    const policy: Obj = {
      metadata: { name: 'p', generation: 1 },
      spec: {
        failurePolicy: 'Fail',
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: {
          resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }],
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: {},
        },
        matchConditions: [{ name: 'm', expression: unique(3) }],
        variables: [{ name: 'v', expression: unique(4) }],
        validations: [{ expression: unique(5), messageExpression: `'m' + string(${unique(6)})` }],
        auditAnnotations: [{ key: 'k', valueExpression: `string(${unique(7)})` }],
      },
    };
    const before = compileCount();
    expect(policyErrors(policy)).toEqual([]);
    expect(compileCount() - before).toBe(5);
    const compiled = compilePolicy(policy);
    expect(compiled.ok).toBe(true);
    expect(compileCount() - before).toBe(5);
  });
});
