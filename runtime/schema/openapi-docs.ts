// Renders the operations of openapi-paths.ts as OpenAPI v2 (swagger) and
// v3 path items, and v3 schemas as v2 ones, in the shape kube-apiserver
// serves /openapi/v2 and /openapi/v3; shared by codegen (the generated
// documents) and the runtime (the documents of CRDs served while running).
import type { Operation, Param, PathItem } from './openapi-paths.ts';
import { isObject, rawRef, REF_PREFIX } from './util.ts';

const refV2 = (n: string) => ({ $ref: `#/definitions/${n}` });

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
  const schema = o.response ? refV2(o.response) : { type: 'string' };
  const desc: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };
  const responses: Record<string, unknown> = {};
  for (const code of o.responseCodes) responses[code] = { description: desc[code], schema };
  responses['401'] = { description: 'Unauthorized' };
  const params: unknown[] = [];
  if (o.body) params.push({ in: 'body', name: 'body', required: o.method !== 'delete', schema: refV2(o.body) });
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

const refV3 = (n: string) => ({ $ref: `#/components/schemas/${n}` });

/** `api/v1` or `apis/<group>/<version>`: the discovery key of a group-version. */
export function v3Key(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

export function v3FileName(group: string, version: string): string {
  return `${v3Key(group, version).replace(/\//g, '__')}.json`;
}

function paramV3(p: { name: string; in: string; type: string; description: string; required?: boolean }) {
  return { description: p.description, in: p.in, name: p.name, ...(p.required ? { required: true } : {}), schema: { type: p.type, uniqueItems: true } };
}

function content(types: string[], schema: unknown) {
  const c: Record<string, unknown> = {};
  for (const t of types) c[t] = { schema };
  return c;
}

function opV3(o: Operation) {
  const schema = o.response ? refV3(o.response) : { type: 'string' };
  const responses: Record<string, unknown> = {};
  const desc: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };
  for (const code of o.responseCodes) responses[code] = { content: content(o.produces, schema), description: desc[code] };
  responses['401'] = { description: 'Unauthorized' };
  const out: Record<string, unknown> = { description: o.description, operationId: o.operationId, responses, tags: [o.tag] };
  if (o.params.length > 0) out.parameters = o.params.map(paramV3);
  if (o.body) out.requestBody = { content: content(o.method === 'patch' ? o.consumes : ['*/*'], refV3(o.body)), required: o.method !== 'delete' };
  if (o.action !== '') {
    out['x-kubernetes-action'] = o.action;
    out['x-kubernetes-group-version-kind'] = o.gvk;
  }
  return out;
}

export function pathsV3(items: PathItem[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const it of items) {
    const item: Record<string, unknown> = {};
    for (const o of it.ops) item[o.method] = opV3(o);
    if (it.params.length > 0) item.parameters = it.params.map(paramV3);
    paths[it.path] = item;
  }
  return paths;
}
