// Emits generated/openapi/v3/: one OpenAPI v3 document per group-version
// (`paths` in kube-apiserver's shape plus every referenced schema under
// components.schemas) and index.json, the /openapi/v3 discovery body with a
// content hash per document. Compact JSON, keys sorted.
import { createHash } from 'node:crypto';
import type { Model } from '../model/types.ts';
import type { ResourceDef } from '../templates/api-types.ts';
import { sortKeysDeep } from '../load/schema-util.ts';
import { closure, rootsOfResources } from './reach.ts';
import { groupVersionPaths, type Operation, type PathItem } from './openapi-paths.ts';
import { toResourceDef } from './registry.ts';

const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });

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
  const schema = o.response ? ref(o.response) : { type: 'string' };
  const responses: Record<string, unknown> = {};
  const desc: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };
  for (const code of o.responseCodes) responses[code] = { content: content(o.produces, schema), description: desc[code] };
  responses['401'] = { description: 'Unauthorized' };
  const out: Record<string, unknown> = { description: o.description, operationId: o.operationId, responses, tags: [o.tag] };
  if (o.params.length > 0) out.parameters = o.params.map(paramV3);
  if (o.body) out.requestBody = { content: content(o.method === 'patch' ? o.consumes : ['*/*'], ref(o.body)), required: o.method !== 'delete' };
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

export function schemaNamesOf(model: Model, resources: ResourceDef[], items: PathItem[]): string[] {
  const roots = new Set(rootsOfResources(model, resources as Model['resources']));
  for (const it of items)
    for (const o of it.ops) {
      if (o.body) roots.add(o.body);
      if (o.response) roots.add(o.response);
    }
  return closure(model, roots);
}

export function v3Document(model: Model, group: string, version: string): Record<string, unknown> {
  const resources = model.resources.filter((r) => r.group === group && r.version === version).map(toResourceDef);
  const items = groupVersionPaths(model, group, version, resources);
  const schemas: Record<string, unknown> = {};
  for (const n of schemaNamesOf(model, resources, items)) schemas[n] = model.schemas.get(n)!.schema;
  return sortKeysDeep({ components: { schemas }, info: { title: 'Kubernetes', version: 'unversioned' }, openapi: '3.0.0', paths: pathsV3(items) });
}

export function hashOf(text: string): string {
  return createHash('sha512').update(text).digest('hex').toUpperCase();
}

export interface V3Output {
  files: Map<string, string>;
  index: string;
  hashes: Map<string, string>;
}

/** Every group-version's document (file name -> compact JSON) and the discovery index (enabled-by-default group-versions). */
export function emitOpenAPIV3(model: Model): V3Output {
  const files = new Map<string, string>();
  const hashes = new Map<string, string>();
  const index: Record<string, { serverRelativeURL: string }> = {};
  const gvs = model.groupVersions.filter((g) => model.resources.some((r) => r.group === g.group && r.version === g.version));
  for (const g of gvs) {
    const text = JSON.stringify(v3Document(model, g.group, g.version));
    const key = v3Key(g.group, g.version);
    const hash = hashOf(text);
    files.set(v3FileName(g.group, g.version), text);
    hashes.set(key, hash);
    if (g.enabledByDefault) index[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  return { files, hashes, index: JSON.stringify(sortKeysDeep({ paths: index })) };
}
