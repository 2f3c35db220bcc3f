// --admission-control-config-file through the HTTP API: PodSecurity's
// defaults (enforce baseline, warn restricted for namespaces without labels)
// and exemptions (a namespace, a user, a runtime class) from an
// AdmissionConfiguration whose PodSecurity entry is a file next to it; a
// bad configuration stops startServer() with upstream's message.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually } from '../support/app-call.ts';

const dir = mkdtempSync(join(tmpdir(), 'admission-config-http-'));
writeFileSync(
  join(dir, 'admission.yaml'),
  [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AdmissionConfiguration',
    'plugins:',
    '- name: PodSecurity',
    '  path: pod-security.yaml',
    '- name: ResourceQuota',
    '  configuration:',
    '    apiVersion: apiserver.config.k8s.io/v1',
    '    kind: ResourceQuotaConfiguration',
    '    limitedResources:',
    '    - resource: pods',
    '      matchContains: [requests.cpu]',
    '',
  ].join('\n'),
);
writeFileSync(
  join(dir, 'pod-security.yaml'),
  [
    'apiVersion: pod-security.admission.config.k8s.io/v1',
    'kind: PodSecurityConfiguration',
    'defaults:',
    '  enforce: baseline',
    '  warn: restricted',
    '  warn-version: v1.30',
    'exemptions:',
    '  usernames: [trusted-admin]',
    '  runtimeClasses: [kata]',
    '  namespaces: [exempt-ns]',
    '',
  ].join('\n'),
);

let s: RunningServer;
const call = appCaller(() => s);
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], admissionControlConfigFile: join(dir, 'admission.yaml') });
  for (const name of ['plain-ns', 'exempt-ns']) expect((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })).status).toBe(201);
});
afterAll(async () => {
  await s?.stop();
});

const P = 'pod-security.kubernetes.io/';
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }], ...spec },
});

describe('PodSecurity from the AdmissionConfiguration file', () => {
  it('a namespace without labels gets the configured enforce default', async () => {
    const r = await call('POST', '/api/v1/namespaces/plain-ns/pods', pod('priv'));
    expect(r.status).toBe(403);
    expect(r.json.message).toBe('pods "priv" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
  });

  it('the warn default puts a warning on an admitted pod', async () => {
    const r = await call('POST', '/api/v1/namespaces/plain-ns/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'plain' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect(r.status).toBe(201);
    expect(r.headers.get('warning')).toContain('would violate PodSecurity \\"restricted:v1.30\\"');
  });

  it('an exempt namespace, user or runtime class admits a privileged pod', async () => {
    expect((await call('POST', '/api/v1/namespaces/exempt-ns/pods', pod('in-exempt-ns'))).status).toBe(201);
    expect((await call('POST', '/api/v1/namespaces/plain-ns/pods', pod('by-admin'), undefined, { 'Impersonate-User': 'trusted-admin' })).status).toBe(201);
    expect((await call('POST', '/api/v1/namespaces/plain-ns/pods', pod('by-bob'), undefined, { 'Impersonate-User': 'bob' })).status).toBe(403);
    // the RuntimeClass plugin wants the class to exist
    expect((await call('POST', '/apis/node.k8s.io/v1/runtimeclasses', { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'kata' }, handler: 'kata' })).status).toBe(201);
    expect((await call('POST', '/api/v1/namespaces/plain-ns/pods', pod('kata', { runtimeClassName: 'kata' }))).status).toBe(201);
  });

  it('labelling an exempt namespace warns that the policy is ignored', async () => {
    const r = await call('PATCH', '/api/v1/namespaces/exempt-ns', { metadata: { labels: { [`${P}enforce`]: 'restricted' } } }, 'application/merge-patch+json');
    expect(r.status).toBe(200);
    expect(r.headers.get('warning')).toBe('299 - "namespace \\"exempt-ns\\" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored"');
  });
});

describe('ResourceQuota limitedResources from the file', () => {
  const cpuPod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }] } });

  it('a pod requesting cpu is refused until a quota on requests.cpu exists', async () => {
    expect((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quota-ns' } })).status).toBe(201);
    const r = await call('POST', '/api/v1/namespaces/quota-ns/pods', cpuPod('p1'));
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ reason: 'Forbidden', message: 'pods "p1" is forbidden: insufficient quota to consume: requests.cpu' });
    // a pod consuming no cpu is not limited
    expect((await call('POST', '/api/v1/namespaces/quota-ns/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p0' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })).status).toBe(
      201,
    );
    const q = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'cpu' }, spec: { hard: { 'requests.cpu': '1' } } };
    expect((await call('POST', '/api/v1/namespaces/quota-ns/resourcequotas', q)).status).toBe(201);
    // the quota controller fills in status.used
    await eventually(async () => ((await call('GET', '/api/v1/namespaces/quota-ns/resourcequotas/cpu')).json.status?.used ? true : undefined), 'quota status');
    expect((await call('POST', '/api/v1/namespaces/quota-ns/pods', cpuPod('p2'))).status).toBe(201);
    expect((await call('GET', '/api/v1/namespaces/quota-ns/resourcequotas/cpu')).json.status.used).toEqual({ 'requests.cpu': '100m' });
  });
});

describe('a bad configuration stops start-up', () => {
  it.each([
    ['a bad level', 'defaults:\n  enforce: strict\n', 'couldn\'t init admission plugin "PodSecurity": defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted'],
    ['a bad kind', '', 'couldn\'t init admission plugin "PodSecurity": no kind "Other" is registered for version "pod-security.admission.config.k8s.io/v1"'],
  ])('%s', async (name, body, message) => {
    const kind = name === 'a bad kind' ? 'Other' : 'PodSecurityConfiguration';
    const file = join(dir, `bad-${name.replace(/\W/g, '_')}.yaml`);
    writeFileSync(
      file,
      `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration:\n    apiVersion: pod-security.admission.config.k8s.io/v1\n    kind: ${kind}\n${body
        .split('\n')
        .filter(Boolean)
        .map((l) => `    ${l}`)
        .join('\n')}\n`,
    );
    await expect(startServer({ admissionControlConfigFile: file })).rejects.toThrow(message);
  });

  it("a disabled plugin's configuration is not read", async () => {
    const file = join(dir, 'disabled.yaml');
    writeFileSync(file, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration: {kind: Nonsense}\n');
    const other = await startServer({ admissionControlConfigFile: file, disableAdmissionPlugins: ['PodSecurity'] });
    await other.stop();
  });
});
