// ValidatingAdmissionPolicy through the HTTP API: bad policies and bindings
// are 422 with upstream's field errors; a policy with a ConfigMap param and
// a binding denies a Deployment with too many replicas with upstream's
// message; Warn answers with a Warning header, Audit does not refuse;
// parameterNotFoundAction Allow and Deny; the binding's namespaceSelector,
// objectSelector and the policy's matchConditions; failurePolicy Fail and
// Ignore on an evaluation error; a validation's reason sets the code;
// variables evaluated only when used; status.typeChecking with `object`
// typed by built-in and custom resource schemas, `params` by its
// paramKind, `namespaceObject` as a Namespace. Each test works in its own
// labelled namespace, which its policy selects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);
const AR = '/apis/admissionregistration.k8s.io/v1';

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

const deployment = (name: string, replicas: number, labels: Record<string, string> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

const rules = [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }];

/** A namespace labelled for one test, and the policy spec parts that select only it. */
async function testNamespace(name: string, labels: Record<string, string> = {}): Promise<void> {
  expect((await call('POST', '/api/v1/namespaces', { metadata: { name, labels: { 'vap-test': name, ...labels } } })).status).toBe(201);
}
const constraints = (ns: string) => ({ resourceRules: rules, namespaceSelector: { matchLabels: { 'vap-test': ns } } });

