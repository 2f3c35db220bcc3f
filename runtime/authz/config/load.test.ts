// The AuthorizationConfiguration file: versions, strict decoding, defaults,
// and upstream's validation errors (field paths and texts), including
// kube-apiserver's own name and reload checks.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AuthorizationConfigError, parseAuthorizationConfig } from './load.ts';
import { loadMatchConditionCompiler } from '../webhook/match.ts';

// matchConditions are compiled with CEL, loaded on demand
beforeAll(() => loadMatchConditionCompiler());

const dir = mkdtempSync(join(tmpdir(), 'authz-config-'));
const kubeconfig = join(dir, 'webhook.kubeconfig');
writeFileSync(kubeconfig, 'x');

const head = (v = 'v1beta1') => `apiVersion: apiserver.config.k8s.io/${v}\nkind: AuthorizationConfiguration\n`;
const webhook = (extra: Record<string, unknown> = {}, name = 'wh') => ({
  type: 'Webhook',
  name,
  webhook: { timeout: '3s', subjectAccessReviewVersion: 'v1', failurePolicy: 'NoOpinion', connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig }, ...extra },
});
const doc = (authorizers: unknown[], v = 'v1beta1') => JSON.stringify({ apiVersion: `apiserver.config.k8s.io/${v}`, kind: 'AuthorizationConfiguration', authorizers });

describe('a valid file', () => {
  it('YAML, v1beta1, with defaults for the TTLs', () => {
    const text = `${head()}authorizers:\n  - type: Node\n    name: node\n  - type: Webhook\n    name: first\n    webhook:\n      timeout: 3s\n      subjectAccessReviewVersion: v1\n      matchConditionSubjectAccessReviewVersion: v1\n      failurePolicy: Deny\n      connectionInfo:\n        type: KubeConfigFile\n        kubeConfigFile: ${kubeconfig}\n      matchConditions:\n        - expression: has(request.resourceAttributes)\n  - type: RBAC\n    name: rbac\n`;
    const c = parseAuthorizationConfig(text);
    expect(c.authorizers.map((a) => `${a.type}/${a.name}`)).toEqual(['Node/node', 'Webhook/first', 'RBAC/rbac']);
    expect(c.authorizers[1].webhook).toMatchObject({
      timeoutMs: 3000,
      authorizedTtlMs: 300_000,
      unauthorizedTtlMs: 30_000,
      failurePolicy: 'Deny',
      subjectAccessReviewVersion: 'v1',
      matchConditions: ['has(request.resourceAttributes)'],
    });
    expect(c.authorizers[1].webhook!.matcher).toBeDefined();
  });
  it('JSON, v1alpha1, two webhooks, explicit TTLs', () => {
    const c = parseAuthorizationConfig(doc([webhook({ authorizedTTL: '1m', unauthorizedTTL: '1s' }, 'a'), webhook({}, 'b'), { type: 'AlwaysAllow', name: 'alwaysallow' }], 'v1alpha1'));
    expect(c.authorizers[0].webhook).toMatchObject({ authorizedTtlMs: 60_000, unauthorizedTtlMs: 1000 });
    expect(c.authorizers).toHaveLength(3);
  });
});

