// Emits generated/openapi/v2.json: one OpenAPI v2 (swagger 2.0) document with
// `definitions` and `paths` of every group-version codegen knows, enabled by
// default or not, in the shape kube-apiserver serves /openapi/v2; the server
// cuts it down to the group-versions and resources it serves
// (runtime/http/openapi/served.ts). Schemas are the v3 ones with references
// rewritten to #/definitions/. Compact JSON, keys sorted.
import type { Model } from '../model/types.ts';
import { isObject, rawRef, REF_PREFIX, sortKeysDeep } from '../load/schema-util.ts';
import { groupVersionPaths, type Operation, type Param, type PathItem } from './openapi-paths.ts';
import { schemaNamesOf } from './openapi-v3.ts';
import { toResourceDef } from './registry.ts';

const ref = (n: string) => ({ $ref: `#/definitions/${n}` });

/** A v3 schema as v2: `#/components/schemas/` refs become `#/definitions/`, one-element allOf refs are unwrapped. */
export function toV2Schema(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(toV2Schema);
  if (!isObject(v)) return v;
  const r = rawRef(v);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'allOf' && r !== undefined && typeof v.$ref !== 'string') continue;
    if (k === '$ref') continue;
    if (k === 'nullable') {
      out['x-nullable'] = x;
      continue;
    }
    out[k] = toV2Schema(x);
  }
  if (r !== undefined) out.$ref = r.startsWith(REF_PREFIX) ? `#/definitions/${r.slice(REF_PREFIX.length)}` : r;
  return out;
}

function paramV2(p: Param) {
  return { description: p.description, in: p.in, name: p.name, ...(p.required ? { required: true } : {}), type: p.type, uniqueItems: true };
}

function opV2(o: Operation) {
  const schema = o.response ? ref(o.response) : { type: 'string' };
  const desc: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };
  const responses: Record<string, unknown> = {};
  for (const code of o.responseCodes) responses[code] = { description: desc[code], schema };
  responses['401'] = { description: 'Unauthorized' };
  const params: unknown[] = [];
  if (o.body) params.push({ in: 'body', name: 'body', required: o.method !== 'delete', schema: ref(o.body) });
  params.push(...o.params.map(paramV2));
  const out: Record<string, unknown> = {
    consumes: o.consumes,
    description: o.description,
    operationId: o.operationId,
    produces: o.produces,
    responses,
    schemes: ['https'],
    tags: [o.tag],
  };
  if (params.length > 0) out.parameters = params;
  if (o.action !== '') {
    out['x-kubernetes-action'] = o.action;
    out['x-kubernetes-group-version-kind'] = o.gvk;
  }
  return out;
}

export function pathsV2(items: PathItem[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const it of items) {
    const item: Record<string, unknown> = {};
    for (const o of it.ops) item[o.method] = opV2(o);
    if (it.params.length > 0) item.parameters = it.params.map(paramV2);
    paths[it.path] = item;
  }
  return paths;
}

export function emitOpenAPIV2(model: Model): string {
  const paths: Record<string, unknown> = {};
  const names = new Set<string>();
  for (const g of model.groupVersions) {
    const resources = model.resources.filter((r) => r.group === g.group && r.version === g.version).map(toResourceDef);
    if (resources.length === 0) continue;
    const items = groupVersionPaths(model, g.group, g.version, resources);
    Object.assign(paths, pathsV2(items));
    for (const n of schemaNamesOf(model, resources, items)) names.add(n);
  }
  const definitions: Record<string, unknown> = {};
  for (const n of [...names].sort()) definitions[n] = toV2Schema(model.schemas.get(n)!.schema);
  return JSON.stringify(
    sortKeysDeep({
      definitions,
      info: { title: 'Kubernetes', version: 'unversioned' },
      paths,
      security: [{ BearerToken: [] }],
      securityDefinitions: { BearerToken: { description: 'Bearer token authentication', in: 'header', name: 'authorization', type: 'apiKey' } },
      swagger: '2.0',
    }),
  );
}
