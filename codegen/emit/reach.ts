// Reachability over the shared namespace of named schemas: the names a
// schema refers to, and the closure from a set of roots. Used by every
// emitter that must include "all referenced schemas". No I/O.
import type { Model, OpenAPISchema } from '../model/types.ts';
import { isObject, refName } from '../load/schema-util.ts';
import { gvksOf } from '../load/index.ts';
import type { SchemaIndex } from '../../runtime/schema/openapi-paths.ts';

/** Names referenced by a schema, visiting only schema positions (a property named `default` is still a schema). */
export function refsOf(node: unknown, out: Set<string> = new Set()): Set<string> {
  if (!isObject(node)) return out;
  const n = refName(node);
  if (n !== undefined) out.add(n);
  if (isObject(node.properties)) for (const v of Object.values(node.properties)) refsOf(v, out);
  if (isObject(node.items)) refsOf(node.items, out);
  if (isObject(node.additionalProperties)) refsOf(node.additionalProperties, out);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(node[k])) for (const v of node[k] as unknown[]) refsOf(v, out);
  if (isObject(node.not)) refsOf(node.not, out);
  return out;
}

export function closure(model: Model, roots: Iterable<string>): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    const s = model.schemas.get(n);
    if (!s) continue;
    seen.add(n);
    for (const r of refsOf(s.schema)) if (!seen.has(r)) stack.push(r);
  }
  return [...seen].sort();
}

/** The schema name declaring group/version/kind with exactly that one GVK, if any. */
export function schemaForGvk(model: Model, group: string, version: string, kind: string): string | undefined {
  for (const [name, s] of model.schemas) {
    const gs = gvksOf(s.schema as OpenAPISchema);
    if (gs.length === 1 && gs[0].group === group && gs[0].version === version && gs[0].kind === kind) return name;
  }
  return undefined;
}

/** The model as the OpenAPI path builder (runtime/schema/openapi-paths.ts) looks schemas up. */
export function modelIndex(model: Model): SchemaIndex {
  return { has: (n) => model.schemas.has(n), forGvk: (g, v, k) => schemaForGvk(model, g, v, k) };
}

/** Schema names a group-version needs: its kinds, their lists, subresource kinds, and everything they reference. */
export function rootsOfResources(model: Model, resources: Model['resources']): string[] {
  const roots = new Set<string>();
  for (const r of resources) {
    roots.add(r.schema);
    const list = schemaForGvk(model, r.group, r.version, r.listKind);
    if (list) roots.add(list);
    for (const s of r.subresources) {
      const sub = schemaForGvk(model, s.group ?? r.group, s.version ?? r.version, s.kind);
      if (sub) roots.add(sub);
    }
  }
  return [...roots].sort();
}

/** Names of schemas defined in api-specs/meta/. */
export function metaSchemas(model: Model): string[] {
  return [...model.schemas.values()]
    .filter((s) => s.file.startsWith('meta/'))
    .map((s) => s.name)
    .sort();
}
