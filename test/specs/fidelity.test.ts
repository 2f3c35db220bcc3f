// Fidelity of api-specs/ to upstream 1.31: for every kind our tree serves,
// the schemas reachable from it (and from its list kind) match the reference
// swagger's facts field by field, and each resource's verbs and subresources
// equal what the reference paths offer. Skips when the reference is absent.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareSchemas, type Schema } from './schema-compare.ts';
import { allSchemas, declaredResources, loadSpecs, referenceDir, resourcesFromPaths, schemaNameFor } from './spec-tree.ts';

const ref = referenceDir();
if (!ref) console.warn('fidelity: reference data not found (../shared/reference or $SPECSERVER_REFERENCE_DIR); skipping');

describe.skipIf(!ref)('api-specs fidelity to the 1.31 reference', () => {
  const swagger = ref ? JSON.parse(readFileSync(join(ref, 'openapi/swagger-v1.31.json'), 'utf8')) : {};
  const theirs = (swagger.definitions ?? {}) as Record<string, Schema>;
  const docs = loadSpecs();
  const ours = allSchemas(docs);
  const resources = declaredResources(docs);

  it('covers every kind the project serves', () => {
    const kinds = resources.map((r) => `${r.group || 'core'}/${r.version} ${r.kind}`);
    for (const k of [
      'core/v1 Pod',
      'core/v1 Service',
      'core/v1 Event',
      'apps/v1 Deployment',
      'batch/v1 CronJob',
      'events.k8s.io/v1 Event',
      'networking.k8s.io/v1beta1 IPAddress',
      'node.k8s.io/v1 RuntimeClass',
      'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema',
      'apiextensions.k8s.io/v1 CustomResourceDefinition',
      'apiregistration.k8s.io/v1 APIService',
      'autoscaling/v2 HorizontalPodAutoscaler',
      'authorization.k8s.io/v1 SelfSubjectRulesReview',
      'authentication.k8s.io/v1 SelfSubjectReview',
    ])
      expect(kinds).toContain(k);
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  it('every reachable type matches the reference field by field', () => {
    const roots: string[] = [];
    for (const r of resources) {
      for (const kind of [r.kind, `${r.kind}List`]) {
        const name = schemaNameFor(ours, r.group, r.version, kind);
        if (name) roots.push(name);
        else if (kind === r.kind) throw new Error(`${r.file}: no schema for ${r.group}/${r.version} ${kind}`);
      }
      for (const s of r.subresources) {
        const name = schemaNameFor(ours, s.group, s.version, s.kind);
        if (name) roots.push(name);
      }
    }
    const res = compareSchemas(ours, theirs, roots);
    console.log(`fidelity: ${resources.length} resources, ${roots.length} root kinds, ${res.types} types, ${res.fields} fields compared, ${res.mismatches.length} mismatches`);
    expect(res.types).toBeGreaterThan(400);
    expect(res.mismatches).toEqual([]);
  });

  it('every shared apimachinery type matches the reference', () => {
    const names = Object.keys(theirs).filter((n) => n.startsWith('io.k8s.apimachinery.'));
    const res = compareSchemas(ours, theirs, names);
    expect(res.mismatches).toEqual([]);
  });

  it('each resource offers exactly the reference verbs and subresources', () => {
    const upstream = new Map(resourcesFromPaths(swagger.paths).map((r) => [`${r.group}/${r.version}/${r.plural}`, r]));
    const problems: string[] = [];
    for (const r of resources) {
      const key = `${r.group}/${r.version}/${r.plural}`;
      const u = upstream.get(key);
      if (!u) {
        problems.push(`${r.file}: ${key} not served upstream`);
        continue;
      }
      const strip = (x: typeof r) => ({ kind: x.kind, namespaced: x.namespaced, verbs: x.verbs, subresources: x.subresources });
      try {
        expect(strip(r)).toEqual(strip(u));
      } catch (e) {
        problems.push(`${r.file}: ${key}: ${(e as Error).message.split('\n')[0]}\n${JSON.stringify(strip(r))}\n${JSON.stringify(strip(u))}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('compareSchemas catches each kind of difference', () => {
  const base: Record<string, Schema> = {
    K: {
      type: 'object',
      required: ['spec'],
      'x-kubernetes-group-version-kind': [{ group: 'g', version: 'v1', kind: 'K' }],
      properties: {
        spec: { $ref: '#/definitions/S' },
        items: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      },
    },
    S: { type: 'object', properties: { n: { type: 'integer', format: 'int32' }, m: { type: 'object', additionalProperties: { type: 'string' } } } },
  };
  const v3 = (s: unknown) => JSON.parse(JSON.stringify(s).replaceAll('#/definitions/', '#/components/schemas/'));
  const mutate = (f: (o: any) => void) => {
    const o = v3(base);
    f(o);
    return o;
  };

  it.each([
    [
      'identical (with v3 decorations)',
      mutate((o) => {
        o.K.properties.spec = { allOf: [{ $ref: '#/components/schemas/S' }], default: {}, description: 'x' };
      }),
      0,
      '',
    ],
    [
      'format differs',
      mutate((o) => {
        o.S.properties.n.format = 'int64';
      }),
      1,
      'K.spec',
    ],
    [
      'missing field',
      mutate((o) => {
        delete o.S.properties.n;
      }),
      1,
      'S.n: missing',
    ],
    [
      'extra field',
      mutate((o) => {
        o.S.properties.x = { type: 'string' };
      }),
      1,
      'S.x: not in the reference',
    ],
    [
      'required differs',
      mutate((o) => {
        o.K.required = [];
      }),
      1,
      'K: required',
    ],
    [
      'marker differs',
      mutate((o) => {
        o.K.properties.items['x-kubernetes-list-type'] = 'atomic';
      }),
      1,
      'K.items: x-kubernetes-list-type',
    ],
    [
      'marker missing',
      mutate((o) => {
        delete o.K.properties.items['x-kubernetes-list-type'];
      }),
      1,
      'x-kubernetes-list-type',
    ],
    [
      'items type differs',
      mutate((o) => {
        o.K.properties.items.items.type = 'integer';
      }),
      1,
      'K.items[items]: type',
    ],
    [
      'additionalProperties differs',
      mutate((o) => {
        o.S.properties.m.additionalProperties = { type: 'integer' };
      }),
      1,
      'S.m[additionalProperties]: type',
    ],
    [
      'ref target differs',
      mutate((o) => {
        o.K.properties.spec = { $ref: '#/components/schemas/T' };
        o.T = o.S;
      }),
      1,
      'K.spec: $ref',
    ],
    [
      'unknown key',
      mutate((o) => {
        o.S.nullable = true;
      }),
      1,
      'S: unexpected key nullable',
    ],
  ])('%s', (_name, ours, count, fragment) => {
    const res = compareSchemas(ours, base, ['K']);
    expect(res.mismatches.length, res.mismatches.join('\n')).toBe(count);
    if (fragment) expect(res.mismatches[0]).toContain(fragment === 'K.spec' ? 'S.n: format' : fragment);
    expect(res.types).toBeGreaterThanOrEqual(1);
  });
});
