// End-to-end: PodSecurity with the real kubectl against a server process.
// Labelling a namespace enforce=restricted makes `kubectl run --privileged`
// fail with kube-apiserver's message; `kubectl create deployment` in a
// namespace labelled warn=restricted prints the Warning kubectl shows; a
// relabel over a privileged Pod prints the existing-pods warnings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';

const P = 'pod-security.kubernetes.io/';

const restrictedRest = (c: string) =>
  `allowPrivilegeEscalation != false (container "${c}" must set securityContext.allowPrivilegeEscalation=false), ` +
  `unrestricted capabilities (container "${c}" must set securityContext.capabilities.drop=["ALL"]), ` +
  `runAsNonRoot != true (pod or container "${c}" must set securityContext.runAsNonRoot=true), ` +
  `seccompProfile (pod or container "${c}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

describe('PodSecurity with kubectl', () => {
  let s: KubectlSession;
  beforeAll(async () => {
    s = await kubectlSession([]);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('kubectl run of a privileged pod in a restricted namespace prints the refusal', async () => {
    ok(await s.k(['create', 'namespace', 'psa-r']));
    expect(ok(await s.k(['label', 'ns', 'psa-r', `${P}enforce=restricted`]))).toContain('namespace/psa-r labeled');
    const r = await s.k(['run', 'priv', '--image=nginx', '--privileged', '-n', 'psa-r']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(
      `Error from server (Forbidden): pods "priv" is forbidden: violates PodSecurity "restricted:latest": privileged (container "priv" must not set securityContext.privileged=true), ${restrictedRest('priv')}`,
    );
  });

  it('kubectl create deployment in a warn=restricted namespace prints the warning and creates it', async () => {
    ok(await s.k(['create', 'namespace', 'psa-w']));
    ok(await s.k(['label', 'ns', 'psa-w', `${P}warn=restricted`]));
    const r = await s.k(['create', 'deployment', 'web', '--image=nginx', '-n', 'psa-w']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('deployment.apps/web created');
    expect(r.stderr.trim()).toBe(`Warning: would violate PodSecurity "restricted:latest": ${restrictedRest('nginx')}`);
  });

  it('labelling a namespace over a privileged pod prints the existing-pods warnings', async () => {
    ok(await s.k(['create', 'namespace', 'psa-l']));
    ok(await s.k(['run', 'old', '--image=nginx', '--privileged', '-n', 'psa-l']));
    const r = await s.k(['label', 'ns', 'psa-l', `${P}enforce=baseline`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('namespace/psa-l labeled');
    expect(r.stderr.trim().split('\n')).toEqual(['Warning: existing pods in namespace "psa-l" violate the new PodSecurity enforce level "baseline:latest"', 'Warning: old: privileged']);
  });
});
