// The PodSecurity plugin in the admission chain: only creates and updates
// of its resources are looked at; warnings go to the request's list, audit
// annotations onto the attributes, a refusal is thrown.

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/errors.ts';
import type { AdmissionAttributes } from '../../chain.ts';
import { podSecurityPlugin } from './plugin.ts';

const P = 'pod-security.kubernetes.io/';
const plugin = podSecurityPlugin({
  namespace: async () => ({ metadata: { name: 'ns', labels: { [`${P}enforce`]: 'baseline', [`${P}warn`]: 'restricted', [`${P}audit`]: 'restricted' } } }),
  pods: async () => [],
});

const attrs = (over: Partial<AdmissionAttributes>): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'Pod',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name: 'p',
  object: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true } }] } },
  oldObject: null,
  dryRun: false,
  user: { name: 'u', groups: [] },
  warnings: [],
  ...over,
});

const SECCOMP = 'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

describe('podSecurityPlugin', () => {
  it('admits with a warning and audit annotations on the attributes', async () => {
    const a = attrs({ auditAnnotations: { 'other/key': 'kept' } });
    await plugin.validate!(a);
    expect(a.warnings).toEqual([`would violate PodSecurity "restricted:latest": ${SECCOMP}`]);
    expect(a.auditAnnotations).toEqual({
      'other/key': 'kept',
      [`${P}enforce-policy`]: 'baseline:latest',
      [`${P}audit-violations`]: `would violate PodSecurity "restricted:latest": ${SECCOMP}`,
    });
  });

  it('throws the refusal', async () => {
    const a = attrs({ object: { metadata: { name: 'p' }, spec: { hostPID: true, containers: [{ name: 'c' }] } } });
    const err = await Promise.resolve(plugin.validate!(a)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID)');
    expect(a.warnings).toEqual([]);
  });

  it.each([
    ['a delete', { operation: 'DELETE' as const, object: null, oldObject: { spec: { hostPID: true } } }],
    ['a connect', { operation: 'CONNECT' as const, subresource: 'exec', object: { spec: { hostPID: true } } }],
    ['another resource', { resource: 'configmaps', object: { spec: { hostPID: true } } }],
    ['a pod template in another group', { group: 'example.com', resource: 'deployments', object: { spec: { template: { spec: { hostPID: true } } } } }],
  ])('leaves %s alone', async (_n, over) => {
    const a = attrs(over);
    await plugin.validate!(a);
    expect(a.warnings).toEqual([]);
    expect(a.auditAnnotations).toBeUndefined();
  });
});
