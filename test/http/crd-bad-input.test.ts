// Bad and huge CustomResourceDefinitions through app.request(): each bad
// schema is refused with a 422 (or the decoder's 400) and never a 500, and
// after each one a custom resource of another CRD still goes through create,
// get and delete; huge schemas that are valid are served; a CRD whose
// validators are still being compiled holds up no other request; and a CRD
// updated or re-created many times leaves one schema generation in the
// caches of the defaulter and the field manager, not one per compile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { Defaulter } from '../../runtime/registry/defaults.ts';
import { sharedFieldManagers } from '../../runtime/registry/managed-fields.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';
import { WorkerCompiler, type ValidatorCompiler } from '../../runtime/schema/validator-worker.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

let s: RunningServer;
const worker = new WorkerCompiler();
/** Compiles of a root whose name contains `held` wait until release() (the rest go straight to the worker). */
let held: { entered: () => void; release: Promise<void> } | undefined;
const compiler: ValidatorCompiler = async (definitions, root): Promise<ValidateFunction> => {
  if (held && root.includes('Held')) {
    held.entered();
    await held.release;
  }
  return worker.compile(definitions, root);
};

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], crdValidatorCompiler: compiler });
  expect((await call('POST', CRDS, crd('gizmos', 'Gizmo', spec({ size: { type: 'integer' } })))).status).toBe(201);
  await established('gizmos');
});
afterAll(async () => {
  await s?.stop();
  await worker.close();
});

const call = appCaller(() => s);

