// Admission matching, table by table: rules (operations, groups, versions,
// resource and subresource forms, scope), namespaceSelector and
// objectSelector, resourceRules with names and excludeResourceRules,
// matchPolicy Equivalent over the served resources (another version of a
// group, core and events.k8s.io events), the AdmissionRequest built for
// `request`, and matchConditions (checks on write, evaluation with
// failurePolicy).
import { beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../../generated/registry.ts';
import { ApiError } from '../../api/errors.ts';
import { ServedIndex } from '../../api/served-index.ts';
import type { ApiIndex } from '../../registry/served.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { apiResourceMapper } from './equivalents.ts';
import { matchResources, matchWebhook, requestVersions, type MatchResources, type MatchServices, type WebhookCriteria } from './index.ts';
import { ruleMatches, type RuleSubject, type RuleWithOperations } from './rules.ts';
import { activation, loadAdmissionCel } from './cel.ts';
import { compileMatchConditions, evaluateMatchConditions } from './conditions.ts';
import { admissionRequest } from './request.ts';

const api = new ServedIndex(resources, () => ({}), new Map()) as unknown as ApiIndex;
const namespaces: Record<string, Record<string, string>> = { prod: { env: 'prod' }, dev: { env: 'dev' } };
const services: MatchServices = {
  resources: apiResourceMapper(api),
  namespaces: {
    async labels(name) {
      return namespaces[name];
    },
    async get(name) {
      return namespaces[name] ? { metadata: { name, labels: namespaces[name] } } : undefined;
    },
  },
};

const attrs = (over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE',
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  resource: 'deployments',
  subresource: '',
  namespace: 'prod',
  name: 'web',
  object: { metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 3 } },
  oldObject: null,
  dryRun: false,
  user: { name: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } },
  ...over,
});

describe('ruleMatches', () => {
  const subject = (over: Partial<RuleSubject> = {}): RuleSubject => ({
    operation: 'CREATE',
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    subresource: '',
    namespace: 'prod',
    ...over,
  });
  const all: RuleWithOperations = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] };
  const rows: [string, RuleWithOperations, Partial<RuleSubject>, boolean][] = [
    ['wildcards', all, {}, true],
    ['`*` is no subresource', all, { subresource: 'scale' }, false],
    ['`*/*` any subresource', { ...all, resources: ['*/*'] }, { subresource: 'scale' }, true],
    ['`*/*` also the main resource (an empty subresource)', { ...all, resources: ['*/*'] }, {}, true],
    ['`*/scale`', { ...all, resources: ['*/scale'] }, { subresource: 'scale' }, true],
    ['`*/scale` not status', { ...all, resources: ['*/scale'] }, { subresource: 'status' }, false],
    ['`deployments/status`', { ...all, resources: ['deployments/status'] }, { subresource: 'status' }, true],
    ['`deployments` not its status', { ...all, resources: ['deployments'] }, { subresource: 'status' }, false],
    ['another operation', { ...all, operations: ['UPDATE', 'DELETE'] }, {}, false],
    ['the operation listed', { ...all, operations: ['UPDATE', 'CREATE'] }, {}, true],
    ['another group', { ...all, apiGroups: [''] }, {}, false],
    ['another version', { ...all, apiVersions: ['v1beta1'] }, {}, false],
    ['no operations', { ...all, operations: [] }, {}, false],
    ['scope Namespaced, namespaced request', { ...all, scope: 'Namespaced' }, {}, true],
    ['scope Cluster, namespaced request', { ...all, scope: 'Cluster' }, {}, false],
    ['scope Cluster, cluster-scoped request', { ...all, scope: 'Cluster' }, { namespace: '' }, true],
    ['scope Namespaced, a Namespace (cluster-scoped though named)', { ...all, scope: 'Namespaced' }, { resource: { group: '', version: 'v1', resource: 'namespaces' } }, false],
    ['scope Cluster, a Namespace', { ...all, scope: 'Cluster' }, { resource: { group: '', version: 'v1', resource: 'namespaces' } }, true],
    ['scope *', { ...all, scope: '*' }, { namespace: '' }, true],
  ];
  it.each(rows)('%s', (_n, rule, over, want) => {
    expect(ruleMatches(rule, subject(over))).toBe(want);
  });
});

