// The x-kubernetes-validations cases of the rule evaluator's own tables
// (runtime/cel/rules/rules.test.ts), run through real requests with
// app.request(): a CRD created with the rules, then custom resources created
// and updated. Each row checks the 422 as kube-apiserver answers it: the
// cause's field (fieldPath), reason (the rule's reason) and message
// (message, messageExpression, or "failed rule: ..."); transition rules see
// the old object (oldSelf, optionalOldSelf, list-map correlation); the
// per-request cost budget ends validation with upstream's text; a CRD whose
// rules together cost more than the schema's limit is refused at creation.
// Also the text of a schema enum failure (field.NotSupported's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';

let s: RunningServer;

const call = appCaller(() => s);

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const xv = (...rules: Json[]) => ({ 'x-kubernetes-validations': rules });
const obj = (properties: Json, extra: Json = {}) => ({ type: 'object', properties, ...extra });
const str = { type: 'string', maxLength: 20 };

function crd(plural: string, kind: string, spec: Json): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.rules.example.com` },
    spec: {
      group: 'rules.example.com',
      scope: 'Namespaced',
      names: { kind, plural },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: obj({ spec }) } }],
    },
  };
}

const RULES_SPEC = obj({
  range: obj({ min: { type: 'integer' }, max: { type: 'integer' } }, xv({ rule: 'self.min <= self.max' })),
  msg: obj({ a: str }, xv({ rule: "self.a != 'x'", message: ' a must not be x ' })),
  msgExpr: obj({ a: str }, xv({ rule: "self.a != 'x'", messageExpression: "'a is ' + self.a" })),
  emptyMsgExpr: obj({ a: str }, xv({ rule: "self.a != 'x'", message: 'fallback', messageExpression: "''" })),
  forbidden: obj({ a: str }, xv({ rule: "self.a != 'x'", message: 'no x', reason: 'FieldValueForbidden' })),
  required: obj({ a: str }, xv({ rule: 'has(self.a)', message: 'a please', reason: 'FieldValueRequired' })),
  duplicate: obj({ a: str }, xv({ rule: "self.a != 'x'", reason: 'FieldValueDuplicate' })),
  path: obj({ a: str, m: { type: 'object', maxProperties: 5, additionalProperties: str } }, xv({ rule: "self.a != 'x'", fieldPath: '.a' }, { rule: "!('k.x' in self.m)", fieldPath: ".m['k.x']" })),
  short: { ...str, ...xv({ rule: 'self.size() < 3' }) },
  positives: { type: 'array', maxItems: 10, items: { type: 'integer', ...xv({ rule: 'self > 0' }) } },
  nonEmpty: { type: 'object', maxProperties: 5, additionalProperties: { ...str, ...xv({ rule: "self != ''" }) } },
  div: obj({ a: { type: 'integer' } }, xv({ rule: 'self.a / 0 == 1' })),
  ip: { ...str, ...xv({ rule: 'isIP(self) && ip(self).family() == 4', message: 'must be IPv4' }) },
  owner: { ...str, ...xv({ rule: 'self == oldSelf', message: 'owner is immutable' }) },
  first: { ...str, ...xv({ rule: "oldSelf.hasValue() ? self == oldSelf.value() : self == 'first'", optionalOldSelf: true, message: 'first, then unchanged' }) },
  ports: {
    type: 'array',
    maxItems: 10,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    items: obj({ name: str, v: { type: 'integer', ...xv({ rule: 'self >= oldSelf', message: 'may not decrease' }) } }, { required: ['name'] }),
  },
  color: { type: 'string', enum: ['red', 'blue'] },
  size: { type: 'integer', enum: [1, 2] },
});

const R = '/apis/rules.example.com/v1/namespaces/default/rules';
let n = 0;
const body = (spec: Json, name = `r${++n}`) => ({ apiVersion: 'rules.example.com/v1', kind: 'Rule', metadata: { name }, spec });

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  const made = await call('POST', CRDS, crd('rules', 'Rule', RULES_SPEC));
  expect(made.status, JSON.stringify(made.json)).toBe(201);
  await eventually(async () => ((await call('GET', R)).status === 200 ? true : undefined), 'rules served');
});
afterAll(async () => {
  await s?.stop();
});

type Cause = { field: string; reason: string; message: string };
const inv = (field: string, type: string, detail: string): Cause => ({ field, reason: 'FieldValueInvalid', message: `Invalid value: "${type}": ${detail}` });

describe('x-kubernetes-validations through requests: create', () => {
  it.each<[string, Json, Cause[]]>([
    ['a rule that holds', { range: { min: 1, max: 2 } }, []],
    ['a failed rule without message', { range: { min: 3, max: 2 } }, [inv('spec.range', 'object', 'failed rule: self.min <= self.max')]],
    ['a message (trimmed)', { msg: { a: 'x' } }, [inv('spec.msg', 'object', 'a must not be x')]],
    ['a messageExpression', { msgExpr: { a: 'x' } }, [inv('spec.msgExpr', 'object', 'a is x')]],
    ['an empty messageExpression falls back to the message', { emptyMsgExpr: { a: 'x' } }, [inv('spec.emptyMsgExpr', 'object', 'fallback')]],
    ['reason FieldValueForbidden', { forbidden: { a: 'x' } }, [{ field: 'spec.forbidden', reason: 'FieldValueForbidden', message: 'Forbidden: no x' }]],
    ['reason FieldValueRequired', { required: {} }, [{ field: 'spec.required', reason: 'FieldValueRequired', message: 'Required value: a please' }]],
    ['reason FieldValueDuplicate', { duplicate: { a: 'x' } }, [{ field: 'spec.duplicate', reason: 'FieldValueDuplicate', message: 'Duplicate value: "object"' }]],
    [
      'fieldPath, also with a quoted map key',
      { path: { a: 'x', m: { 'k.x': 'v' } } },
      [inv('spec.path.a', 'object', "failed rule: self.a != 'x'"), inv('spec.path.m[k.x]', 'object', "failed rule: !('k.x' in self.m)")],
    ],
    ['a rule on a string', { short: 'abcd' }, [inv('spec.short', 'string', 'failed rule: self.size() < 3')]],
    ['list items by index', { positives: [1, 0, 2, -1] }, [inv('spec.positives[1]', 'integer', 'failed rule: self > 0'), inv('spec.positives[3]', 'integer', 'failed rule: self > 0')]],
    ['map values by key', { nonEmpty: { a: 'x', b: '' } }, [inv('spec.nonEmpty[b]', 'string', "failed rule: self != ''")]],
    ['an evaluation error', { div: { a: 1 } }, [inv('spec.div', 'object', 'int divide by zero evaluating rule: self.a / 0 == 1')]],
    ['the IP library', { ip: '::1' }, [inv('spec.ip', 'string', 'must be IPv4')]],
    ['a transition rule does not run on create', { owner: 'anyone' }, []],
    ['optionalOldSelf runs on create, oldSelf none', { first: 'other' }, [inv('spec.first', 'string', 'first, then unchanged')]],
    ['a string enum', { color: 'green' }, [{ field: 'spec.color', reason: 'FieldValueNotSupported', message: 'Unsupported value: "green": supported values: "red", "blue"' }]],
    ['an integer enum', { size: 3 }, [{ field: 'spec.size', reason: 'FieldValueNotSupported', message: 'Unsupported value: 3: supported values: "1", "2"' }]],
  ])('%s', async (_name, spec, causes) => {
    const name = `c${++n}`;
    const r = await call('POST', R, body(spec, name));
    if (causes.length === 0) {
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      return;
    }
    expect(r.status, JSON.stringify(r.json)).toBe(422);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { name, group: 'rules.example.com', kind: 'Rule' } });
    expect(r.json.details.causes).toEqual(causes);
    const lines = causes.map((c) => `${c.field}: ${c.message}`);
    expect(r.json.message).toBe(`Rule.rules.example.com "${name}" is invalid: ${lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`}`);
  });
});