describe('errors', () => {
  const rows: [string, string, string][] = [
    ['empty file', '', 'authorizers: Required value: at least one authorization mode must be defined'],
    ['no authorizers', head(), 'authorizers: Required value: at least one authorization mode must be defined'],
    [
      'v1 is not in 1.31',
      doc([{ type: 'RBAC', name: 'rbac' }], 'v1'),
      'failed to load AuthorizationConfiguration from file: no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v1" in scheme "pkg/apis/apiserver/load/load.go"',
    ],
    [
      'no kind',
      '{"apiVersion":"apiserver.config.k8s.io/v1beta1"}',
      `failed to load AuthorizationConfiguration from file: Object 'Kind' is missing in '{"apiVersion":"apiserver.config.k8s.io/v1beta1"}'`,
    ],
    [
      'unknown field (1.31 has no cacheAuthorizedRequests)',
      doc([webhook({ cacheAuthorizedRequests: false })]),
      'failed to load AuthorizationConfiguration from file: strict decoding error: unknown field "authorizers[0].webhook.cacheAuthorizedRequests"',
    ],
    ['duplicate key', `${head()}authorizers: []\nauthorizers: []\n`, 'failed to load AuthorizationConfiguration from file: Map keys must be unique'],
    ['a bad duration', doc([webhook({ timeout: 'soon' })]), 'failed to load AuthorizationConfiguration from file: time: invalid duration "soon"'],
    ['type missing', doc([{ name: 'x' }]), 'authorizers[0].type: Required value'],
    ['type unknown', doc([{ type: 'Foo', name: 'x' }]), 'authorizers[0].type: Unsupported value: "Foo": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"'],
    [
      'type repeated',
      doc([
        { type: 'RBAC', name: 'rbac' },
        { type: 'RBAC', name: 'rbac2' },
      ]),
      'authorizers[1].type: Duplicate value: "RBAC"',
    ],
    ['name missing', doc([webhook({}, '')]), 'authorizers[0].name: Required value'],
    ['name repeated', doc([webhook({}, 'a'), webhook({}, 'a')]), 'authorizers[1].name: Duplicate value: "a"'],
    ['name not a subdomain', doc([webhook({}, 'A_b')]), 'authorizers[0].name: Invalid value: "A_b": authorizer name is invalid: a lowercase RFC 1123 subdomain must consist of'],
    ['webhook missing', doc([{ type: 'Webhook', name: 'w' }]), 'authorizers[0].webhook: Required value: required when type=Webhook'],
    ['webhook on another type', doc([{ type: 'RBAC', name: 'rbac', webhook: {} }]), 'authorizers[0].webhook: Invalid value: "non-null": may only be specified when type=Webhook'],
    ['timeout missing', doc([webhook({ timeout: undefined })]), 'authorizers[0].webhook.timeout: Required value'],
    ['timeout over 30s', doc([webhook({ timeout: '45s' })]), 'authorizers[0].webhook.timeout: Invalid value: "45s": must be > 0s and <= 30s'],
    ['timeout negative', doc([webhook({ timeout: '-1m' })]), 'authorizers[0].webhook.timeout: Invalid value: "-1m0s": must be > 0s and <= 30s'],
    ['authorizedTTL negative', doc([webhook({ authorizedTTL: '-1s' })]), 'authorizers[0].webhook.authorizedTTL: Invalid value: "-1s": must be > 0s'],
    ['unauthorizedTTL zero', doc([webhook({ unauthorizedTTL: '0s' })]), 'authorizers[0].webhook.unauthorizedTTL: Required value'],
    ['version missing', doc([webhook({ subjectAccessReviewVersion: '' })]), 'authorizers[0].webhook.subjectAccessReviewVersion: Required value'],
    ['version unknown', doc([webhook({ subjectAccessReviewVersion: 'v2' })]), 'authorizers[0].webhook.subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"'],
    [
      'match version needed',
      doc([webhook({ matchConditions: [{ expression: 'true' }] })]),
      'authorizers[0].webhook.matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified',
    ],
    [
      'match version v1 only',
      doc([webhook({ matchConditionSubjectAccessReviewVersion: 'v1beta1' })]),
      'authorizers[0].webhook.matchConditionSubjectAccessReviewVersion: Unsupported value: "v1beta1": supported values: "v1"',
    ],
    ['failurePolicy missing', doc([webhook({ failurePolicy: '' })]), 'authorizers[0].webhook.failurePolicy: Required value'],
    ['failurePolicy unknown', doc([webhook({ failurePolicy: 'Allow' })]), 'authorizers[0].webhook.failurePolicy: Unsupported value: "Allow": supported values: "NoOpinion", "Deny"'],
    ['connection type missing', doc([webhook({ connectionInfo: {} })]), 'authorizers[0].webhook.connectionInfo.type: Required value'],
    [
      'in-cluster with a file',
      doc([webhook({ connectionInfo: { type: 'InClusterConfig', kubeConfigFile: '/x' } })]),
      'authorizers[0].webhook.connectionInfo.kubeConfigFile: Invalid value: "/x": can only be set when type=KubeConfigFile',
    ],
    ['kubeconfig missing', doc([webhook({ connectionInfo: { type: 'KubeConfigFile' } })]), 'authorizers[0].webhook.connectionInfo.kubeConfigFile: Required value'],
    [
      'kubeconfig relative',
      doc([webhook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: 'a/b' } })]),
      'authorizers[0].webhook.connectionInfo.kubeConfigFile: Invalid value: "a/b": must be an absolute path',
    ],
    [
      'kubeconfig absent',
      doc([webhook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/nope/x' } })]),
      'authorizers[0].webhook.connectionInfo.kubeConfigFile: Invalid value: "/nope/x": error loading file: stat /nope/x: no such file or directory',
    ],
    [
      'kubeconfig a directory',
      doc([webhook({ connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: dir } })]),
      `authorizers[0].webhook.connectionInfo.kubeConfigFile: Invalid value: "${dir}": must be a regular file`,
    ],
    [
      'too many conditions',
      doc([webhook({ matchConditionSubjectAccessReviewVersion: 'v1', matchConditions: Array.from({ length: 65 }, (_, i) => ({ expression: `request.user == 'u${i}'` })) })]),
      'authorizers[0].webhook.matchConditions: Too many: 65: must have at most 64 items',
    ],
    [
      'a condition that does not compile',
      doc([webhook({ matchConditionSubjectAccessReviewVersion: 'v1', matchConditions: [{ expression: '1 +' }] })]),
      'authorizers[0].webhook.matchConditions[0].expression: Invalid value: "1 +": compilation failed: ERROR: <input>:1:',
    ],
    ['fixed names for built-in types', doc([{ type: 'RBAC', name: 'my-rbac' }]), 'expected name rbac for authorizer RBAC instead of my-rbac'],
    [
      'several errors together',
      doc([{ type: 'Foo', name: 'x' }, webhook({ timeout: '31s', failurePolicy: '' })]),
      '[authorizers[0].type: Unsupported value: "Foo": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook", authorizers[1].webhook.timeout: Invalid value: "31s": must be > 0s and <= 30s, authorizers[1].webhook.failurePolicy: Required value]',
    ],
  ];
  it.each(rows)('%s', (_n, text, msg) => {
    let err: unknown;
    try {
      parseAuthorizationConfig(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AuthorizationConfigError);
    expect((err as Error).message.startsWith(msg)).toBe(true);
  });
  it('a reload must keep the non-webhook types it started with (any order)', () => {
    const both = doc([
      { type: 'RBAC', name: 'rbac' },
      { type: 'Node', name: 'node' },
    ]);
    expect(parseAuthorizationConfig(doc([{ type: 'Node', name: 'node' }, webhook(), { type: 'RBAC', name: 'rbac' }]), ['RBAC', 'Node']).authorizers).toHaveLength(3);
    expect(parseAuthorizationConfig(both, ['Node', 'RBAC']).authorizers).toHaveLength(2);
    expect(() => parseAuthorizationConfig(doc([webhook()]), ['RBAC', 'Node'])).toThrow('missing required types: [Node RBAC]');
  });
});
