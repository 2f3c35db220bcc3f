// The texts of a custom resource's schema failures as kube-apiserver 1.31
// words them: apiextensions turns kube-openapi's validation errors into
// field errors (too long and too many as field.TooLong / field.TooMany,
// the other bounds as field.Invalid with kube-openapi's own message, e.g.
// `spec.s in body should be at least 3 chars long`, a wrong type as
// field.TypeInvalid: 422, not a decode error), list and map values printed
// as Go prints unstructured values. One CRD, one custom resource per row,
// checked through app.request().
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, type Json } from '../support/app-call.ts';

let s: RunningServer;

const call = appCaller(() => s);

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const SPEC = {
  type: 'object',
  properties: {
    long: { type: 'string', maxLength: 4 },
    short: { type: 'string', minLength: 3 },
    pat: { type: 'string', pattern: '^a+$' },
    max: { type: 'integer', maximum: 5 },
    xmax: { type: 'integer', maximum: 5, exclusiveMaximum: true },
    min: { type: 'number', minimum: 1.5 },
    xmin: { type: 'integer', minimum: 1, exclusiveMinimum: true },
    mult: { type: 'integer', multipleOf: 3 },
    many: { type: 'array', maxItems: 2, items: { type: 'string' } },
    few: { type: 'array', minItems: 2, items: { type: 'string' } },
    fewProps: { type: 'object', minProperties: 2, additionalProperties: { type: 'string' } },
    when: { type: 'string', format: 'date-time' },
    props: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } },
  },
};

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'texts.texts.example.com' },
    spec: {
      group: 'texts.example.com',
      scope: 'Namespaced',
      names: { kind: 'Text', plural: 'texts' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: SPEC } } } }],
    },
  };
  expect((await call('POST', CRDS, crd)).status).toBe(201);
  for (let i = 0; i < 2000; i++) {
    const r = await call('GET', '/apis/texts.example.com/v1/namespaces/default/texts');
    if (r.status === 200) break;
    await new Promise((r) => setTimeout(r, 10));
  }
});
afterAll(async () => {
  await s?.stop();
});

describe('schema failures of a custom resource', () => {
  let n = 0;
  it.each<[string, Json, string, string]>([
    ['maxLength', { long: 'abcde' }, 'FieldValueTooLong', 'spec.long: Too long: may not be more than 4 bytes'],
    ['minLength', { short: 'ab' }, 'FieldValueInvalid', 'spec.short: Invalid value: "ab": spec.short in body should be at least 3 chars long'],
    ['pattern', { pat: 'b' }, 'FieldValueInvalid', `spec.pat: Invalid value: "b": spec.pat in body should match '^a+$'`],
    ['maximum', { max: 7 }, 'FieldValueInvalid', 'spec.max: Invalid value: 7: spec.max in body should be less than or equal to 5'],
    ['exclusive maximum', { xmax: 5 }, 'FieldValueInvalid', 'spec.xmax: Invalid value: 5: spec.xmax in body should be less than 5'],
    ['minimum', { min: 1.25 }, 'FieldValueInvalid', 'spec.min: Invalid value: 1.25: spec.min in body should be greater than or equal to 1.5'],
    ['exclusive minimum', { xmin: 1 }, 'FieldValueInvalid', 'spec.xmin: Invalid value: 1: spec.xmin in body should be greater than 1'],
    ['multipleOf', { mult: 4 }, 'FieldValueInvalid', 'spec.mult: Invalid value: 4: spec.mult in body should be a multiple of 3'],
    ['maxItems', { many: ['a', 'b', 'c'] }, 'FieldValueTooMany', 'spec.many: Too many: 3: must have at most 2 items'],
    ['maxProperties', { props: { a: 'x', b: 'y' } }, 'FieldValueTooMany', 'spec.props: Too many: 2: must have at most 1 items'],
    ['format', { when: 'soon' }, 'FieldValueTypeInvalid', 'spec.when: Invalid value: "soon": spec.when in body must be of type date-time: "soon"'],
    // decoded into unstructured, a wrong type is one more schema failure (422), the value the name of the type sent
    ['type', { max: 'five' }, 'FieldValueTypeInvalid', 'spec.max: Invalid value: "string": spec.max in body must be of type integer: "string"'],
  ])('%s', async (_name, spec, reason, text) => {
    const r = await call('POST', '/apis/texts.example.com/v1/namespaces/default/texts', { apiVersion: 'texts.example.com/v1', kind: 'Text', metadata: { name: `t${++n}` }, spec });
    expect(r.status, JSON.stringify(r.json)).toBe(422);
    expect(r.json.details.causes).toEqual([{ reason, message: text.slice(text.indexOf(': ') + 2), field: text.slice(0, text.indexOf(': ')) }]);
    expect(r.json.message).toBe(`Text.texts.example.com "t${n}" is invalid: ${text}`);
  });
});

// The value of a list or map is printed as Go prints the decoded value (%#v of []interface {} and
// map[string]interface {}), not as a typed list.
describe('schema failures of a list or map size', () => {
  it.each<[string, Json, string]>([
    ['minItems', { few: ['a'] }, `spec.few: Invalid value: []interface {}{"a"}: spec.few in body should have at least 2 items`],
    ['minProperties', { fewProps: { a: 'x' } }, `spec.fewProps: Invalid value: map[string]interface {}{"a":"x"}: spec.fewProps in body should have at least 2 properties`],
  ])('%s', async (name, spec, text) => {
    const r = await call('POST', '/apis/texts.example.com/v1/namespaces/default/texts', { apiVersion: 'texts.example.com/v1', kind: 'Text', metadata: { name: `size-${name.toLowerCase()}` }, spec });
    expect(r.status, JSON.stringify(r.json)).toBe(422);
    expect(r.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: text.slice(text.indexOf(': ') + 2), field: text.slice(0, text.indexOf(': ')) }]);
  });
});
