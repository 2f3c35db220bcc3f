import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AuditAttributes, evaluatePolicy, loadPolicyFile, parsePolicy } from './policy.ts';

const alice = { name: 'alice', groups: ['devs', 'system:authenticated'] };
type Attrs = AuditAttributes & { user?: typeof alice };
const res = (verb: string, resource: string, more: Partial<Attrs> = {}): Attrs => ({
  user: alice,
  verb,
  isResourceRequest: true,
  path: '',
  namespace: 'default',
  apiGroup: '',
  resource,
  subresource: '',
  name: '',
  ...more,
});
const nonRes = (path: string, more: Partial<Attrs> = {}): Attrs => ({
  user: alice,
  verb: 'get',
  isResourceRequest: false,
  path,
  namespace: '',
  apiGroup: '',
  resource: '',
  subresource: '',
  name: '',
  ...more,
});
const policy = (rules: unknown[], extra: Record<string, unknown> = {}) => parsePolicy(JSON.stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules, ...extra }));

describe('evaluatePolicy: the first matching rule decides', () => {
  const rows: [string, unknown[], Attrs, string][] = [
    ['no rule matches: None', [{ level: 'Metadata', users: ['bob'] }], res('get', 'pods'), 'None'],
    ['a catch-all rule', [{ level: 'Request' }], res('get', 'pods'), 'Request'],
    ['order: first match wins', [{ level: 'None', verbs: ['get'] }, { level: 'Metadata' }], res('get', 'pods'), 'None'],
    ['order: a later rule when the first does not match', [{ level: 'None', verbs: ['list'] }, { level: 'Metadata' }], res('get', 'pods'), 'Metadata'],
    ['users', [{ level: 'Metadata', users: ['alice'] }], res('get', 'pods'), 'Metadata'],
    ['userGroups: any of the user groups', [{ level: 'Metadata', userGroups: ['devs'] }], res('get', 'pods'), 'Metadata'],
    ['userGroups: no user (failed authentication) never matches', [{ level: 'Metadata', userGroups: ['devs'] }], res('get', 'pods', { user: undefined }), 'None'],
    ['users: no user never matches', [{ level: 'Metadata', users: ['alice'] }], res('get', 'pods', { user: undefined }), 'None'],
    ['verbs', [{ level: 'Metadata', verbs: ['create', 'update'] }], res('update', 'pods'), 'Metadata'],
    ['resources: the group must match', [{ level: 'Metadata', resources: [{ group: 'apps', resources: ['pods'] }] }], res('get', 'pods'), 'None'],
    ['resources: a group with no resources means all of it', [{ level: 'Metadata', resources: [{ group: '' }] }], res('get', 'secrets'), 'Metadata'],
    ['resources: *', [{ level: 'Metadata', resources: [{ group: '', resources: ['*'] }] }], res('get', 'pods', { subresource: 'log' }), 'Metadata'],
    ['resources: a subresource needs resource/sub', [{ level: 'Metadata', resources: [{ group: '', resources: ['pods'] }] }], res('get', 'pods', { subresource: 'log' }), 'None'],
    ['resources: resource/sub', [{ level: 'Metadata', resources: [{ group: '', resources: ['pods/log'] }] }], res('get', 'pods', { subresource: 'log' }), 'Metadata'],
    ['resources: */sub', [{ level: 'Metadata', resources: [{ group: '', resources: ['*/status'] }] }], res('update', 'nodes', { subresource: 'status' }), 'Metadata'],
    ['resources: */sub needs a subresource', [{ level: 'Metadata', resources: [{ group: '', resources: ['*/status'] }] }], res('update', 'nodes'), 'None'],
    ['resources: resource/*', [{ level: 'Metadata', resources: [{ group: '', resources: ['pods/*'] }] }], res('get', 'pods', { subresource: 'exec' }), 'Metadata'],
    ['resources: resourceNames', [{ level: 'Metadata', resources: [{ group: '', resources: ['configmaps'], resourceNames: ['cfg'] }] }], res('get', 'configmaps', { name: 'cfg' }), 'Metadata'],
    ['resources: another name', [{ level: 'Metadata', resources: [{ group: '', resources: ['configmaps'], resourceNames: ['cfg'] }] }], res('get', 'configmaps', { name: 'x' }), 'None'],
    ['namespaces', [{ level: 'Metadata', namespaces: ['kube-system'] }], res('get', 'pods', { namespace: 'kube-system' }), 'Metadata'],
    ['namespaces: another one', [{ level: 'Metadata', namespaces: ['kube-system'] }], res('get', 'pods'), 'None'],
    ['namespaces: "" is cluster scope', [{ level: 'Metadata', namespaces: [''] }], res('get', 'nodes', { namespace: '' }), 'Metadata'],
    ['resource rules never match a non-resource path', [{ level: 'Metadata', resources: [{ group: '' }] }], nonRes('/version'), 'None'],
    ['nonResourceURLs: exact', [{ level: 'Metadata', nonResourceURLs: ['/version'] }], nonRes('/version'), 'Metadata'],
    ['nonResourceURLs: a trailing *', [{ level: 'Metadata', nonResourceURLs: ['/healthz*'] }], nonRes('/healthz/etcd'), 'Metadata'],
    ['nonResourceURLs: *', [{ level: 'Metadata', nonResourceURLs: ['*'] }], nonRes('/anything'), 'Metadata'],
    ['nonResourceURLs never match a resource request', [{ level: 'Metadata', nonResourceURLs: ['*'] }], res('get', 'pods'), 'None'],
  ];
  it.each(rows)('%s', (_name, rules, attrs, level) => {
    expect(evaluatePolicy(policy(rules), attrs, attrs.user).level).toBe(level);
  });

  it("joins a rule's omitStages with the policy's; a rule's omitManagedFields overrides the policy's", () => {
    const p = policy(
      [
        { level: 'Metadata', verbs: ['get'], omitStages: ['ResponseStarted'], omitManagedFields: false },
        { level: 'Request', omitStages: ['RequestReceived'] },
      ],
      { omitStages: ['RequestReceived'], omitManagedFields: true },
    );
    const get = evaluatePolicy(p, res('get', 'pods'), alice);
    expect([...get.omitStages].sort()).toEqual(['RequestReceived', 'ResponseStarted']);
    expect(get.omitManagedFields).toBe(false);
    const list = evaluatePolicy(p, res('list', 'pods'), alice);
    expect(list.omitStages).toEqual(['RequestReceived']);
    expect(list.omitManagedFields).toBe(true);
    const none = evaluatePolicy(policy([{ level: 'Metadata', users: ['x'] }], { omitStages: ['Panic'] }), res('get', 'pods'), alice);
    expect(none).toEqual({ level: 'None', omitStages: ['Panic'], omitManagedFields: false });
  });
});

