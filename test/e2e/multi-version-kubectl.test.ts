// End-to-end with the real kubectl: a PriorityLevelConfiguration created
// through flowcontrol.apiserver.k8s.io/v1 with an explicit zero share is read
// through v1beta3 (`kubectl get prioritylevelconfigurations.v1beta3...`):
// apiVersion v1beta3, the zero kept and marked with upstream's annotation;
// read back in v1, the object is unchanged. A FlowSchema created in v1 reads the same in v1beta3.
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession, ok, type KubectlSession } from '../support/kubectl.ts';

let session: KubectlSession;
beforeAll(async () => {
  session = await kubectlSession();
});
afterAll(async () => {
  await session?.stop();
});

const ZERO = 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares';

describe('kubectl reads an object created in v1 through v1beta3', () => {
  it('PriorityLevelConfiguration with an explicit zero', async () => {
    const manifest = `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata:
  name: zero-shares
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 0
    limitResponse:
      type: Reject
`;
    ok(await session.k(['create', '-f', '-'], { input: manifest }));
    const beta = parse(ok(await session.k(['get', 'prioritylevelconfigurations.v1beta3.flowcontrol.apiserver.k8s.io', 'zero-shares', '-o', 'yaml'])));
    expect(beta.apiVersion).toBe('flowcontrol.apiserver.k8s.io/v1beta3');
    expect(beta.spec.limited.nominalConcurrencyShares).toBe(0);
    expect(beta.metadata.annotations).toEqual({ [ZERO]: '' });
    const v1 = parse(ok(await session.k(['get', 'prioritylevelconfigurations.v1.flowcontrol.apiserver.k8s.io', 'zero-shares', '-o', 'yaml'])));
    expect(v1.apiVersion).toBe('flowcontrol.apiserver.k8s.io/v1');
    expect(v1.spec.limited.nominalConcurrencyShares).toBe(0);
    expect(v1.metadata.annotations).toBeUndefined();
    expect(v1.metadata.resourceVersion).toBe(beta.metadata.resourceVersion);
  });

  it('FlowSchema', async () => {
    const manifest = `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata:
  name: e2e-schema
spec:
  priorityLevelConfiguration:
    name: global-default
  matchingPrecedence: 900
  rules:
  - subjects:
    - kind: User
      user:
        name: someone
    nonResourceRules:
    - verbs: ["get"]
      nonResourceURLs: ["/healthz"]
`;
    ok(await session.k(['create', '-f', '-'], { input: manifest }));
    const beta = parse(ok(await session.k(['get', 'flowschemas.v1beta3.flowcontrol.apiserver.k8s.io', 'e2e-schema', '-o', 'yaml'])));
    const v1 = parse(ok(await session.k(['get', 'flowschemas.v1.flowcontrol.apiserver.k8s.io', 'e2e-schema', '-o', 'yaml'])));
    expect(beta.apiVersion).toBe('flowcontrol.apiserver.k8s.io/v1beta3');
    expect(beta.spec).toEqual(v1.spec);
    expect(beta.metadata.resourceVersion).toBe(v1.metadata.resourceVersion);
  });
});
