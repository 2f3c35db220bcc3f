import { describe, expect, it } from 'vitest';
import { compileCrd, CrdTranslationError } from './compile.ts';

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
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

describe('compileCrd', () => {
  const [v] = compileCrd(crd(schema), 'uid-1.1');

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

  it('reports a CRD it cannot translate with the JSON path', () => {
    const bad = crd(schema);
    bad.spec.versions[0].schema = undefined as never;
    expect(() => compileCrd(bad, 't')).toThrow(CrdTranslationError);
    expect(() => compileCrd(bad, 't')).toThrow('spec.versions[0].schema.openAPIV3Schema: every served version needs schema.openAPIV3Schema');
  });
});
