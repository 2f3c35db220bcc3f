// CustomResourceDefinition validation through real requests: upstream's 422
// texts for bad names, non-structural schemas and rules that do not compile
// or cost too much; hostile schemas (10,000 properties, deep nesting, huge
// rules) get a 422 and never a 500; a valid CRD is created with its
// storage version recorded, and updates keep the immutable fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

type Json = Record<string, any>;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const init: RequestInit = { method, headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await s.app.request(path, init);
  return { status: res.status, json: (await res.json()) as Json };
}

function crd(plural: string, openAPIV3Schema: unknown, extra: Json = {}): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural, singular: plural.replace(/s$/, ''), kind: 'Thing', listKind: 'ThingList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }],
      ...extra,
    },
  };
}
const spec = (props: Json, more: Json = {}) => ({ type: 'object', properties: { spec: { type: 'object', properties: props, ...more } } });

describe('CRD validation over HTTP', () => {
  it('creates a valid CRD and records its storage version', async () => {
    const r = await call('POST', CRDS, crd('widgets', spec({ size: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'self.size >= 0', message: 'size must not be negative' }] })));
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.json.status.storedVersions).toEqual(['v1']);
  });

  it.each<[string, Json, string[]]>([
    [
      'a name that is not <plural>.<group>',
      { ...crd('gadgets', spec({})), metadata: { name: 'gizmos.example.com' } },
      ['metadata.name: Invalid value: "gizmos.example.com": must be spec.names.plural+"."+spec.group'],
    ],
    [
      'a non-structural schema',
      crd('boxes', { type: 'object', properties: { spec: { properties: { a: {} } } } }),
      [
        'spec.validation.openAPIV3Schema.properties[spec].properties[a].type: Required value: must not be empty for specified object fields',
        'spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
      ],
    ],
    [
      'a rule that does not compile',
      crd('crates', spec({ a: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'self.b > 0' }] })),
      [
        'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.b > 0", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field \'b\'',
      ],
    ],
    [
      'a rule over the cost budget',
      crd('bins', spec({ l: { type: 'array', items: { type: 'array', items: { type: 'string' } } } }, { 'x-kubernetes-validations': [{ rule: "self.l.all(x, x.all(y, y.contains('a')))" }] })),
      [
        'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
        'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
        'spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
      ],
    ],
  ])('refuses %s with a 422', async (_name, body, causes) => {
    const r = await call('POST', CRDS, body);
    expect(r.status, JSON.stringify(r.json).slice(0, 500)).toBe(422);
    expect(r.json.reason).toBe('Invalid');
    expect(r.json.details.causes.map((c: Json) => `${c.field}: ${c.message}`)).toEqual(causes);
  });

  it('answers 10,000 untyped properties with a 422, and serving goes on', async () => {
    const props: Json = {};
    for (let i = 0; i < 10_000; i++) props[`p${i}`] = {};
    const r = await call('POST', CRDS, crd('hordes', spec(props)));
    expect(r.status).toBe(422);
    expect(r.json.details.causes.length).toBeGreaterThanOrEqual(10_000);
    expect((await call('GET', `${CRDS}/widgets.example.com`)).status).toBe(200);
  });

  it('accepts 10,000 typed properties', async () => {
    const props: Json = {};
    for (let i = 0; i < 10_000; i++) props[`p${i}`] = { type: 'string', maxLength: 10, 'x-kubernetes-validations': i % 1000 === 0 ? [{ rule: "self != 'x'" }] : undefined };
    const r = await call('POST', CRDS, crd('swarms', spec(props)));
    expect(r.status, JSON.stringify(r.json).slice(0, 300)).toBe(201);
  });

  it.each<[string, string, string]>([
    ['longer than 100,000 code points', `${'self.a + '.repeat(20_000)}1 > 0`, 'expression code point size exceeds limit: size: 180005, limit 100000'],
    ['nested deeper than the parser goes', `${'self.a + '.repeat(5_000)}1 > 0`, 'max recursion depth exceeded'],
  ])('answers a huge rule (%s) with a 422', async (_name, rule, detail) => {
    const r = await call('POST', CRDS, crd('mounds', spec({ a: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule }] })));
    expect(r.status).toBe(422);
    expect(r.json.details.causes[0].message).toContain(detail);
  });

  it('keeps group and plural on update', async () => {
    const r = await call('PATCH', `${CRDS}/widgets.example.com`, { spec: { group: 'other.example.com' } });
    expect(r.status).toBe(422);
    expect(r.json.details.causes.map((c: Json) => c.field)).toContain('spec.group');
  });
});
