// The precomputed OpenAPI documents in generated/openapi are self-contained
// and consistent: every $ref resolves inside its document, every served kind
// has a schema with its group-version-kind and paths with x-kubernetes-action,
// and the discovery index's hashes match the files.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resources } from '../../generated/registry.ts';
import { openapiV2Path, openapiV3Documents, openapiV3IndexPath } from '../../generated/openapi/index.ts';

type Doc = Record<string, any>;

function refs(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => refs(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') out.push(x);
      else refs(x, out);
    }
  }
  return out;
}

const key = (g: string, v: string) => (g === '' ? `api/${v}` : `apis/${g}/${v}`);

describe.skipIf(resources.length === 0)('generated OpenAPI documents', () => {
  it('v3 documents: references resolve, kinds and paths are declared', () => {
    for (const [k, d] of Object.entries(openapiV3Documents)) {
      const text = readFileSync(d.path, 'utf8');
      expect(createHash('sha512').update(text).digest('hex').toUpperCase(), k).toBe(d.hash);
      const doc: Doc = JSON.parse(text);
      const schemas = doc.components.schemas;
      for (const r of refs(doc)) expect(schemas[r.replace('#/components/schemas/', '')], `${k}: ${r}`).toBeDefined();
      for (const r of resources.filter((x) => key(x.group, x.version) === k)) {
        const gvks = schemas[r.schema]['x-kubernetes-group-version-kind'];
        expect(gvks, r.schema).toContainEqual({ group: r.group, version: r.version, kind: r.kind });
        const actions = Object.entries(doc.paths as Doc)
          .filter(([p]) => p.endsWith(`/${r.resource}`) || p.endsWith(`/${r.resource}/{name}`))
          .flatMap(([, item]) =>
            Object.values(item as Doc)
              .filter((o: Doc) => o && o['x-kubernetes-group-version-kind']?.kind === r.kind)
              .map((o: Doc) => o['x-kubernetes-action']),
          );
        const want = r.verbs.map((v) => (({ create: 'post', update: 'put', watch: 'watch' }) as Record<string, string>)[v] ?? v);
        for (const a of want) expect(actions, `${k} ${r.resource}`).toContain(a);
      }
    }
  });

  it('the v3 index lists the enabled group-versions with their hashes', () => {
    const index: Doc = JSON.parse(readFileSync(openapiV3IndexPath, 'utf8'));
    const enabled = [...new Set(resources.filter((r) => r.enabledByDefault).map((r) => key(r.group, r.version)))].sort();
    expect(Object.keys(index.paths).sort()).toEqual(enabled);
    for (const k of enabled) expect(index.paths[k].serverRelativeURL).toBe(`/openapi/v3/${k}?hash=${openapiV3Documents[k].hash}`);
  });

  it('v2: one document with definitions and paths for every enabled resource', () => {
    const doc: Doc = JSON.parse(readFileSync(openapiV2Path, 'utf8'));
    expect(doc.swagger).toBe('2.0');
    for (const r of refs(doc)) expect(doc.definitions[r.replace('#/definitions/', '')], r).toBeDefined();
    expect(refs(doc).some((r) => r.startsWith('#/components/'))).toBe(false);
    for (const r of resources.filter((x) => x.enabledByDefault && x.verbs.includes('get'))) {
      const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
      const p = r.namespaced ? `${prefix}/namespaces/{namespace}/${r.resource}/{name}` : `${prefix}/${r.resource}/{name}`;
      expect(doc.paths[p]?.get?.['x-kubernetes-group-version-kind'], p).toEqual({ group: r.group, version: r.version, kind: r.kind });
      expect(doc.definitions[r.schema], r.schema).toBeDefined();
    }
  });
});
