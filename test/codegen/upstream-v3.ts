// Builds an OpenAPI v3 document of one built-in group-version in the shape
// kube-apiserver publishes at /openapi/v3/apis/<group>/<version>, from the
// reference data: the paths and definitions of the v2 swagger of the release
// (definitions converted to components.schemas with every type the paths
// reach, a `$ref` with sibling keywords wrapped in a one-element allOf, and
// upstream's `default: {}` on the metadata fields), and, for schema names the
// reference's own v3 document holds, that document's text as published (its
// ObjectMeta carries the removed clusterName and `default: {}` on
// creationTimestamp). Used by the drop-in tests to stand for documents a
// user would download from a cluster.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, unknown>;

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const DEF = '#/definitions/';
const SCHEMA = '#/components/schemas/';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

export interface Reference {
  swagger: { paths: Record<string, Json>; definitions: Record<string, Json>; parameters?: Record<string, Json> };
  v3: { components: { schemas: Record<string, Json> } };
}

export function readReference(referenceDir: string): Reference {
  return {
    swagger: JSON.parse(readFileSync(join(referenceDir, 'openapi', 'swagger-v1.31.json'), 'utf8')),
    v3: JSON.parse(readFileSync(join(referenceDir, 'openapi', 'v3', 'apis__node.k8s.io__v1_openapi.json'), 'utf8')),
  };
}

/** A v2 schema as v3: references renamed, a reference with siblings wrapped in allOf, metadata defaulted to {} as upstream's v3 documents write it. */
function schemaV3(node: unknown, field?: string): unknown {
  if (Array.isArray(node)) return node.map((n) => schemaV3(n));
  if (!isJson(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref') continue;
    if (k === 'properties' && isJson(v)) out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, schemaV3(s, p)]));
    else if (k === 'items' || k === 'additionalProperties' || k === 'allOf' || k === 'anyOf' || k === 'oneOf' || k === 'not') out[k] = schemaV3(v);
    else out[k] = v;
  }
  if (typeof node.$ref === 'string') {
    const ref = SCHEMA + node.$ref.slice(DEF.length);
    if (field === 'metadata' && (ref.endsWith('.ObjectMeta') || ref.endsWith('.ListMeta'))) out.default = {};
    if (Object.keys(out).length === 0) return { $ref: ref };
    return { allOf: [{ $ref: ref }], ...out };
  }
  return out;
}

function refsIn(node: unknown, out: Set<string>): void {
  if (Array.isArray(node)) for (const n of node) refsIn(n, out);
  else if (isJson(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(SCHEMA)) out.add(v.slice(SCHEMA.length));
      else refsIn(v, out);
    }
  }
}

function parameterV3(p: Json, ref: Reference): Json {
  const q = typeof p.$ref === 'string' ? ref.swagger.parameters![(p.$ref as string).split('/').pop()!] : p;
  const { type, uniqueItems, ...rest } = q;
  return { ...rest, schema: { type, uniqueItems } };
}

function operationV3(op: Json, ref: Reference): Json {
  const out: Json = {};
  for (const k of ['description', 'operationId', 'tags', 'x-kubernetes-action', 'x-kubernetes-group-version-kind']) if (op[k] !== undefined) out[k] = op[k];
  const params = ((op.parameters as Json[] | undefined) ?? []).map((p) => (typeof p.$ref === 'string' ? ref.swagger.parameters![(p.$ref as string).split('/').pop()!] : p));
  const body = params.find((p) => p.in === 'body');
  const rest = params.filter((p) => p.in !== 'body').map((p) => parameterV3(p, ref));
  if (rest.length > 0) out.parameters = rest;
  const consumes = (op.consumes as string[] | undefined) ?? ['*/*'];
  if (body) out.requestBody = { content: Object.fromEntries(consumes.map((m) => [m, { schema: schemaV3(body.schema) }])), required: body.required === true };
  const produces = (op.produces as string[] | undefined) ?? ['application/json'];
  const responses: Json = {};
  for (const [code, r] of Object.entries((op.responses as Record<string, Json>) ?? {})) {
    responses[code] = r.schema === undefined ? { description: r.description } : { description: r.description, content: Object.fromEntries(produces.map((m) => [m, { schema: schemaV3(r.schema) }])) };
  }
  out.responses = responses;
  return out;
}

/** The v3 document of `group`/`version` ('' for the core group). */
export function upstreamV3Document(ref: Reference, group: string, version: string): Json {
  const prefix = group === '' ? `/api/${version}/` : `/apis/${group}/${version}/`;
  const paths: Json = {};
  for (const [path, item] of Object.entries(ref.swagger.paths)) {
    if (!path.startsWith(prefix)) continue;
    const out: Json = {};
    for (const [k, v] of Object.entries(item)) {
      if (k === 'parameters') out.parameters = (v as Json[]).map((p) => parameterV3(p, ref));
      else if (isJson(v)) out[k] = operationV3(v, ref);
    }
    paths[path] = out;
  }
  const names = new Set<string>();
  refsIn(paths, names);
  // the group-version's kinds, and what everything reaches
  for (const [name, def] of Object.entries(ref.swagger.definitions)) {
    const gvks = def['x-kubernetes-group-version-kind'];
    if (Array.isArray(gvks) && gvks.length === 1 && (gvks[0] as Json).group === group && (gvks[0] as Json).version === version) names.add(name);
  }
  // kube-apiserver's documents always carry the meta types of its responses
  for (const m of ['Status', 'DeleteOptions', 'WatchEvent', 'Patch']) names.add(META + m);
  const schemas: Record<string, unknown> = {};
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (schemas[name] !== undefined) continue;
    const s = ref.v3.components.schemas[name] ?? schemaV3(ref.swagger.definitions[name]);
    if (s === undefined) throw new Error(`no definition of ${name}`);
    schemas[name] = s;
    const more = new Set<string>();
    refsIn(s, more);
    for (const m of more) if (schemas[m] === undefined) queue.push(m);
  }
  const sorted = Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((k) => [k, schemas[k]]),
  );
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'unversioned' }, paths, components: { schemas: sorted } };
}