async function policy(name: string, spec: Json): Promise<void> {
  const r = await call('POST', `${AR}/validatingadmissionpolicies`, { metadata: { name }, spec });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
}
async function binding(name: string, spec: Json): Promise<void> {
  const r = await call('POST', `${AR}/validatingadmissionpolicybindings`, { metadata: { name }, spec });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
}
/** Waits until the policy is in effect: a dry-run create of `obj` is answered with `status`. */
async function inEffect(ns: string, obj: Json, status: number): Promise<void> {
  await eventually(async () => ((await call('POST', `/apis/apps/v1/namespaces/${ns}/deployments?dryRun=All`, obj)).status === status ? true : undefined), `dry-run answered ${status}`);
}
const create = (ns: string, obj: Json) => call('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, obj);

describe('validation of policies and bindings', () => {
  const bad = async (path: string, body: Json) => {
    const r = await call('POST', `${AR}/${path}`, body);
    expect(r.status).toBe(422);
    return (r.json.details.causes as Json[]).map((c) => `${c.field}: ${c.message}`);
  };
  it('a policy without validations, rules or a good expression', async () => {
    expect(await bad('validatingadmissionpolicies', { metadata: { name: 'bad1' }, spec: { matchConstraints: { resourceRules: [] } } })).toEqual([
      'spec.matchConstraints.resourceRules: Required value',
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
      'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
    ]);
    const causes = await bad('validatingadmissionpolicies', {
      metadata: { name: 'bad2' },
      spec: {
        failurePolicy: 'Sometimes',
        matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', '*'], resources: ['deployments'] }] },
        validations: [{ expression: 'object.spec.replicas', reason: 'Teapot' }, { expression: 'params.x == 1' }],
      },
    });
    expect(causes).toEqual([
      'spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
      'spec.matchConstraints.resourceRules[0].operations: Invalid value: []admissionregistration.OperationType{"CREATE", "*"}: if \'*\' is present, must not specify other operations',
      'spec.validations[0].expression: Invalid value: "object.spec.replicas": must evaluate to bool',
      'spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"',
      expect.stringMatching(/^spec\.validations\[1\]\.expression: Invalid value: "params\.x == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'/),
    ]);
  });
  it('a binding with Deny and Warn, no policy name, a paramRef with name and selector', async () => {
    expect(
      await bad('validatingadmissionpolicybindings', {
        metadata: { name: 'bad-binding' },
        spec: { validationActions: ['Deny', 'Warn'], paramRef: { name: 'p', selector: {} } },
      }),
    ).toEqual([
      'spec.policyName: Required value',
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.parameterNotFoundAction: Required value',
      'spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]);
    expect(await bad('validatingadmissionpolicybindings', { metadata: { name: 'bad-binding' }, spec: { policyName: 'x', validationActions: [] } })).toEqual([
      'spec.validationActions: Required value: at least one validation action is required',
    ]);
  });
  it('defaults failurePolicy, matchPolicy, the selectors and scope; parameterNotFoundAction has no default in v1', async () => {
    const p = await call('POST', `${AR}/validatingadmissionpolicies?dryRun=All`, {
      metadata: { name: 'defaults' },
      spec: { matchConstraints: { resourceRules: rules }, validations: [{ expression: 'true' }] },
    });
    expect(p.status).toBe(201);
    expect(p.json.spec).toMatchObject({ failurePolicy: 'Fail', matchConstraints: { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, resourceRules: [{ scope: '*' }] } });
    expect(await bad('validatingadmissionpolicybindings', { metadata: { name: 'defaults' }, spec: { policyName: 'defaults', validationActions: ['Deny'], paramRef: { name: 'x' } } })).toEqual([
      'spec.paramRef.parameterNotFoundAction: Required value',
    ]);
    expect(
      await bad('validatingadmissionpolicybindings', {
        metadata: { name: 'defaults' },
        spec: { policyName: 'defaults', validationActions: ['Deny'], paramRef: { name: 'x', parameterNotFoundAction: 'Maybe' } },
      }),
    ).toEqual(['spec.paramRef.parameterNotFoundAction: Unsupported value: "Maybe": supported values: "Allow", "Deny"']);
    const b = await call('POST', `${AR}/validatingadmissionpolicybindings?dryRun=All`, {
      metadata: { name: 'defaults' },
      spec: { policyName: 'defaults', validationActions: ['Deny'], paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } },
    });
    expect(b.status).toBe(201);
  });
});

describe('evaluation', () => {
  const replicaLimit = (ns: string, extra: Json = {}) => ({
    failurePolicy: 'Fail',
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConstraints: constraints(ns),
    validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)', messageExpression: "'object.spec.replicas must be no greater than ' + params.data.maxReplicas" }],
    ...extra,
  });
  const limits = (ns: string, name: string, max: number) => call('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data: { maxReplicas: String(max) } });

  it("denies a Deployment with too many replicas with upstream's message (params from a ConfigMap)", async () => {
    await testNamespace('vap-deny');
    expect((await limits('vap-deny', 'limits', 3)).status).toBe(201);
    await policy('replica-limit', replicaLimit('vap-deny'));
    await binding('replica-limit-binding', { policyName: 'replica-limit', validationActions: ['Deny'], paramRef: { name: 'limits', namespace: 'vap-deny', parameterNotFoundAction: 'Deny' } });
    await inEffect('vap-deny', deployment('probe', 5), 422);
    const r = await create('vap-deny', deployment('web', 5));
    const text = "ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-binding' denied request: object.spec.replicas must be no greater than 3";
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: `deployments.apps "web" is forbidden: ${text}`,
      details: { name: 'web', group: 'apps', kind: 'deployments', causes: [{ message: text }] },
    });
    expect((await create('vap-deny', deployment('web', 2))).status).toBe(201);
    // an update is checked too
    const up = await call('PATCH', '/apis/apps/v1/namespaces/vap-deny/deployments/web', { spec: { replicas: 9 } }, 'application/merge-patch+json');
    expect(up.status).toBe(422);
  });

  it('Warn answers with a Warning header; Audit does not refuse', async () => {
    await testNamespace('vap-warn');
    expect((await limits('vap-warn', 'limits', 1)).status).toBe(201);
    await policy('warn-limit', replicaLimit('vap-warn', { validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)', message: 'too many replicas' }] }));
    await binding('warn-limit', { policyName: 'warn-limit', validationActions: ['Warn', 'Audit'], paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } });
    await eventually(async () => ((await call('POST', '/apis/apps/v1/namespaces/vap-warn/deployments?dryRun=All', deployment('probe', 4))).headers.get('warning') ? true : undefined), 'a warning');
    const r = await create('vap-warn', deployment('web', 4));
    expect(r.status).toBe(201);
    expect(r.headers.get('warning')).toBe(`299 - "Validation failed for ValidatingAdmissionPolicy 'warn-limit' with binding 'warn-limit': too many replicas"`);
  });

  it('parameterNotFoundAction: Deny refuses, Allow admits', async () => {
    await testNamespace('vap-params');
    await policy('params-missing', replicaLimit('vap-params'));
    await binding('params-missing-deny', { policyName: 'params-missing', validationActions: ['Deny'], paramRef: { name: 'nope', parameterNotFoundAction: 'Deny' } });
    await inEffect('vap-params', deployment('probe', 1), 422);
    const r = await create('vap-params', deployment('web', 1));
    expect(r.json.message).toBe(
      "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'params-missing' with binding 'params-missing-deny' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
    const b = await call('GET', `${AR}/validatingadmissionpolicybindings/params-missing-deny`);
    b.json.spec.paramRef.parameterNotFoundAction = 'Allow';
    expect((await call('PUT', `${AR}/validatingadmissionpolicybindings/params-missing-deny`, b.json)).status).toBe(200);
    await inEffect('vap-params', deployment('probe', 1), 201);
    expect((await create('vap-params', deployment('web', 1))).status).toBe(201);
  });

  it("the binding's objectSelector and namespaceSelector, the policy's matchConditions", async () => {
    await testNamespace('vap-select', { tier: 'gold' });
    await policy('select', {
      matchConstraints: constraints('vap-select'),
      matchConditions: [{ name: 'not-exempt', expression: "!has(object.metadata.labels) || !('exempt' in object.metadata.labels)" }],
      validations: [{ expression: 'object.spec.replicas < 3', reason: 'Forbidden' }],
    });
    await binding('select', {
      policyName: 'select',
      validationActions: ['Deny'],
      matchResources: { namespaceSelector: { matchLabels: { tier: 'gold' } }, objectSelector: { matchExpressions: [{ key: 'team', operator: 'Exists' }] } },
    });
    await inEffect('vap-select', deployment('probe', 5, { team: 'a' }), 403);
    const denied = await create('vap-select', deployment('web', 5, { team: 'a' }));
    expect(denied.status).toBe(403);
    expect(denied.json.reason).toBe('Forbidden');
    expect(denied.json.message).toBe("deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'select' with binding 'select' denied request: failed expression: object.spec.replicas < 3");
    // no `team` label: the objectSelector does not match
    expect((await create('vap-select', deployment('unteamed', 5))).status).toBe(201);
    // matchConditions false: skipped
    expect((await create('vap-select', deployment('exempt', 5, { team: 'a', exempt: 'yes' }))).status).toBe(201);
  });

  it('failurePolicy: an evaluation error refuses under Fail and is ignored under Ignore', async () => {
    await testNamespace('vap-fail');
    const spec = (failurePolicy: string) => ({ failurePolicy, matchConstraints: constraints('vap-fail'), validations: [{ expression: "object.metadata.labels['missing'] == 'x'" }] });
    await policy('fails', spec('Fail'));
    await binding('fails', { policyName: 'fails', validationActions: ['Deny'] });
    await inEffect('vap-fail', deployment('probe', 1, { a: 'b' }), 422);
    const r = await create('vap-fail', deployment('web', 1, { a: 'b' }));
    expect(r.json.message).toMatch(
      /^deployments\.apps "web" is forbidden: ValidatingAdmissionPolicy 'fails' with binding 'fails' denied request: expression 'object\.metadata\.labels\['missing'\] == 'x'' resulted in error: /,
    );
    const p = await call('GET', `${AR}/validatingadmissionpolicies/fails`);
    p.json.spec.failurePolicy = 'Ignore';
    expect((await call('PUT', `${AR}/validatingadmissionpolicies/fails`, p.json)).status).toBe(200);
    await inEffect('vap-fail', deployment('probe', 1, { a: 'b' }), 201);
    expect((await create('vap-fail', deployment('web', 1, { a: 'b' }))).status).toBe(201);
  });
});

describe('variables', () => {
  it('an unused variable that fails does not refuse; one a validation uses refuses with the composited-variable text', async () => {
    await testNamespace('vap-vars');
    await policy('vars', {
      matchConstraints: constraints('vap-vars'),
      variables: [
        { name: 'broken', expression: "object.metadata.labels['missing'] == 'x'" },
        { name: 'replicas', expression: 'object.spec.replicas' },
      ],
      validations: [{ expression: 'variables.replicas < 5' }],
    });
    await binding('vars', { policyName: 'vars', validationActions: ['Deny'] });
    await inEffect('vap-vars', deployment('probe', 7, { a: 'b' }), 422);
    // `broken` is never used: the request is decided by `replicas` alone
    expect((await create('vap-vars', deployment('web', 1, { a: 'b' }))).status).toBe(201);
    const p = await call('GET', `${AR}/validatingadmissionpolicies/vars`);
    p.json.spec.validations = [{ expression: 'variables.replicas < 5' }, { expression: 'variables.broken == true' }];
    expect((await call('PUT', `${AR}/validatingadmissionpolicies/vars`, p.json)).status).toBe(200);
    await inEffect('vap-vars', deployment('probe', 1, { a: 'b' }), 422);
    const r = await create('vap-vars', deployment('web2', 1, { a: 'b' }));
    expect(r.json.message).toMatch(
      /^deployments\.apps "web2" is forbidden: ValidatingAdmissionPolicy 'vars' with binding 'vars' denied request: expression 'variables\.broken == true' resulted in error: composited variable "broken" fails to evaluate: /,
    );
  });
  it("are typed as their expressions compiled, each seeing the earlier ones (upstream's composition)", async () => {
    const spec = (variables: Json[], validations: Json[]) => ({ matchConstraints: { resourceRules: rules }, variables, validations });
    const post = (name: string, body: Json) => call('POST', `${AR}/validatingadmissionpolicies?dryRun=All`, { metadata: { name }, spec: body });
    // a bool variable is a validation by itself
    expect((await post('typed-ok', spec([{ name: 'big', expression: 'object.spec.replicas > 3' }], [{ expression: '!variables.big' }, { expression: 'variables.big' }]))).status).toBe(201);
    const causes = async (name: string, body: Json) => {
      const r = await post(name, body);
      expect(r.status).toBe(422);
      return (r.json.details.causes as Json[]).map((c) => `${c.field}: ${c.message}`);
    };
    expect(await causes('typed-unknown', spec([{ name: 'big', expression: 'true' }], [{ expression: 'variables.small' }]))).toEqual([
      expect.stringMatching(/^spec\.validations\[0\]\.expression: Invalid value: "variables\.small": compilation failed: ERROR: <input>:1:10: undefined field 'small'/),
    ]);
    expect(
      await causes(
        'typed-later',
        spec(
          [
            { name: 'a', expression: 'variables.b' },
            { name: 'b', expression: '1' },
          ],
          [{ expression: 'true' }],
        ),
      ),
    ).toEqual([expect.stringMatching(/^spec\.variables\[0\]\.expression: Invalid value: "variables\.b": compilation failed: ERROR: <input>:1:10: undefined field 'b'/)]);
    expect(await causes('typed-int', spec([{ name: 'n', expression: '1' }], [{ expression: "variables.n + 'x' == 'y'" }]))).toEqual([
      expect.stringMatching(/^spec\.validations\[0\]\.expression: Invalid value: .*found no matching overload for '_\+_' applied to '\(int, string\)'/),
    ]);
  });
});

describe('status.typeChecking', () => {
  it('reports a type error against the schema of the matched kind; a good policy gets an empty typeChecking', async () => {
    await policy('typo', {
      matchConstraints: { resourceRules: rules },
      validations: [{ expression: 'object.spec.replicas > 1' }, { expression: 'object.spec.replicass > 1', messageExpression: "'replicas: ' + object.spec.replicas" }],
    });
    const got = await eventually(async () => {
      const r = await call('GET', `${AR}/validatingadmissionpolicies/typo`);
      return r.json.status?.observedGeneration === 1 ? r.json.status : undefined;
    }, 'status written');
    expect(got.typeChecking.expressionWarnings).toEqual([
      { fieldRef: 'spec.validations[1].expression', warning: expect.stringMatching(/^apps\/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicass'/) },
      {
        fieldRef: 'spec.validations[1].messageExpression',
        warning: expect.stringMatching(/^apps\/v1, Kind=Deployment: ERROR: <input>:1:\d+: found no matching overload for '_\+_' applied to '\(string, int\)'/),
      },
    ]);
    // a fixed policy: a new generation, observed with no warnings
    const p = await call('GET', `${AR}/validatingadmissionpolicies/typo`);
    p.json.spec.validations = [{ expression: 'object.spec.replicas > 1' }];
    expect((await call('PUT', `${AR}/validatingadmissionpolicies/typo`, p.json)).status).toBe(200);
    const fixed = await eventually(async () => {
      const r = await call('GET', `${AR}/validatingadmissionpolicies/typo`);
      return r.json.status?.observedGeneration === 2 ? r.json.status : undefined;
    }, 'status of generation 2');
    expect(fixed.typeChecking).toEqual({});
  });

  const statusOf = (name: string) =>
    eventually(async () => {
      const r = await call('GET', `${AR}/validatingadmissionpolicies/${name}`);
      return r.json.status?.observedGeneration === 1 ? r.json.status : undefined;
    }, `status of ${name}`);

  it('types params by its paramKind (a ConfigMap: data is map(string, string))', async () => {
    await policy('typed-params', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: rules },
      validations: [{ expression: "object.spec.replicas <= params.data['max']" }, { expression: "object.spec.replicas <= int(params.data['max'])" }],
    });
    const got = await statusOf('typed-params');
    expect(got.typeChecking.expressionWarnings).toEqual([
      { fieldRef: 'spec.validations[0].expression', warning: expect.stringMatching(/^apps\/v1, Kind=Deployment: ERROR: .*found no matching overload for '_<=_' applied to '\(int, string\)'/) },
    ]);
  });

  it('namespaceObject is typed as a Namespace when the policy is written (its uid is spelled UID, as upstream)', async () => {
    const r = await call('POST', `${AR}/validatingadmissionpolicies`, {
      metadata: { name: 'ns-typed' },
      spec: { matchConstraints: { resourceRules: rules }, validations: [{ expression: "namespaceObject.metadata.uid != ''" }] },
    });
    expect(r.status).toBe(422);
    expect(r.json.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.validations[0].expression',
        message: expect.stringMatching(/^Invalid value: "namespaceObject\.metadata\.uid != ''": compilation failed: ERROR: <input>:1:25: undefined field 'uid'/),
      },
    ]);
  });

  it("checks a custom resource's expressions against its CRD's schema", async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.vap.example.com' },
      spec: {
        group: 'vap.example.com',
        scope: 'Namespaced',
        names: { kind: 'Gadget', plural: 'gadgets' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } } } } },
          },
        ],
      },
    };
    expect((await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    await eventually(async () => ((await call('GET', '/apis/vap.example.com/v1/namespaces/default/gadgets')).status === 200 ? true : undefined), 'gadgets served');
    await policy('gadget-typo', {
      matchConstraints: { resourceRules: [{ apiGroups: ['vap.example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['gadgets'] }] },
      validations: [{ expression: 'object.spec.size < 10' }, { expression: 'object.spec.sizee < 10' }, { expression: 'object.spec.color == 1', messageExpression: "'name ' + object.metadata.name" }],
    });
    const got = await statusOf('gadget-typo');
    expect(got.typeChecking.expressionWarnings).toEqual([
      { fieldRef: 'spec.validations[1].expression', warning: expect.stringMatching(/^vap\.example\.com\/v1, Kind=Gadget: ERROR: <input>:1:12: undefined field 'sizee'/) },
      {
        fieldRef: 'spec.validations[2].expression',
        warning: expect.stringMatching(/^vap\.example\.com\/v1, Kind=Gadget: ERROR: .*found no matching overload for '_==_' applied to '\(string, int\)'/),
      },
    ]);
  });
});