describe('matchWebhook', () => {
  const rule: RuleWithOperations = { operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] };
  const rows: [string, WebhookCriteria, Partial<AdmissionAttributes>, boolean | number][] = [
    ['rule matches', { rules: [rule] }, {}, true],
    ['no rule matches', { rules: [{ ...rule, operations: ['DELETE'] }] }, {}, false],
    ['namespaceSelector matches', { rules: [rule], namespaceSelector: { matchLabels: { env: 'prod' } } }, {}, true],
    ['namespaceSelector does not', { rules: [rule], namespaceSelector: { matchLabels: { env: 'dev' } } }, {}, false],
    ['namespaceSelector matchExpressions', { rules: [rule], namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] } }, {}, true],
    [
      'cluster-scoped objects ignore namespaceSelector',
      { rules: [{ ...rule, resources: ['*'] }], namespaceSelector: { matchLabels: { env: 'dev' } } },
      { namespace: '', group: '', resource: 'nodes', kind: 'Node' },
      false,
    ],
    ['a missing namespace is its 404 once a rule matches', { rules: [rule], namespaceSelector: { matchLabels: { env: 'x' } } }, { namespace: 'gone' }, 404],
    ['a missing namespace without a matching rule: no match', { rules: [{ ...rule, operations: ['DELETE'] }], namespaceSelector: { matchLabels: { env: 'x' } } }, { namespace: 'gone' }, false],
    [
      'a Namespace being created is matched by its own labels',
      { rules: [{ ...rule, apiGroups: [''], resources: ['namespaces'] }], namespaceSelector: { matchLabels: { team: 'a' } } },
      { group: '', resource: 'namespaces', kind: 'Namespace', namespace: '', name: 'new', object: { metadata: { name: 'new', labels: { team: 'a' } } } },
      true,
    ],
    [
      'a Namespace being deleted is matched by the live one',
      { rules: [{ ...rule, operations: ['DELETE'], apiGroups: [''], resources: ['namespaces'] }], namespaceSelector: { matchLabels: { env: 'dev' } } },
      { operation: 'DELETE', group: '', resource: 'namespaces', kind: 'Namespace', namespace: '', name: 'dev', object: null, oldObject: { metadata: { name: 'dev' } } },
      true,
    ],
    ['objectSelector on the object', { rules: [rule], objectSelector: { matchLabels: { app: 'web' } } }, {}, true],
    ['objectSelector on neither', { rules: [rule], objectSelector: { matchLabels: { app: 'db' } } }, {}, false],
    [
      'objectSelector on the old object',
      { rules: [{ ...rule, operations: ['*'] }], objectSelector: { matchLabels: { app: 'db' } } },
      { operation: 'UPDATE', oldObject: { metadata: { labels: { app: 'db' } } } },
      true,
    ],
    ['an empty selector matches all', { rules: [rule], objectSelector: {}, namespaceSelector: {} }, {}, true],
  ];
  it.each(rows)('%s', async (_n, w, over, want) => {
    const out = await matchWebhook(services, w, attrs(over));
    if (typeof want === 'number') {
      expect(out.matches).toBe(false);
      expect(!out.matches && out.error?.code).toBe(want);
      expect(!out.matches && out.error?.message).toBe('namespaces "gone" not found');
    } else {
      expect(out.matches).toBe(want);
      if (!out.matches) expect(out.error).toBeUndefined();
    }
  });
});

