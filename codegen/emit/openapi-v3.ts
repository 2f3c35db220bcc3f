// Emits generated/openapi/v3/: one OpenAPI v3 document per group-version
// (`paths` in kube-apiserver's shape plus every referenced schema under
// components.schemas) and index.json, the /openapi/v3 discovery body with a
// content hash per document. Compact JSON, keys sorted.
import { createHash } from 'node:crypto';
import type { Model } from '../model/types.ts';
import type { ResourceDef } from '../templates/api-types.ts';
import { sortKeysDeep } from '../load/schema-util.ts';
import { closure, modelIndex, rootsOfResources } from './reach.ts';
import { groupVersionPaths, type PathItem } from '../../runtime/schema/openapi-paths.ts';
import { pathsV3, v3FileName, v3Key } from '../../runtime/schema/openapi-docs.ts';
import { toResourceDef } from './registry.ts';

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
  const items = groupVersionPaths(modelIndex(model), group, version, resources);
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
