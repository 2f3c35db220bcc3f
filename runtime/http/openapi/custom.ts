// The OpenAPI description of the custom resources served while running
// (CustomResourceDefinitions created through the API): their path items,
// built by the same path model codegen uses (runtime/schema/openapi-paths.ts,
// openapi-docs.ts), and their kind and List schemas; the meta types they
// refer to (ObjectMeta, Status, DeleteOptions, Scale ...) come from the
// generated documents. The caller cuts the result to the served set.

import type { ResourceDef } from '../../../generated/api-types.ts';
import { groupVersionPaths, type SchemaIndex } from '../../schema/openapi-paths.ts';
import { pathsV2, pathsV3, toV2Schema, v3Key } from '../../schema/openapi-docs.ts';

type Json = Record<string, unknown>;

/** One served custom resource version: its def (schema: the published kind name) and its named schemas. */
export interface CustomResourceDoc {
  def: ResourceDef;
  schemas: { name: string; schema: Json }[];
}

/** Named schemas of the generated documents (meta types and the like), by name. */
export type SchemaPool = Map<string, Json>;

function gvkOf(s: Json): { group: string; version: string; kind: string } | undefined {
  const g = s['x-kubernetes-group-version-kind'];
  return Array.isArray(g) && g.length === 1 ? (g[0] as { group: string; version: string; kind: string }) : undefined;
}

function indexOf(custom: CustomResourceDoc[], pool: SchemaPool): SchemaIndex {
  const own = new Map<string, Json>();
  for (const c of custom) for (const s of c.schemas) own.set(s.name, s.schema);
  return {
    has: (n) => own.has(n) || pool.has(n),
    forGvk(group, version, kind) {
      for (const src of [own, pool])
        for (const [name, s] of src) {
          const g = gvkOf(s);
          if (g && g.group === group && g.version === version && g.kind === kind) return name;
        }
      return undefined;
    },
  };
}

/** The group-versions the custom resources are served in, by v3 key. */
export function customGroupVersions(custom: CustomResourceDoc[]): Map<string, { group: string; version: string }> {
  const out = new Map<string, { group: string; version: string }>();
  for (const c of custom) out.set(v3Key(c.def.group, c.def.version), { group: c.def.group, version: c.def.version });
  return out;
}

/** The v3 document of one custom group-version, before cutting: its paths, its schemas and the whole pool. */
export function customV3Document(custom: CustomResourceDoc[], pool: SchemaPool, group: string, version: string): Json {
  const mine = custom.filter((c) => c.def.group === group && c.def.version === version);
  const items = groupVersionPaths(
    indexOf(mine, pool),
    group,
    version,
    mine.map((c) => c.def),
  );
  const schemas: Json = {};
  const all = new Map<string, Json>(pool);
  for (const c of mine) for (const s of c.schemas) all.set(s.name, s.schema);
  for (const name of [...all.keys()].sort()) schemas[name] = all.get(name);
  return { components: { schemas }, info: { title: 'Kubernetes', version: 'unversioned' }, openapi: '3.0.0', paths: pathsV3(items) };
}

/** The v2 paths and definitions of every custom resource, to add to the generated v2 document. */
export function customV2Additions(custom: CustomResourceDoc[], pool: SchemaPool): { paths: Json; definitions: Json } {
  const paths: Json = {};
  const definitions: Json = {};
  for (const { group, version } of customGroupVersions(custom).values()) {
    const mine = custom.filter((c) => c.def.group === group && c.def.version === version);
    Object.assign(
      paths,
      pathsV2(
        groupVersionPaths(
          indexOf(mine, pool),
          group,
          version,
          mine.map((c) => c.def),
        ),
      ),
    );
    for (const c of mine) for (const s of c.schemas) definitions[s.name] = toV2Schema(s.schema);
  }
  return { paths, definitions };
}
