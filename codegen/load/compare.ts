// Decides whether two definitions of one schema name (in different spec
// files) agree. Upstream documents carry their own copies of shared types,
// written with implied markers and from slightly different releases, so the
// comparison is semantic: effective list/map relationships (implied list
// types made explicit), types, formats, references and markers of the
// fields both define must agree; prose, defaults, enums and fields only one
// side has may differ. Returns the JSON path of the first disagreement.
import type { OpenAPISchema } from '../model/types.ts';
import { jp } from './errors.ts';
import { isObject, properties, refName, schemaType } from './schema-util.ts';

const IGNORED = new Set(['description', 'default', 'enum', 'example', 'externalDocs', 'x-kubernetes-group-version-kind', 'properties', 'items', 'additionalProperties', 'allOf', '$ref', 'required']);

function isScalarItems(items: unknown): boolean {
  if (!isObject(items) || refName(items) !== undefined) return false;
  const t = schemaType(items);
  return t === 'string' || t === 'integer' || t === 'number' || t === 'boolean';
}

/** The node's own keywords (no sub-schemas), with the effective list type made explicit. */
function shallow(node: OpenAPISchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(node).sort()) if (!IGNORED.has(k)) out[k] = node[k];
  const ref = refName(node);
  if (ref !== undefined) out.$ref = ref;
  if (schemaType(node) === 'array') {
    if (out['x-kubernetes-list-type'] === undefined) {
      const merge = String(node['x-kubernetes-patch-strategy'] ?? '')
        .split(',')
        .includes('merge');
      if (merge && isScalarItems(node.items)) out['x-kubernetes-list-type'] = 'set';
      else if (merge && typeof node['x-kubernetes-patch-merge-key'] === 'string') {
        out['x-kubernetes-list-type'] = 'map';
        out['x-kubernetes-list-map-keys'] = [node['x-kubernetes-patch-merge-key']];
      } else out['x-kubernetes-list-type'] = 'atomic';
    }
  } else {
    delete out['x-kubernetes-list-type'];
  }
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((k) => [k, out[k]]),
  );
}

export function schemaConflict(a: OpenAPISchema, b: OpenAPISchema, path = '$'): string | null {
  if (JSON.stringify(shallow(a)) !== JSON.stringify(shallow(b))) return path;
  const pa = properties(a);
  const pb = properties(b);
  for (const k of Object.keys(pa).sort()) {
    if (!(k in pb)) continue;
    const c = schemaConflict(pa[k], pb[k], jp(jp(path, 'properties'), k));
    if (c) return c;
  }
  for (const k of ['items', 'additionalProperties'] as const) {
    const x = a[k];
    const y = b[k];
    if (isObject(x) && isObject(y)) {
      const c = schemaConflict(x, y, jp(path, k));
      if (c) return c;
    } else if (isObject(x) !== isObject(y) || (!isObject(x) && x !== y)) return jp(path, k);
  }
  return null;
}