describe('matchPolicy Equivalent', () => {
  const fs = { group: 'flowcontrol.apiserver.k8s.io', kind: 'FlowSchema', resource: 'flowschemas', namespace: '', name: 'f' };
  it('matches a rule for another served version and sends that version', async () => {
    const w: WebhookCriteria = { rules: [{ operations: ['*'], apiGroups: ['flowcontrol.apiserver.k8s.io'], apiVersions: ['v1beta3'], resources: ['flowschemas'] }], matchPolicy: 'Equivalent' };
    const out = await matchWebhook(services, w, attrs({ ...fs, version: 'v1' }));
    expect(out.matches && out.versions).toEqual({
      resource: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'flowschemas' },
      kind: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', kind: 'FlowSchema' },
      requestResource: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', resource: 'flowschemas' },
      requestKind: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'FlowSchema' },
    });
    expect((await matchWebhook(services, { ...w, matchPolicy: 'Exact' }, attrs({ ...fs, version: 'v1' }))).matches).toBe(false);
  });
  it('core events and events.k8s.io events are one set', async () => {
    const m: MatchResources = { resourceRules: [{ operations: ['CREATE'], apiGroups: ['events.k8s.io'], apiVersions: ['v1'], resources: ['events'] }], matchPolicy: 'Equivalent' };
    const out = await matchResources(services, m, attrs({ group: '', version: 'v1', kind: 'Event', resource: 'events', name: 'e' }));
    expect(out.matches && out.versions.kind).toEqual({ group: 'events.k8s.io', version: 'v1', kind: 'Event' });
    expect((await matchResources(services, { ...m, matchPolicy: 'Exact' }, attrs({ group: '', version: 'v1', kind: 'Event', resource: 'events' }))).matches).toBe(false);
  });
  it('a subresource is sent as the kind served there (Scale)', () => {
    expect(requestVersions(services, attrs({ subresource: 'scale' })).kind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });
});

describe('matchResources (policies)', () => {
  const rule = { operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] };
  const rows: [string, MatchResources, Partial<AdmissionAttributes>, boolean][] = [
    ['no resourceRules: everything (a binding without matchResources rules)', {}, {}, true],
    ['a rule', { resourceRules: [rule] }, {}, true],
    ['resourceNames listing the name', { resourceRules: [{ ...rule, resourceNames: ['web'] }] }, {}, true],
    ['resourceNames not listing it', { resourceRules: [{ ...rule, resourceNames: ['api'] }] }, {}, false],
    ['excluded', { resourceRules: [rule], excludeResourceRules: [{ ...rule, resourceNames: ['web'] }] }, {}, false],
    ['exclusion of other names', { resourceRules: [rule], excludeResourceRules: [{ ...rule, resourceNames: ['api'] }] }, {}, true],
    ['namespaceSelector', { resourceRules: [rule], namespaceSelector: { matchLabels: { env: 'dev' } } }, {}, false],
    ['objectSelector', { resourceRules: [rule], objectSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] } }, {}, true],
  ];
  it.each(rows)('%s', async (_n, m, over, want) => {
    expect((await matchResources(services, m, attrs(over))).matches).toBe(want);
  });
});

