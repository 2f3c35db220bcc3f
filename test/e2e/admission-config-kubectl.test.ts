// End-to-end: --admission-control-config-file on a real server process with
// kubectl. PodSecurity's defaults from the file refuse `kubectl run
// --privileged` in a namespace without labels; an exempt namespace admits
// it, and labelling that namespace prints upstream's "is exempt" warning. A
// missing file or a bad plugin configuration stops the server at start with
// kube-apiserver's message.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';
import { runCliToExit } from '../support/server-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'admission-config-e2e-'));
const config = join(dir, 'admission.yaml');
writeFileSync(
  config,
  `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
    defaults:
      enforce: baseline
    exemptions:
      namespaces: [tools]
`,
);

describe('PodSecurity configured by --admission-control-config-file, with kubectl', () => {
  let s: KubectlSession;
  beforeAll(async () => {
    s = await kubectlSession(['--admission-control-config-file', config]);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('refuses a privileged pod in a namespace without labels (the baseline default)', async () => {
    ok(await s.k(['create', 'namespace', 'apps']));
    const r = await s.k(['run', 'priv', '--image=nginx', '--privileged', '-n', 'apps']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(
      'Error from server (Forbidden): pods "priv" is forbidden: violates PodSecurity "baseline:latest": privileged (container "priv" must not set securityContext.privileged=true)',
    );
  });

  it('admits it in an exempt namespace, and labelling that namespace warns that the labels are ignored', async () => {
    ok(await s.k(['create', 'namespace', 'tools']));
    expect(ok(await s.k(['run', 'priv', '--image=nginx', '--privileged', '-n', 'tools']))).toContain('pod/priv created');
    const r = await s.k(['label', 'ns', 'tools', 'pod-security.kubernetes.io/enforce=restricted']);
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe('Warning: namespace "tools" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored');
  });
});

describe('refused at start', () => {
  it('a missing file', async () => {
    const missing = join(dir, 'missing.yaml');
    const r = await runCliToExit(['--data-dir', join(dir, 'd1'), '--secure-port', '0', '--admission-control-config-file', missing]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `Error: failed to initialize admission: failed to read plugin config: unable to read admission control configuration from "${missing}" [open ${missing}: no such file or directory]`,
    );
  });

  it('a bad PodSecurity configuration', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(
      bad,
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration:\n    apiVersion: pod-security.admission.config.k8s.io/v1\n    kind: PodSecurityConfiguration\n    exemptions:\n      usernames: [""]\n',
    );
    const r = await runCliToExit(['--data-dir', join(dir, 'd2'), '--secure-port', '0', '--admission-control-config-file', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Error: failed to initialize admission: couldn\'t init admission plugin "PodSecurity": exemptions.usernames[0]: Invalid value: "": username must not be empty');
  });
});
