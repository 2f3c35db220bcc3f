// Emits generated/openapi/v2.json: one OpenAPI v2 (swagger 2.0) document with
// `definitions` and `paths` of every group-version codegen knows, enabled by
// default or not, in the shape kube-apiserver serves /openapi/v2; the server
// cuts it down to the group-versions and resources it serves
// (runtime/http/openapi/served.ts). Schemas are the v3 ones with references
// rewritten to #/definitions/. Compact JSON, keys sorted.
import type { Model } from '../model/types.ts';
import { sortKeysDeep } from '../load/schema-util.ts';
import { groupVersionPaths } from '../../runtime/schema/openapi-paths.ts';
import { pathsV2, toV2Schema } from '../../runtime/schema/openapi-docs.ts';
import { modelIndex } from './reach.ts';
import { schemaNamesOf } from './openapi-v3.ts';
import { toResourceDef } from './registry.ts';

export function emitOpenAPIV2(model: Model): string {
  const paths: Record<string, unknown> = {};
  const names = new Set<string>();
  for (const g of model.groupVersions) {
    const resources = model.resources.filter((r) => r.group === g.group && r.version === g.version).map(toResourceDef);
    if (resources.length === 0) continue;
    const items = groupVersionPaths(modelIndex(model), g.group, g.version, resources);
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
