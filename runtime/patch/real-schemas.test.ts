// Strategic merge patch against real merge schemas: the one codegen emits
// (generated/merge-schema.ts) and one built from the upstream 1.31 OpenAPI
// document (../shared/reference, or $SPECSERVER_REFERENCE_DIR). The same
// DaemonSet and kubectl scenarios run against each; each block skips when its
// input is absent.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Atom, FieldDef, MergeSchema, TypeRef } from '../../generated/api-types.ts';
import { applyPatch } from './index.ts';
import type { Obj } from './index.ts';
import { DAEMONSET, liveDaemonSet } from './test-fixtures.ts';

const refDir = process.env.SPECSERVER_REFERENCE_DIR ?? resolve(process.cwd(), '../shared/reference');
const swaggerPath = join(refDir, 'openapi', 'swagger-v1.31.json');
const haveReference = existsSync(swaggerPath);

interface SwaggerSchema {
  type?: string;
  $ref?: string;
  items?: SwaggerSchema;
  properties?: Record<string, SwaggerSchema>;
  additionalProperties?: SwaggerSchema | boolean;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
}

/** Just enough of a swagger-to-merge-schema conversion for these tests (codegen does the real one). */
function toRef(s: SwaggerSchema): TypeRef {
  if (s.$ref) return { named: s.$ref.replace('#/definitions/', '') };
  return { inline: toAtom(s) };
}
function toAtom(s: SwaggerSchema): Atom {
  if (s.type === 'array' && s.items) return { list: { elementType: toRef(s.items), elementRelationship: 'atomic' } };
  if (s.properties) {
    const fields: FieldDef[] = Object.entries(s.properties).map(([name, p]) => ({
      name,
      type: toRef(p),
      ...(p['x-kubernetes-patch-strategy'] ? { patchStrategy: p['x-kubernetes-patch-strategy'] } : {}),
      ...(p['x-kubernetes-patch-merge-key'] ? { patchMergeKey: p['x-kubernetes-patch-merge-key'] } : {}),
    }));
    return { map: { fields } };
  }
  if (s.type === 'object') {
    const ap = typeof s.additionalProperties === 'object' ? toRef(s.additionalProperties) : { named: '__untyped_deduced_' };
    return { map: { elementType: ap } };
  }
  return { scalar: 'untyped' };
}

function loadSchema(): MergeSchema {
  const doc = JSON.parse(readFileSync(swaggerPath, 'utf8')) as { definitions: Record<string, SwaggerSchema> };
  const types: Record<string, Atom> = {};
  for (const [name, def] of Object.entries(doc.definitions)) types[name] = toAtom(def);
  return { types };
}

const pod = (o: Obj) => ((o.spec as Obj).template as Obj).spec as Obj;

const generatedPath = fileURLToPath(new URL('../../generated/merge-schema.ts', import.meta.url));
const haveGenerated = existsSync(generatedPath);

describe.skipIf(!haveReference)(`with the upstream 1.31 markers (${swaggerPath})`, () => {
  scenarios(() => loadSchema());
});

