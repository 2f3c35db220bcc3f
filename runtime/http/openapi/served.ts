// Cuts the generated OpenAPI documents down to what the server serves: the
// generated v2 document describes every group-version codegen knows, and
// each v3 document a whole group-version; --runtime-config decides which
// group-versions and resources are served, and the documents must describe
// exactly those (upstream builds them from the installed routes). A path is
// kept when its group, version and resource are served; definitions are the
// closure of what the kept paths reference.

/** A served group, version and resource (`resource` is the plural). */
export interface ServedResource {
  group: string;
  version: string;
  resource: string;
}

export interface ServedSet {
  /** `group/version/resource` of every served resource. */
  resources: Set<string>;
  /** `group/version` of every group-version with a served resource. */
  groupVersions: Set<string>;
}

export function servedSet(served: readonly ServedResource[]): ServedSet {
  const resources = new Set<string>();
  const groupVersions = new Set<string>();
  for (const r of served) {
    resources.add(`${r.group}/${r.version}/${r.resource}`);
    groupVersions.add(`${r.group}/${r.version}`);
  }
  return { resources, groupVersions };
}

/** What an API path names: its group-version and, below the group-version, its resource. */
export interface PathTarget {
  group: string;
  version: string;
  /** Undefined for the group-version's own path (`/apis/apps/v1/`). */
  resource?: string;
}

/** `/api/v1/namespaces/{namespace}/pods/{name}/status` -> core v1 pods; undefined for paths outside /api and /apis/<group>/<version>. */
export function pathTarget(path: string): PathTarget | undefined {
  const segs = path.split('/').slice(1);
  let group: string;
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 2) {
    group = '';
    rest = segs.slice(1);
  } else if (segs[0] === 'apis' && segs.length >= 3) {
    group = segs[1];
    rest = segs.slice(2);
  } else return undefined;
  const version = rest[0];
  if (!version) return undefined;
  rest = rest.slice(1);
  if (rest[0] === 'watch') rest = rest.slice(1);
  if (rest[0] === 'namespaces' && rest[1] === '{namespace}' && rest.length > 2) rest = rest.slice(2);
  const resource = rest[0] ? rest[0] : undefined;
  return { group, version, resource };
}

/** Whether the served set serves a path (a group-version's own path counts when any of its resources is served). */
export function pathServed(path: string, set: ServedSet): boolean {
  const t = pathTarget(path);
  if (!t) return true;
  if (t.resource === undefined) return set.groupVersions.has(`${t.group}/${t.version}`);
  return set.resources.has(`${t.group}/${t.version}/${t.resource}`);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every `$ref` string anywhere below a node (paths and operations; no schema there has a property named `$ref`). */
function allRefs(node: unknown, out: string[]): void {
  if (Array.isArray(node)) for (const x of node) allRefs(x, out);
  else if (isObject(node))
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else allRefs(v, out);
    }
}

/** The `$ref`s of a schema, in schema positions only (a property named `default` is still a schema; examples and defaults are not). */
function schemaRefs(node: unknown, out: string[]): void {
  if (!isObject(node)) return;
  if (typeof node.$ref === 'string') out.push(node.$ref);
  if (isObject(node.properties)) for (const v of Object.values(node.properties)) schemaRefs(v, out);
  if (isObject(node.items)) schemaRefs(node.items, out);
  if (isObject(node.additionalProperties)) schemaRefs(node.additionalProperties, out);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(node[k])) for (const v of node[k] as unknown[]) schemaRefs(v, out);
  if (isObject(node.not)) schemaRefs(node.not, out);
}

/** Named schemas reachable from the paths, in the order of `schemas` (its keys are sorted by codegen). */
function reachable(paths: Json, schemas: Json, prefix: string): Json {
  const seen = new Set<string>();
  const stack: string[] = [];
  const push = (refs: string[]) => {
    for (const r of refs) if (r.startsWith(prefix)) stack.push(r.slice(prefix.length));
  };
  const roots: string[] = [];
  allRefs(paths, roots);
  push(roots);
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n) || !(n in schemas)) continue;
    seen.add(n);
    const refs: string[] = [];
    schemaRefs(schemas[n], refs);
    push(refs);
  }
  const out: Json = {};
  for (const [n, s] of Object.entries(schemas)) if (seen.has(n)) out[n] = s;
  return out;
}

function keptPaths(paths: Json, set: ServedSet): Json {
  const out: Json = {};
  for (const [p, item] of Object.entries(paths)) if (pathServed(p, set)) out[p] = item;
  return out;
}

/** The v2 (swagger) document of the served set: served paths and the definitions they reach; other keys as they are. */
export function servedV2(doc: Json, set: ServedSet): Json {
  const paths = keptPaths(isObject(doc.paths) ? doc.paths : {}, set);
  const definitions = reachable(paths, isObject(doc.definitions) ? doc.definitions : {}, '#/definitions/');
  return { ...doc, definitions, paths };
}

/** A v3 document of one group-version cut to the served set: served paths and the component schemas they reach. */
export function servedV3(doc: Json, set: ServedSet): Json {
  const paths = keptPaths(isObject(doc.paths) ? doc.paths : {}, set);
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = reachable(paths, isObject(components.schemas) ? components.schemas : {}, '#/components/schemas/');
  return { ...doc, components: { ...components, schemas }, paths };
}