describe('x-kubernetes-validations through requests: update', () => {
  const put = async (name: string, spec: Json) => {
    const cur = (await call('GET', `${R}/${name}`)).json;
    return call('PUT', `${R}/${name}`, { ...cur, spec });
  };

  it('a transition rule compares with the old object', async () => {
    expect((await call('POST', R, body({ owner: 'ann' }, 'owned'))).status).toBe(201);
    expect((await put('owned', { owner: 'ann', range: { min: 1, max: 1 } })).status).toBe(200);
    const r = await put('owned', { owner: 'bob' });
    expect(r.status).toBe(422);
    expect(r.json.details.causes).toEqual([inv('spec.owner', 'string', 'owner is immutable')]);
  });

  it('optionalOldSelf sees the old value on update', async () => {
    expect((await call('POST', R, body({ first: 'first' }, 'firsts'))).status).toBe(201);
    expect((await put('firsts', { first: 'first' })).status).toBe(200);
    const r = await put('firsts', { first: 'second' });
    expect(r.status).toBe(422);
    expect(r.json.details.causes).toEqual([inv('spec.first', 'string', 'first, then unchanged')]);
  });

  it('list-map items are correlated by key: a new item has no oldSelf', async () => {
    const ports = [
      { name: 'a', v: 5 },
      { name: 'b', v: 1 },
    ];
    expect((await call('POST', R, body({ ports }, 'ported'))).status).toBe(201);
    const down = await put('ported', {
      ports: [
        { name: 'b', v: 0 },
        { name: 'a', v: 6 },
      ],
    });
    expect(down.status).toBe(422);
    expect(down.json.details.causes).toEqual([inv('spec.ports[0].v', 'integer', 'may not decrease')]);
    expect((await put('ported', { ports: [{ name: 'c', v: 0 }] })).status).toBe(200);
  });

  it('rules run on a merge patch too', async () => {
    expect((await call('POST', R, body({ range: { min: 1, max: 2 } }, 'patched'))).status).toBe(201);
    const res = await s.app.request(`${R}/patched`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { range: { min: 5 } } }) });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Json).details.causes).toEqual([inv('spec.range', 'object', 'failed rule: self.min <= self.max')]);
  });
});

