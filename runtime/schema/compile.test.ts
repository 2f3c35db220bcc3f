import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCrd, CrdTranslationError, type CompiledCrdVersion } from './compile.ts';
import { compileInProcess, WorkerCompiler, type ValidatorCompiler } from './validator-worker.ts';

const crd = (schema: Record<string, unknown>) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: { group: 'example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }] },
});

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1, default: 3 },
        color: { type: 'string', enum: ['red', 'blue'] },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
        tags: { type: 'array', items: { type: 'string' } },
        // RE2 syntax that JavaScript's RegExp does not take (a leading flag group)
        code: { type: 'string', pattern: '(?i)^ab+c$' },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

const worker = new WorkerCompiler();
afterAll(() => worker.close());

describe.each<[string, ValidatorCompiler]>([
  ['on this thread', compileInProcess],
  ['in a worker thread', worker.compile],
])('compileCrd %s', (_how, compiler) => {
  let v: CompiledCrdVersion;
  beforeAll(async () => {
    [v] = await compileCrd(crd(schema), 'uid-1.1', compiler);
  });

  it('tags the schema name and serves a custom ResourceDef', () => {
    expect(v.def).toMatchObject({ group: 'example.com', version: 'v1', kind: 'Widget', resource: 'widgets', custom: true, schema: 'com.example.v1.Widget@uid-1.1' });
    expect(v.schemas.map((s) => s.name)).toEqual(['com.example.v1.Widget', 'com.example.v1.WidgetList']);
  });

  it.each<[string, unknown, { kind: string; path: string }[]]>([
    ['a valid object', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a' }, spec: { size: 2, color: 'red' } }, []],
    ['an unknown field (pruned)', { spec: { size: 2, shade: 'x' } }, [{ kind: 'unknown', path: 'spec.shade' }]],
    ['unknown fields kept under preserve-unknown-fields', { spec: { size: 2, extra: { anything: { goes: 1 } } } }, []],
    ['a missing required field', { spec: {} }, [{ kind: 'required', path: 'spec.size' }]],
    ['a value out of bounds', { spec: { size: 0 } }, [{ kind: 'bounds', path: 'spec.size' }]],
    ['a value not in the enum', { spec: { size: 1, color: 'green' } }, [{ kind: 'enum', path: 'spec.color' }]],
    ['a wrong type', { spec: { size: 'big' } }, [{ kind: 'type', path: 'spec.size' }]],
    ['a list item with a wrong field', { spec: { size: 1, ports: [{ name: 'a', bad: 1 }] } }, [{ kind: 'unknown', path: 'spec.ports[0].bad' }]],
    ['an RE2 pattern matched case-insensitively', { spec: { size: 1, code: 'ABBC' } }, []],
    ['an RE2 pattern not matched', { spec: { size: 1, code: 'abd' } }, [{ kind: 'bounds', path: 'spec.code' }]],
  ])('validates %s', (_name, obj, want) => {
    expect(v.validator(obj).map((i) => ({ kind: i.kind, path: i.path }))).toEqual(want);
  });

  it('builds the merge type: list-type map keyed, other lists atomic, defaults carried', () => {
    const spec = v.mergeType.map!.fields!.find((f) => f.name === 'spec')!.type.inline!.map!;
    const field = (n: string) => spec.fields!.find((f) => f.name === n)!;
    expect(field('ports').type.inline!.list).toMatchObject({ elementRelationship: 'associative', keys: ['name'] });
    expect(field('tags').type.inline!.list).toMatchObject({ elementRelationship: 'atomic' });
    expect(field('size').default).toBe(3);
    expect(v.mergeType.map!.fields!.find((f) => f.name === 'metadata')!.type).toEqual({ named: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
  });

  it('reports a CRD it cannot translate with the JSON path', async () => {
    const bad = crd(schema);
    bad.spec.versions[0].schema = undefined as never;
    await expect(compileCrd(bad, 't', compiler)).rejects.toThrow(CrdTranslationError);
    await expect(compileCrd(bad, 't', compiler)).rejects.toThrow('spec.versions[0].schema.openAPIV3Schema: every served version needs schema.openAPIV3Schema');
  });
});

describe('the worker compiler', () => {
  const wide = (n: number) => {
    const props: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) props[`f${i}`] = { type: 'string', maxLength: 8 };
    return { type: 'object', properties: { spec: { type: 'object', properties: props } } };
  };

  it('leaves the event loop free while it compiles: a callback queued after the compile started runs before it ends', async () => {
    const order: string[] = [];
    const done = compileCrd(crd(wide(3000)), 'wide.1', worker.compile).then(() => order.push('compiled'));
    setImmediate(() => order.push('other work'));
    await done;
    expect(order).toEqual(['other work', 'compiled']);
  });

  it('answers compiles in order and validates a wide schema', async () => {
    const [a, b] = await Promise.all([compileCrd(crd(wide(50)), 'a.1', worker.compile), compileCrd(crd(wide(5)), 'b.1', worker.compile)]);
    expect(a[0].validator({ spec: { f49: 'x' } })).toEqual([]);
    expect(a[0].validator({ spec: { f49: 'too long, nine' } }).map((i) => i.path)).toEqual(['spec.f49']);
    expect(b[0].validator({ spec: { f49: 'x' } }).map((i) => i.kind)).toEqual(['unknown']);
  });

  it('refuses a schema ajv cannot compile, and goes on compiling others', async () => {
    await expect(worker.compile({ a: { pattern: '(unclosed' } }, 'defs#/definitions/a')).rejects.toThrow(/missing closing \)/);
    const [ok] = await compileCrd(crd(wide(2)), 'ok.1', worker.compile);
    expect(ok.validator({ spec: { f1: 'x' } })).toEqual([]);
  });

  it('starts a worker again after the idle one ended', async () => {
    const quick = new WorkerCompiler({ idleMs: 0 });
    try {
      await compileCrd(crd(wide(1)), 'q.1', quick.compile);
      await new Promise((r) => setTimeout(r, 20));
      const [v] = await compileCrd(crd(wide(1)), 'q.2', quick.compile);
      expect(v.validator({ spec: { f0: 'x' } })).toEqual([]);
      expect(quick.started).toBeGreaterThanOrEqual(1);
    } finally {
      await quick.close();
    }
  });
});
