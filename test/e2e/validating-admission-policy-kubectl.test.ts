// End-to-end: kubectl applies a ValidatingAdmissionPolicy with a ConfigMap
// param and its binding; `kubectl create deployment --replicas=5` is then
// refused with upstream's message, and a Warn binding's failure is printed
// by kubectl as `Warning: ...` while the Deployment is created.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';

const manifests = (ns: string, action: string) => `
apiVersion: v1
kind: Namespace
metadata:
  name: ${ns}
  labels:
    vap: ${ns}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: replica-limits
  namespace: ${ns}
data:
  maxReplicas: "3"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit-${ns}
spec:
  failurePolicy: Fail
  paramKind:
    apiVersion: v1
    kind: ConfigMap
  matchConstraints:
    namespaceSelector:
      matchLabels:
        vap: ${ns}
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= int(params.data.maxReplicas)"
    messageExpression: "'object.spec.replicas must be no greater than ' + params.data.maxReplicas"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replica-limit-${ns}-binding
spec:
  policyName: replica-limit-${ns}
  validationActions: [${action}]
  paramRef:
    name: replica-limits
    namespace: ${ns}
    parameterNotFoundAction: Deny
`;

describe('ValidatingAdmissionPolicy with kubectl', () => {
  let s: KubectlSession;
  beforeAll(async () => {
    s = await kubectlSession([]);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
  });

  /** Waits until a server-side dry run of the create is refused (deny) or warned about (warn). */
  async function inEffect(ns: string, want: 'refused' | 'warned'): Promise<void> {
    for (let i = 0; i < 300; i++) {
      const r = await s.k(['create', 'deployment', 'probe', '--image=nginx', '--replicas=5', '-n', ns, '--dry-run=server']);
      if (want === 'refused' ? r.code !== 0 : r.stderr.includes('Warning:')) return;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`the policy in ${ns} never took effect`);
  }

  it("refuses a Deployment with too many replicas; kubectl prints upstream's message", async () => {
    ok(await s.k(['apply', '-f', '-'], { input: manifests('vap-e2e-deny', 'Deny') }));
    await inEffect('vap-e2e-deny', 'refused');
    const r = await s.k(['create', 'deployment', 'web', '--image=nginx', '--replicas=5', '-n', 'vap-e2e-deny']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(
      `error: failed to create deployment: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replica-limit-vap-e2e-deny' with binding 'replica-limit-vap-e2e-deny-binding' denied request: object.spec.replicas must be no greater than 3`,
    );
    ok(await s.k(['create', 'deployment', 'web', '--image=nginx', '--replicas=2', '-n', 'vap-e2e-deny']));
  });

  it('a Warn binding: kubectl prints the warning and the Deployment is created', async () => {
    ok(await s.k(['apply', '-f', '-'], { input: manifests('vap-e2e-warn', 'Warn') }));
    await inEffect('vap-e2e-warn', 'warned');
    const r = await s.k(['create', 'deployment', 'web', '--image=nginx', '--replicas=5', '-n', 'vap-e2e-warn']);
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe(
      "Warning: Validation failed for ValidatingAdmissionPolicy 'replica-limit-vap-e2e-warn' with binding 'replica-limit-vap-e2e-warn-binding': object.spec.replicas must be no greater than 3",
    );
    expect(r.stdout.trim()).toBe('deployment.apps/web created');
  });
});