describe.skipIf(!haveGenerated)('with generated/merge-schema.ts', () => {
  let generated: MergeSchema;
  beforeAll(async () => {
    generated = ((await import(/* @vite-ignore */ generatedPath)) as { mergeSchema: MergeSchema }).mergeSchema;
  });
  scenarios(() => generated);

  it.skipIf(!haveReference)('carries every upstream patch strategy and merge key this library reads', () => {
    const upstream = loadSchema();
    const missing: string[] = [];
    for (const [typeName, atom] of Object.entries(upstream.types)) {
      const ours = generated.types[typeName];
      if (!ours) continue; // not served
      for (const f of atom.map?.fields ?? []) {
        if (!f.patchStrategy && !f.patchMergeKey) continue;
        const g = ours.map?.fields?.find((x) => x.name === f.name);
        if (g?.patchStrategy !== f.patchStrategy || (g?.patchMergeKey ?? '') !== (f.patchMergeKey ?? '')) {
          missing.push(`${typeName}.${f.name}: want ${f.patchStrategy}/${f.patchMergeKey ?? ''}, have ${g?.patchStrategy}/${g?.patchMergeKey ?? ''}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

function scenarios(getSchema: () => MergeSchema): void {
  let schema: MergeSchema;
  beforeAll(() => {
    schema = getSchema();
  });

  it('DaemonSet: containers, env and volumes by name, $patch delete, $setElementOrder, $retainKeys', () => {
    const patch = {
      metadata: { '$deleteFromPrimitiveList/finalizers': ['a.example.com/one'] },
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'agent' }],
            containers: [{ name: 'agent', env: [{ name: 'LEVEL', value: 'debug' }] }],
            volumes: [
              { name: 'logs', $retainKeys: ['emptyDir', 'name'], emptyDir: {} },
              { name: 'cache', $patch: 'delete' },
            ],
          },
        },
      },
    };
    const out = applyPatch('strategic', liveDaemonSet(), patch, { schema, typeName: DAEMONSET });
    expect((pod(out).containers as Obj[]).map((c) => c.name)).toEqual(['sidecar', 'agent']);
    expect((pod(out).containers as Obj[])[1].env).toEqual([
      { name: 'MODE', value: 'node' },
      { name: 'LEVEL', value: 'debug' },
    ]);
    expect(pod(out).volumes).toEqual([{ name: 'logs', emptyDir: {} }]);
    expect(pod(out).tolerations).toEqual(pod(liveDaemonSet()).tolerations);
    expect((out.metadata as Obj).finalizers).toEqual(['b.example.com/two']);
  });

  it('Deployment: a kubectl apply three-way patch (image and port changed, a field of another writer kept)', () => {
    const live: Obj = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
      spec: {
        replicas: 2,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              {
                name: 'web',
                image: 'nginx:1.0',
                ports: [{ containerPort: 80, protocol: 'TCP' }],
                env: [{ name: 'FROM_OTHER_WRITER', value: 'x' }],
                resources: { limits: { cpu: '1' } },
              },
            ],
          },
        },
      },
    };
    // What kubectl sends when the manifest changes image and port, drops the
    // limits and switches to the Recreate strategy.
    const patch = {
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":true}' } },
      spec: {
        strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null },
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'web' }],
            containers: [
              {
                '$setElementOrder/ports': [{ containerPort: 8080 }],
                image: 'nginx:1.1',
                name: 'web',
                ports: [{ containerPort: 8080 }, { $patch: 'delete', containerPort: 80 }],
                resources: null,
              },
            ],
          },
        },
      },
    };
    const out = applyPatch('strategic', live, patch, { schema, typeName: 'io.k8s.api.apps.v1.Deployment' });
    const c = (pod(out).containers as Obj[])[0];
    expect(c).toEqual({ name: 'web', image: 'nginx:1.1', ports: [{ containerPort: 8080 }], env: [{ name: 'FROM_OTHER_WRITER', value: 'x' }] });
    expect((out.spec as Obj).strategy).toEqual({ type: 'Recreate' });
    expect((out.spec as Obj).replicas).toBe(2);
    expect(((out.metadata as Obj).annotations as Obj)['kubectl.kubernetes.io/last-applied-configuration']).toBe('{"new":true}');
  });

  it('kubectl set image and label/annotate patches', () => {
    const setImage = { spec: { template: { spec: { containers: [{ image: 'sidecar:3', name: 'sidecar' }] } } } };
    const out = applyPatch('strategic', liveDaemonSet(), setImage, { schema, typeName: DAEMONSET });
    expect((pod(out).containers as Obj[]).map((c) => `${c.name}=${c.image}`)).toEqual(['agent=agent:1.0', 'sidecar=sidecar:3']);
    const label = { metadata: { labels: { tier: null, new: 'v' }, annotations: { note: 'n' } } };
    const out2 = applyPatch('strategic', out, label, { schema, typeName: DAEMONSET });
    expect(out2.metadata).toMatchObject({ labels: { app: 'agent', new: 'v' }, annotations: { note: 'n' } });
  });
}