function crd(plural: string, kind: string, openAPIV3Schema: unknown): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.bad.example.com` },
    spec: {
      group: 'bad.example.com',
      scope: 'Namespaced',
      names: { plural, singular: plural.replace(/s$/, ''), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }],
    },
  };
}
const spec = (props: Json, more: Json = {}) => ({ type: 'object', properties: { spec: { type: 'object', properties: props, ...more } } });

const isEstablished = (c: Json) => (c.status?.conditions ?? []).some((x: Json) => x.type === 'Established' && x.status === 'True');
const established = (plural: string) =>
  eventually(async () => {
    const r = await call('GET', `${CRDS}/${plural}.bad.example.com`);
    return isEstablished(r.json) ? r.json : undefined;
  }, `${plural} established`);

const crs = (plural: string) => `/apis/bad.example.com/v1/namespaces/default/${plural}`;
const cr = (kind: string, name: string, specValue: Json) => ({ apiVersion: 'bad.example.com/v1', kind, metadata: { name }, spec: specValue });

/** A custom resource of the healthy CRD goes through create, get and delete. */
async function gizmoStillServed(name: string): Promise<void> {
  expect((await call('POST', crs('gizmos'), cr('Gizmo', name, { size: 1 }))).status).toBe(201);
  expect((await call('GET', `${crs('gizmos')}/${name}`)).json.spec).toEqual({ size: 1 });
  expect((await call('DELETE', `${crs('gizmos')}/${name}`)).status).toBe(200);
}

function nested(levels: number): Json {
  let node: Json = { type: 'string' };
  for (let i = 0; i < levels; i++) node = { type: 'object', properties: { a: node } };
  return node;
}

function manyProps(n: number, prop: (i: number) => Json): Json {
  const props: Json = {};
  for (let i = 0; i < n; i++) props[`p${i}`] = prop(i);
  return props;
}

describe('bad CRDs are refused, and other CRDs go on being served', () => {
  let badCount = 0;
  it.each<[string, Json, number, string]>([
    ['a $ref', spec({ a: { $ref: '#/definitions/x' } }), 422, 'spec.validation.openAPIV3Schema.properties[spec].properties[a].$ref: Forbidden: $ref is not supported'],
    [
      'a type inside allOf (not structural)',
      spec({ a: { type: 'string', allOf: [{ type: 'string' }] } }),
      422,
      'spec.validation.openAPIV3Schema.properties[spec].properties[a].allOf[0].type: Forbidden: must be empty to be structural',
    ],
    ['nesting 1,000 levels deep (past the decoder)', nested(1000), 400, 'exceeded max depth'],
    ['nesting 120 levels deep with an untyped leaf', { ...nested(120), properties: { a: nested(119), b: {} } }, 422, 'properties[b].type: Required value'],
    ['a rule that does not compile', spec({ a: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'self.a +' }] }), 422, 'compilation failed'],
    ['a rule that is not a bool', spec({ a: { type: 'integer' } }, { 'x-kubernetes-validations': [{ rule: 'self.a' }] }), 422, 'cel expression must evaluate to a bool'],
    [
      'a pattern RE2 cannot compile',
      spec({ a: { type: 'string', pattern: 'a{1000}{1000}' } }),
      422,
      'spec.validation.openAPIV3Schema.properties[spec].properties[a].pattern: Invalid value: "a{1000}{1000}": must be a valid regular expression, but isn\'t: error parsing regexp: invalid nested repetition operator: `{1000}{1000}`',
    ],
    ['a JavaScript look-behind (not RE2)', spec({ a: { type: 'string', pattern: '(?<=x)y' } }), 422, 'must be a valid regular expression'],
    ['10,000 untyped properties', spec(manyProps(10_000, () => ({}))), 422, 'must not be empty for specified object fields'],
    // patterns whose compile would hold the event loop for seconds are refused before they are compiled (our limits)
    ['a pattern of 200,000 characters', spec({ a: { type: 'string', pattern: 'a'.repeat(200_000) } }), 422, 'properties[a].pattern: Too long: may not be more than 4096 bytes'],
    [
      'counted repetitions adding up past the budget',
      spec({ a: { type: 'string', pattern: 'a{1,1000}'.repeat(56) } }),
      422,
      'properties[a].pattern: Forbidden: the patterns of this schema are too large to check: their lengths and repetition counts add up to more than 20000',
    ],
    ['many patterns adding up past the budget', spec(manyProps(600, () => ({ type: 'string', pattern: 'x'.repeat(40) }))), 422, 'the patterns of this schema are too large to check'],
  ])('%s', async (_name, schema, status, text) => {
    const plural = `bads${++badCount}`;
    const r = await call('POST', CRDS, crd(plural, 'Bad', schema));
    expect(r.status, JSON.stringify(r.json).slice(0, 400)).toBe(status);
    expect(JSON.stringify(r.json)).toContain(JSON.stringify(text).slice(1, -1));
    expect((await call('GET', `${CRDS}/${plural}.bad.example.com`)).status).toBe(404);
    await gizmoStillServed(`after-${plural}`);
  });
});

describe('huge CRDs that are valid are served', () => {
  it('10,000 typed properties', async () => {
    const r = await call('POST', CRDS, crd('wides', 'Wide', spec(manyProps(10_000, () => ({ type: 'string', maxLength: 4 })))));
    expect(r.status).toBe(201);
    await established('wides');
    expect((await call('POST', crs('wides'), cr('Wide', 'a', { p9999: 'ok' }))).status).toBe(201);
    const bad = await call('POST', crs('wides'), cr('Wide', 'b', { p9999: 'too long' }));
    expect(bad.status).toBe(422);
    expect(bad.json.details.causes.map((c: Json) => c.field)).toEqual(['spec.p9999']);
    await gizmoStillServed('after-wides');
  });

  it('an enum of 10,000 values', async () => {
    const values = Array.from({ length: 10_000 }, (_, i) => `v${i}`);
    expect((await call('POST', CRDS, crd('enums', 'Enum', spec({ e: { type: 'string', enum: values } })))).status).toBe(201);
    await established('enums');
    expect((await call('POST', crs('enums'), cr('Enum', 'a', { e: 'v9999' }))).status).toBe(201);
    expect((await call('POST', crs('enums'), cr('Enum', 'b', { e: 'nope' }))).status).toBe(422);
  });

  it.each<[string, string, string[], string[]]>([
    ['an RE2 flag group', '(?i)^ab+c$', ['ABBC', 'abc'], ['abd', 'xabc']],
    ['a POSIX class', '^[[:digit:]]+$', ['123'], ['12a']],
    ['an unanchored search, as Go matches', 'b+', ['abbbc'], ['ac']],
  ])('a pattern with %s matches as RE2', async (_name, pattern, good, bad) => {
    const kind = `Pat${pattern.length}`;
    const plural = `${kind.toLowerCase()}s`;
    expect((await call('POST', CRDS, crd(plural, kind, spec({ s: { type: 'string', pattern } })))).status).toBe(201);
    await established(plural);
    for (const [i, v] of good.entries()) expect((await call('POST', crs(plural), cr(kind, `good${i}`, { s: v }))).status, v).toBe(201);
    for (const [i, v] of bad.entries()) expect((await call('POST', crs(plural), cr(kind, `bad${i}`, { s: v }))).status, v).toBe(422);
  });
});

describe('a CRD whose validators are being compiled', () => {
  it('holds up no other request, and is served once they are compiled', async () => {
    let release!: () => void;
    const entered = new Promise<void>((resolve) => {
      held = { entered: resolve, release: new Promise<void>((r) => (release = r)) };
    });
    try {
      expect((await call('POST', CRDS, crd('helds', 'Held', spec({ a: { type: 'string' } })))).status).toBe(201);
      await entered;
      // the compile is in progress: other CRDs' resources, discovery and the CRD itself answer
      await gizmoStillServed('during-compile');
      expect((await call('GET', '/apis/bad.example.com/v1')).status).toBe(200);
      expect(isEstablished((await call('GET', `${CRDS}/helds.bad.example.com`)).json)).toBe(false);
      expect((await call('POST', crs('helds'), cr('Held', 'a', { a: 'x' }))).status).toBe(404);
    } finally {
      release();
      held = undefined;
    }
    await established('helds');
    expect((await call('POST', crs('helds'), cr('Held', 'a', { a: 'x' }))).status).toBe(201);
  });
});

describe('recompiles leave no schema generations behind', () => {
  const leakSchema = (maxLength: number) => spec({ s: { type: 'string', maxLength }, n: { type: 'integer', default: 1 } });
  const tagged = (prefix: string) => ({
    types: Object.keys(s.mergeSchema.types).filter((n) => n.startsWith(prefix)),
    plans: Defaulter.plannedTypes(s.mergeSchema).filter((n) => n.startsWith(prefix)),
    managers: sharedFieldManagers.types(s.mergeSchema).filter((n) => n.startsWith(prefix)),
  });
  const PREFIX = 'com.example.bad.v1.Leak@';

  it('50 updates of one CRD keep one generation', async () => {
    expect((await call('POST', CRDS, crd('leaks', 'Leak', leakSchema(10)))).status).toBe(201);
    await established('leaks');
    for (let i = 1; i <= 50; i++) {
      const live = (await call('GET', `${CRDS}/leaks.bad.example.com`)).json;
      live.spec.versions[0].schema.openAPIV3Schema = leakSchema(10 + i);
      expect((await call('PUT', `${CRDS}/leaks.bad.example.com`, live)).status).toBe(200);
      // served with the new schema once a value of the new length is taken (defaulted and owned through the field manager)
      const obj = await eventually(async () => {
        const r = await call('POST', crs('leaks'), cr('Leak', `l${i}`, { s: 'x'.repeat(10 + i) }));
        return r.status === 201 ? r.json : undefined;
      }, `update ${i} served`);
      expect(obj.spec.n).toBe(1);
      expect(obj.metadata.managedFields.length).toBe(1);
    }
    const held = tagged(PREFIX);
    expect(held.types).toHaveLength(1);
    expect(held.plans.every((n) => held.types.includes(n))).toBe(true);
    expect(held.managers.every((n) => held.types.includes(n))).toBe(true);
    // an apply after the updates goes through the current schema
    const applied = await call(
      'PATCH',
      `${crs('leaks')}/l50?fieldManager=me&force=true`,
      { apiVersion: 'bad.example.com/v1', kind: 'Leak', metadata: { name: 'l50' }, spec: { s: 'y' } },
      'application/apply-patch+yaml',
    );
    expect(applied.status, JSON.stringify(applied.json).slice(0, 300)).toBe(200);
  });

  it('50 create/delete cycles of one CRD leave none', async () => {
    const gone = async (name: string) => eventually(async () => ((await call('GET', `${CRDS}/${name}`)).status === 404 ? true : undefined), `${name} gone`);
    const cycles = 50;
    await call('DELETE', `${CRDS}/leaks.bad.example.com`);
    await gone('leaks.bad.example.com');
    for (let i = 0; i < cycles; i++) {
      expect((await call('POST', CRDS, crd('leaks', 'Leak', leakSchema(10)))).status).toBe(201);
      await established('leaks');
      const created = await eventually(async () => {
        const r = await call('POST', crs('leaks'), cr('Leak', `c${i}`, { s: 'x' }));
        return r.status === 201 ? r : undefined;
      }, `cycle ${i} served`);
      expect(created.json.spec.n).toBe(1);
      expect((await call('DELETE', `${crs('leaks')}/c${i}`)).status).toBe(200);
      expect((await call('DELETE', `${CRDS}/leaks.bad.example.com`)).status).toBe(200);
      await gone('leaks.bad.example.com');
    }
    await eventually(async () => (tagged(PREFIX).types.length === 0 ? true : undefined), 'the last generation forgotten');
    expect(tagged(PREFIX)).toEqual({ types: [], plans: [], managers: [] });
  });
});