describe('admissionRequest', () => {
  it('has upstream fields: kind and resource matched, the request’s own, user, options', () => {
    const a = attrs({ subresource: 'scale', dryRun: true, operation: 'UPDATE' });
    expect(admissionRequest(a, requestVersions(services, a), 'uid-1')).toEqual({
      uid: 'uid-1',
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale',
      requestKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      requestResource: { group: 'apps', version: 'v1', resource: 'deployments' },
      requestSubResource: 'scale',
      name: 'web',
      namespace: 'prod',
      operation: 'UPDATE',
      userInfo: { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } },
      dryRun: true,
      options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] },
    });
  });
  it('passes the options the caller set', () => {
    const a = attrs({ options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-create' } });
    expect(admissionRequest(a, requestVersions(services, a)).options).toEqual({ kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-create' });
  });
});

describe('matchConditions', () => {
  beforeAll(loadAdmissionCel);
  const f = 'webhooks[0].matchConditions';
  const errs = (list: { name?: string; expression?: string }[], params = false) => compileMatchConditions(list, f, { params }).errors.map((e) => `${e.type} ${e.field}: ${e.detail}`.trim());
  it.each([
    ['a good one', [{ name: 'a', expression: 'object.metadata.name != ""' }], []],
    ['no expression', [{ name: 'a', expression: ' ' }], [`FieldValueRequired ${f}[0].expression:`]],
    ['no name', [{ expression: 'true' }], [`FieldValueRequired ${f}[0].name:`]],
    [
      'a bad name',
      [{ name: 'a b', expression: 'true' }],
      [
        `FieldValueInvalid ${f}[0].name: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ],
    [
      'a duplicate name',
      [
        { name: 'a', expression: 'true' },
        { name: 'a', expression: 'false' },
      ],
      [`FieldValueDuplicate ${f}[1].name:`],
    ],
    ['not a bool', [{ name: 'a', expression: '1 + 1' }], [`FieldValueInvalid ${f}[0].expression: must evaluate to bool`]],
    ['an undeclared params', [{ name: 'a', expression: 'params.x == 1' }], [`FieldValueInvalid ${f}[0].expression: compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'`]],
  ] as [string, { name?: string; expression?: string }[], string[]][])('%s', (_n, list, want) => {
    const got = errs(list);
    expect(got.map((g) => g.split('\n')[0])).toEqual(want);
  });
  it('params are declared for policies with a paramKind', () => {
    expect(errs([{ name: 'a', expression: 'params.x == 1' }], true)).toEqual([]);
  });
  it('more than 64 is too many', () => {
    const list = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
    expect(errs(list)[0]).toBe(`FieldValueTooMany ${f}: must have at most 64 items`);
  });

  const authz: Authorizer = { authorize: (a) => ({ decision: a.user.groups.includes('dev') && a.verb === 'create' && a.resource === 'deployments' ? 'allow' : 'deny', reason: '' }) };
  const run = (exprs: string[], policy: 'Fail' | 'Ignore' = 'Fail', over: Partial<AdmissionAttributes> = {}) => {
    const { conditions, errors } = compileMatchConditions(
      exprs.map((expression, i) => ({ name: `c${i}`, expression })),
      f,
    );
    expect(errors).toEqual([]);
    const a = attrs(over);
    return evaluateMatchConditions(conditions, activation({ attrs: a, request: admissionRequest(a, requestVersions(services, a)), authorizer: authz }), policy);
  };
  it.each([
    ['all true', ['true', "request.userInfo.username == 'alice'"], 'Fail', {}, { matches: true }],
    ['one false names it', ['true', "object.metadata.labels.app == 'db'"], 'Fail', {}, { matches: false, failedCondition: 'c1' }],
    ['false wins over an error', ['object.spec.nope == 1', 'false'], 'Fail', {}, { matches: false, failedCondition: 'c1' }],
    [
      'an error under Fail',
      ['object.spec.replicas / 0 == 1'],
      'Fail',
      {},
      { matches: false, error: expect.stringMatching(/^expression 'object\.spec\.replicas \/ 0 == 1' resulted in error: .*divi.* by zero$/) },
    ],
    [
      'two errors under Fail',
      ['1 / 0 == 1', "int('x') == 1"],
      'Fail',
      {},
      { matches: false, error: expect.stringMatching(/^\[expression '1 \/ 0 == 1' resulted in error: .*divi.* by zero, expression 'int\('x'\) == 1' resulted in error: .+\]$/) },
    ],
    ['an error under Ignore', ['object.spec.replicas / 0 == 1'], 'Ignore', {}, { matches: false }],
    ['oldObject is null on create', ['oldObject == null'], 'Fail', {}, { matches: true }],
    [
      'request kinds and resources',
      ["request.kind.kind == 'Deployment' && request.resource.resource == 'deployments' && request.requestKind.group == 'apps' && request.operation == 'CREATE'"],
      'Fail',
      {},
      { matches: true },
    ],
    ['authorizer', ["authorizer.group('apps').resource('deployments').namespace('prod').check('create').allowed()"], 'Fail', {}, { matches: true }],
    ['authorizer.requestResource', ["authorizer.requestResource.check('create').allowed() && !authorizer.requestResource.check('delete').allowed()"], 'Fail', {}, { matches: true }],
  ] as [string, string[], 'Fail' | 'Ignore', Partial<AdmissionAttributes>, unknown][])('%s', (_n, exprs, policy, over, want) => {
    expect(run(exprs, policy, over)).toEqual(want);
  });
});

describe('errors', () => {
  it('a 404 for the namespace is an ApiError', async () => {
    const out = await matchResources(services, { namespaceSelector: { matchLabels: { a: 'b' } } }, attrs({ namespace: 'gone' }));
    expect(!out.matches && out.error).toBeInstanceOf(ApiError);
  });
});
