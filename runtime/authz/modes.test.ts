// The chain --authorization-mode builds: system:masters first, the modes in
// order, the default, upstream's flag errors, and the modes that read files
// (ABAC, Webhook, --authorization-config).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../auth/user.ts';
import { type Attributes, resourceAttributes } from './attributes.ts';
import { AuthorizationModeError, buildAuthorization, effectiveModes, validateModeFiles, validateModes } from './modes.ts';
import { NodeGraph } from './node/graph.ts';
import { RbacIndex } from './rbac/index.ts';

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const admin: UserInfo = { name: 'root', groups: ['system:masters', 'system:authenticated'] };
const listSecrets = (u: UserInfo): Attributes => resourceAttributes(u, 'list', { apiVersion: 'v1', resource: 'secrets', namespace: 'default' });

describe('--authorization-mode validation', () => {
  const rows: [string[], string | undefined][] = [
    [[], undefined],
    [['AlwaysAllow'], undefined],
    [['AlwaysDeny', 'AlwaysAllow'], undefined],
    [['Foo'], 'authorization-mode "Foo" is not a valid mode'],
    [['AlwaysAllow', 'AlwaysAllow'], 'authorization-mode "AlwaysAllow" has mode specified more than once'],
  ];
  it.each(rows)('%j', (modes, err) => {
    if (err) expect(() => validateModes(modes)).toThrow(new AuthorizationModeError(err));
    else expect(() => validateModes(modes)).not.toThrow();
  });
});

describe('the chain', () => {
  it('AlwaysDeny has no opinion (a later mode may allow) and says why; system:masters pass it', async () => {
    const deny = buildAuthorization(['AlwaysDeny']);
    expect(await deny.authorizer.authorize(listSecrets(alice))).toEqual({ decision: 'noopinion', reason: 'Everything is forbidden.' });
    expect(await deny.authorizer.authorize(listSecrets(admin))).toMatchObject({ decision: 'allow' });
    const both = buildAuthorization(['AlwaysDeny', 'AlwaysAllow']);
    expect(await both.authorizer.authorize(listSecrets(alice))).toMatchObject({ decision: 'allow' });
  });
  it('rules: AlwaysAllow lists everything, AlwaysDeny nothing, together both', async () => {
    expect(await buildAuthorization(['AlwaysDeny']).ruleResolver.rulesFor(alice, 'default')).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
    const r = await buildAuthorization(['AlwaysDeny', 'AlwaysAllow']).ruleResolver.rulesFor(alice, 'default');
    expect(r.resourceRules).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    expect(r.nonResourceRules).toEqual([{ verbs: ['*'], nonResourceURLs: ['*'] }]);
  });
  it('a custom authorizer replaces the modes, after system:masters', async () => {
    const asked: string[] = [];
    const b = buildAuthorization([], {}, { authorize: (a) => (asked.push(a.user.name), { decision: 'deny', reason: 'custom' }) });
    expect(await b.authorizer.authorize(listSecrets(admin))).toMatchObject({ decision: 'allow' });
    expect(await b.authorizer.authorize(listSecrets(alice))).toEqual({ decision: 'deny', reason: 'custom' });
    expect(asked).toEqual(['alice']);
    expect((await b.ruleResolver.rulesFor(alice, 'x')).incomplete).toBe(true);
  });
});

describe('the default (no modes)', () => {
  it('is Node then RBAC', () => {
    expect(buildAuthorization([], { rbac: new RbacIndex(), nodeGraph: new NodeGraph() }).modes).toEqual(['Node', 'RBAC']);
    expect(effectiveModes([])).toEqual(['Node', 'RBAC']);
    expect(effectiveModes(['AlwaysAllow'])).toEqual(['AlwaysAllow']);
  });
});

