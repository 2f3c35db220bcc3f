// Checks the x-kubernetes-* markers and references of every named schema:
// known marker values, list-map-keys only on list-type map lists, map keys
// that are scalar fields of the element, no dangling $ref. Throws a
// CodegenError naming the file and JSON path of the first problem.
import type { NamedSchema, OpenAPISchema } from '../model/types.ts';
import { CodegenError, jp } from './errors.ts';
import { isObject, properties, rawRef, refName, schemaType, REF_PREFIX } from './schema-util.ts';
import { isScalarSchema, resolveNode } from '../../runtime/schema/util.ts';

const LIST_TYPES = ['atomic', 'set', 'map'];
const MAP_TYPES = ['atomic', 'granular'];
const PATCH_STRATEGIES = ['merge', 'replace', 'retainKeys'];
const BOOLEAN_MARKERS = ['x-kubernetes-int-or-string', 'x-kubernetes-embedded-resource', 'x-kubernetes-preserve-unknown-fields'];

type Lookup = (name: string) => NamedSchema | undefined;

export { isScalarSchema, resolveNode };

export function checkNamedSchema(named: NamedSchema, lookup: Lookup): void {
  walk(named.schema, named.jsonPath, named.file, lookup);
}

function walk(node: OpenAPISchema, path: string, file: string, lookup: Lookup): void {
  const fail = (at: string, msg: string): never => {
    throw new CodegenError(file, at, msg);
  };
  const ref = rawRef(node);
  if (ref !== undefined) {
    if (!ref.startsWith(REF_PREFIX)) fail(jp(path, '$ref'), `unsupported reference ${JSON.stringify(ref)} (only ${REF_PREFIX}<name>)`);
    const name = refName(node)!;
    if (!lookup(name)) fail(jp(path, '$ref'), `dangling reference to ${JSON.stringify(name)}: no spec defines it`);
  }
  for (const m of BOOLEAN_MARKERS) {
    if (m in node && typeof node[m] !== 'boolean') fail(jp(path, m), `${m} must be a boolean, got ${JSON.stringify(node[m])}`);
  }
  const listType = node['x-kubernetes-list-type'];
  if (listType !== undefined && (typeof listType !== 'string' || !LIST_TYPES.includes(listType))) {
    fail(jp(path, 'x-kubernetes-list-type'), `unknown x-kubernetes-list-type ${JSON.stringify(listType)} (want one of ${LIST_TYPES.join(', ')})`);
  }
  const mapType = node['x-kubernetes-map-type'];
  if (mapType !== undefined && (typeof mapType !== 'string' || !MAP_TYPES.includes(mapType))) {
    fail(jp(path, 'x-kubernetes-map-type'), `unknown x-kubernetes-map-type ${JSON.stringify(mapType)} (want one of ${MAP_TYPES.join(', ')})`);
  }
  const strategy = node['x-kubernetes-patch-strategy'];
  if (strategy !== undefined) {
    const parts = typeof strategy === 'string' ? strategy.split(',') : [''];
    if (parts.some((p) => !PATCH_STRATEGIES.includes(p))) {
      fail(jp(path, 'x-kubernetes-patch-strategy'), `unknown x-kubernetes-patch-strategy ${JSON.stringify(strategy)} (want ${PATCH_STRATEGIES.join(', ')} or a comma-separated combination)`);
    }
  }
  const mergeKey = node['x-kubernetes-patch-merge-key'];
  if (mergeKey !== undefined && typeof mergeKey !== 'string') fail(jp(path, 'x-kubernetes-patch-merge-key'), 'x-kubernetes-patch-merge-key must be a string');
  const validations = node['x-kubernetes-validations'];
  if (validations !== undefined) {
    if (!Array.isArray(validations)) fail(jp(path, 'x-kubernetes-validations'), 'x-kubernetes-validations must be a list');
    (validations as unknown[]).forEach((v, i) => {
      if (!isObject(v) || typeof v.rule !== 'string') fail(jp(jp(path, 'x-kubernetes-validations'), i), 'a validation rule needs a string `rule`');
    });
  }
  const gvks = node['x-kubernetes-group-version-kind'];
  if (gvks !== undefined) {
    if (!Array.isArray(gvks)) fail(jp(path, 'x-kubernetes-group-version-kind'), 'x-kubernetes-group-version-kind must be a list');
    (gvks as unknown[]).forEach((g, i) => {
      if (!isObject(g) || typeof g.group !== 'string' || typeof g.version !== 'string' || typeof g.kind !== 'string') {
        fail(jp(jp(path, 'x-kubernetes-group-version-kind'), i), 'each entry needs string group, version and kind');
      }
    });
  }
  const keys = node['x-kubernetes-list-map-keys'];
  if (keys !== undefined) {
    const at = jp(path, 'x-kubernetes-list-map-keys');
    if (!Array.isArray(keys) || keys.length === 0 || keys.some((k) => typeof k !== 'string')) fail(at, 'x-kubernetes-list-map-keys must be a non-empty list of field names');
    if (schemaType(node) !== 'array') fail(at, 'x-kubernetes-list-map-keys on a schema that is not a list');
    if (listType !== 'map') fail(at, `x-kubernetes-list-map-keys on a list whose x-kubernetes-list-type is ${JSON.stringify(listType ?? 'atomic')}, not "map"`);
    const items = isObject(node.items) ? resolveNode(node.items, lookup) : {};
    const props = properties(items);
    for (const k of keys as string[]) {
      if (!(k in props)) fail(at, `map key ${JSON.stringify(k)} is not a field of the list's elements`);
      if (!isScalarSchema(props[k], lookup)) fail(at, `map key ${JSON.stringify(k)} is not a scalar field (map keys must be string, integer, number or boolean)`);
    }
  }
  if (listType === 'map' && schemaType(node) === 'array') {
    const at = jp(path, 'x-kubernetes-list-type');
    if (keys === undefined && typeof mergeKey !== 'string') fail(at, 'x-kubernetes-list-type map needs x-kubernetes-list-map-keys');
    const items = isObject(node.items) ? resolveNode(node.items, lookup) : {};
    if (schemaType(items) !== 'object' && !isObject(items.properties)) fail(at, 'x-kubernetes-list-type map on a list whose elements are not objects');
  }
  if (listType === 'set' && schemaType(node) === 'array' && isObject(node.items) && !isScalarSchema(node.items, lookup)) {
    const items = resolveNode(node.items, lookup);
    if (items['x-kubernetes-map-type'] !== 'atomic' && (isObject(items.properties) || schemaType(items) === 'array')) {
      fail(jp(path, 'x-kubernetes-list-type'), 'x-kubernetes-list-type set needs scalar (or atomic) elements');
    }
  }
  // Recurse into sub-schemas.
  for (const [k, v] of Object.entries(properties(node))) walk(v, jp(jp(path, 'properties'), k), file, lookup);
  if (isObject(node.items)) walk(node.items, jp(path, 'items'), file, lookup);
  if (isObject(node.additionalProperties)) walk(node.additionalProperties, jp(path, 'additionalProperties'), file, lookup);
  for (const comb of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[comb];
    if (Array.isArray(list))
      list.forEach((s, i) => {
        if (isObject(s) && refName(node) === undefined) walk(s, jp(jp(path, comb), i), file, lookup);
      });
  }
  if (isObject(node.not)) walk(node.not, jp(path, 'not'), file, lookup);
}