describe('parsePolicy: bad policies with upstream texts', () => {
  const rows: [string, string, string][] = [
    ['YAML accepted', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n', ''],
    ['no kind', '{"apiVersion":"audit.k8s.io/v1","rules":[]}', `failed decoding: Object 'Kind' is missing in '{"apiVersion":"audit.k8s.io/v1","rules":[]}'`],
    ['v1beta1 is gone in 1.31', 'apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]', 'failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1"'],
    ['no rules', 'apiVersion: audit.k8s.io/v1\nkind: Policy\n', 'loaded illegal policy with 0 rules'],
    ['a level is required', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{verbs: [get]}]', 'rules[0].level: Required value'],
    [
      'an unknown level',
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Everything}]',
      'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    ],
    [
      'a relative non-resource URL and a * inside',
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: ["healthz", "/a*b"]}]',
      `[rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character, rules[0].nonResourceURLs[1]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule]`,
    ],
    [
      'resources and non-resource URLs together',
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: ["/x"], namespaces: [a]}]',
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs',
    ],
    [
      'resourceNames without resources',
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, resources: [{group: "", resourceNames: [a]}]}]',
      'rules[0].resources.resourceNames: Invalid value: []string{"a"}: using resourceNames requires at least one resource',
    ],
    [
      'a group with a version',
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, resources: [{group: "apps/v1"}]}]',
      'rules[0].resources.group: Invalid value: "apps/v1": a lowercase RFC 1123 subdomain',
    ],
    [
      'an unknown stage',
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, omitStages: [Later]}]',
      'rules[0].omitStages[0]: Invalid value: "Later": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    ],
    [
      'a field of the wrong type',
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, verbs: get}]',
      'failed decoding: json: cannot unmarshal string into Go struct field PolicyRule.rules.verbs of type []string',
    ],
  ];
  it.each(rows)('%s', (_name, text, want) => {
    if (!want) {
      expect(() => parsePolicy(text)).not.toThrow();
      return;
    }
    expect(() => parsePolicy(text)).toThrow(want);
  });

  it('loadPolicyFile names the file as kube-apiserver does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-policy-'));
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, 'apiVersion: audit.k8s.io/v1\nkind: Policy\n');
    expect(() => loadPolicyFile(file)).toThrow(`loading audit policy file: loaded illegal policy with 0 rules: from file ${file}`);
    expect(() => loadPolicyFile(join(dir, 'none.yaml'))).toThrow(
      `loading audit policy file: failed to read file path "${join(dir, 'none.yaml')}": open ${join(dir, 'none.yaml')}: no such file or directory`,
    );
  });
});