describe('x-kubernetes-validations through requests: cost', () => {
  const costly = (k: number) =>
    obj(
      { l: { type: 'array', maxItems: 300, items: { type: 'string', maxLength: 10 } } },
      xv(...Array.from({ length: k }, (_, i) => ({ rule: `self.l.all(x, self.l.exists(y, y == x + 'z${i}') || true)` }))),
    );

  it('stops at the per-request budget with upstream text', async () => {
    const made = await call('POST', CRDS, crd('costlies', 'Costly', costly(30)));
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const C = '/apis/rules.example.com/v1/namespaces/default/costlies';
    await eventually(async () => ((await call('GET', C)).status === 200 ? true : undefined), 'costlies served');
    const small = await call('POST', C, { apiVersion: 'rules.example.com/v1', kind: 'Costly', metadata: { name: 'small' }, spec: { l: ['a', 'b'] } });
    expect(small.status, JSON.stringify(small.json)).toBe(201);
    const l = Array.from({ length: 300 }, (_, i) => `v${i}`);
    const r = await call('POST', C, { apiVersion: 'rules.example.com/v1', kind: 'Costly', metadata: { name: 'big' }, spec: { l } });
    expect(r.status).toBe(422);
    expect(r.json.details.causes).toEqual([inv('spec', 'object', 'validation failed due to running out of cost budget, no further validation rules will be run')]);
  });

  it('refuses a CRD whose rules together cost more than the schema limit', async () => {
    const r = await call('POST', CRDS, crd('heavies', 'Heavy', costly(120)));
    expect(r.status).toBe(422);
    const last = r.json.details.causes.at(-1);
    expect(last.field).toBe('spec.validation.openAPIV3Schema');
    expect(last.reason).toBe('FieldValueForbidden');
    expect(last.message).toMatch(
      /^Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1\.\d+x \(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared\)$/,
    );
    expect((await call('GET', `${CRDS}/heavies.rules.example.com`)).status).toBe(404);
  });
});