describe('files and flags of the modes (upstream texts)', () => {
  const rows: [string[], Parameters<typeof validateModeFiles>[1], string | undefined][] = [
    [['ABAC'], {}, "authorization-mode ABAC's authorization policy file not passed"],
    [['AlwaysAllow'], { policyFile: '/p' }, 'cannot specify --authorization-policy-file without mode ABAC'],
    [['ABAC'], { policyFile: '/p' }, undefined],
    [['Webhook'], {}, "authorization-mode Webhook's authorization config file not passed"],
    [['Webhook'], { webhook: { version: 'v1' } }, "authorization-mode Webhook's authorization config file not passed"],
    [['AlwaysAllow'], { webhook: { configFile: '/w' } }, 'cannot specify --authorization-webhook-config-file without mode Webhook'],
    [['Webhook'], { webhook: { configFile: '/w', version: 'v2' } }, 'unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"'],
    [['Webhook'], { webhook: { configFile: '/w', version: 'v1' } }, undefined],
    [['RBAC'], { authorizationConfig: '/c' }, '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined'],
    [[], { authorizationConfig: '/c', webhook: { authorizedTtlMs: 1000 } }, '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined'],
    [[], { authorizationConfig: '/c', policyFile: '/p' }, undefined],
  ];
  it.each(rows)('%j %j', (modes, src, err) => {
    if (err) expect(() => validateModeFiles(modes, src)).toThrow(new AuthorizationModeError(err));
    else expect(() => validateModeFiles(modes, src)).not.toThrow();
  });
});

describe('ABAC, Webhook and the configuration file through buildAuthorization', () => {
  const dir = mkdtempSync(join(tmpdir(), 'modes-'));
  it('ABAC reads the policy file; a bad file names the line', async () => {
    const policy = join(dir, 'policy.jsonl');
    writeFileSync(policy, '{"user":"alice","resource":"secrets","namespace":"default"}\n');
    const logs: string[] = [];
    const b = buildAuthorization(['ABAC'], { policyFile: policy, log: (m) => logs.push(m) });
    expect(await b.authorizer.authorize(listSecrets(alice))).toMatchObject({ decision: 'allow' });
    expect(b.modes).toEqual(['ABAC']);
    expect(logs[0]).toMatch(/contained unversioned rules/);
    writeFileSync(policy, '\n{"user":\n');
    expect(() => buildAuthorization(['ABAC'], { policyFile: policy })).toThrow(new RegExp(`^error reading policy file ${policy}, line 2: \\{"user":: `));
    expect(() => buildAuthorization(['ABAC'], { policyFile: join(dir, 'nope') })).toThrow(`open ${join(dir, 'nope')}: no such file or directory`);
  });
  it('Webhook reads its kubeconfig at start; a bad one is an AuthorizationModeError', () => {
    const bad = join(dir, 'bad.kubeconfig');
    writeFileSync(bad, 'clusters: 5\n');
    expect(() => buildAuthorization(['Webhook'], { webhook: { configFile: bad } })).toThrow(AuthorizationModeError);
    const good = join(dir, 'good.kubeconfig');
    writeFileSync(good, 'clusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:1/\ncontexts:\n- name: c\n  context:\n    cluster: c\ncurrent-context: c\n');
    const b = buildAuthorization(['Webhook', 'AlwaysAllow'], { webhook: { configFile: good } });
    expect(b.modes).toEqual(['Webhook', 'AlwaysAllow']);
    b.close();
  });
  it('--authorization-config builds the chain from the file; a broken file is an AuthorizationModeError', async () => {
    const cfg = join(dir, 'authz.yaml');
    writeFileSync(cfg, 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: AlwaysDeny\n  name: alwaysdeny\n');
    const b = buildAuthorization([], { authorizationConfig: cfg });
    expect(b.modes).toEqual(['AlwaysDeny']);
    expect(await b.authorizer.authorize(listSecrets(alice))).toEqual({ decision: 'noopinion', reason: 'Everything is forbidden.' });
    expect(await b.authorizer.authorize(listSecrets(admin))).toMatchObject({ decision: 'allow' });
    b.close();
    writeFileSync(cfg, 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: AlwaysDeny\n  name: deny\n');
    expect(() => buildAuthorization([], { authorizationConfig: cfg })).toThrow(new AuthorizationModeError('expected name alwaysdeny for authorizer AlwaysDeny instead of deny'));
    expect(() => buildAuthorization([], { authorizationConfig: join(dir, 'absent.yaml') })).toThrow(`open ${join(dir, 'absent.yaml')}: no such file or directory`);
  });
});
