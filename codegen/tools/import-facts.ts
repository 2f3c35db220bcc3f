// One-off import tool, run by hand: reads the upstream 1.31 reference swagger
// (OpenAPI v2) and writes api-specs/ from its FACTS only: schema names, types,
// formats, required lists, items, additionalProperties and x-kubernetes-*
// markers (never upstream descriptions), and the verbs and subresources each
// resource's paths offer. Everything hand-authored (kinds to cover, our own
// one-line kind descriptions, short names, printer columns ...) comes from
// catalogue.ts. After a run, api-specs/ is the project's source of truth: the
// build and the tests never run this tool.
//
//   npx tsx codegen/tools/import-facts.ts [path/to/swagger-v1.31.json] [outDir]
//
// Defaults: $SPECSERVER_REFERENCE_DIR or ../shared/reference for the swagger,
// api-specs/ for the output. It rewrites every file it owns in outDir.

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogue, extraKindDescriptions, type GroupVersionEntry, type KindEntry } from './catalogue.ts';
import { metaExtras } from './meta-extras.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };
interface Gvk { group: string; version: string; kind: string }

const VERB_ORDER = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const ACTION_VERB: Record<string, string> = {
  get: 'get', list: 'list', watch: 'watch', watchlist: 'watch', post: 'create', put: 'update',
  patch: 'patch', delete: 'delete', deletecollection: 'deletecollection',
};
/** Connect actions (exec, proxy, ...) become verbs by their HTTP method. */
const CONNECT_METHOD_VERB: Record<string, string> = {
  get: 'get', post: 'create', put: 'update', patch: 'patch', delete: 'delete',
};
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

// ---------------------------------------------------------------------------
// Paths: which resource each operation belongs to
// ---------------------------------------------------------------------------

export interface PathOp {
  path: string; method: string; action: string; gvk: Gvk;
  group: string; version: string; plural: string; namespaced: boolean; subresource?: string;
}

/** Splits a resource path into group, version, plural, scope and subresource. */
export function parseResourcePath(path: string): Omit<PathOp, 'path' | 'method' | 'action' | 'gvk'> | undefined {
  const parts = path.split('/').filter(Boolean);
  let group: string; let rest: string[];
  if (parts[0] === 'api') { group = ''; rest = parts.slice(2); }
  else if (parts[0] === 'apis') { group = parts[1]; rest = parts.slice(3); }
  else return undefined;
  const version = parts[0] === 'api' ? parts[1] : parts[2];
  if (rest[0] === 'watch') rest = rest.slice(1);
  let namespaced = false;
  if (rest[0] === 'namespaces' && rest[1] === '{namespace}' && rest.length > 2) { namespaced = true; rest = rest.slice(2); }
  if (rest.length === 0) return undefined;
  const plural = rest[0];
  const subresource = rest.length >= 3 && rest[1] === '{name}' ? rest[2] : undefined;
  return { group, version, plural, namespaced, subresource };
}

export function collectOps(swagger: Obj): PathOp[] {
  const ops: PathOp[] = [];
  for (const [path, item] of Object.entries(swagger.paths as Obj)) {
    const parsed = parseResourcePath(path);
    if (!parsed) continue;
    for (const method of HTTP_METHODS) {
      const op = (item as Obj)[method] as Obj | undefined;
      if (!op || !op['x-kubernetes-action'] || !op['x-kubernetes-group-version-kind']) continue;
      ops.push({ path, method, action: op['x-kubernetes-action'] as string, gvk: op['x-kubernetes-group-version-kind'] as unknown as Gvk, ...parsed });
    }
  }
  return ops;
}

function verbOf(op: PathOp): string | undefined {
  if (op.action === 'connect') return CONNECT_METHOD_VERB[op.method];
  return ACTION_VERB[op.action];
}

const sortVerbs = (verbs: Iterable<string>) => [...new Set(verbs)].sort((a, b) => VERB_ORDER.indexOf(a) - VERB_ORDER.indexOf(b));

export interface ResourceFacts {
  kind: string; plural: string; namespaced: boolean; verbs: string[];
  subresources: { name: string; kind: string; group?: string; version?: string; verbs: string[] }[];
}

/** The resource serving `kind` in group/version, with its verbs and subresources, from the paths. */
export function resourceFacts(ops: PathOp[], group: string, version: string, kind: string): ResourceFacts {
  const main = ops.filter((o) => o.group === group && o.version === version && !o.subresource
    && o.gvk.kind === kind && o.gvk.group === group && o.gvk.version === version);
  const plurals = [...new Set(main.map((o) => o.plural))];
  if (plurals.length !== 1) throw new Error(`${group}/${version} ${kind}: expected one plural, found ${plurals.join(',') || 'none'}`);
  const plural = plurals[0];
  const mine = ops.filter((o) => o.group === group && o.version === version && o.plural === plural);
  const subs = new Map<string, { gvk: Gvk; verbs: string[] }>();
  for (const o of mine.filter((x) => x.subresource)) {
    const v = verbOf(o);
    const s = subs.get(o.subresource!) ?? { gvk: o.gvk, verbs: [] };
    if (v) s.verbs.push(v);
    subs.set(o.subresource!, s);
  }
  return {
    kind, plural,
    namespaced: main.some((o) => o.namespaced),
    verbs: sortVerbs(main.map(verbOf).filter((v): v is string => !!v)),
    subresources: [...subs.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, s]) => {
      const sub: ResourceFacts['subresources'][number] = { name, kind: s.gvk.kind, verbs: sortVerbs(s.verbs) };
      if (s.gvk.group !== group || s.gvk.version !== version) { sub.group = s.gvk.group; sub.version = s.gvk.version; }
      return sub;
    }),
  };
}

// ---------------------------------------------------------------------------
// Schemas: facts only, v3 shape
// ---------------------------------------------------------------------------

const V2_PREFIX = '#/definitions/';
const V3_PREFIX = '#/components/schemas/';

/** Sorts object keys recursively so files diff well. */
export function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Obj = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys(value[k]);
    return out;
  }
  return value;
}

/** A v2 schema's facts as a v3 schema: no descriptions, v3 refs, `allOf` when a $ref has siblings. */
export function toV3Facts(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(toV3Facts);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'description') continue;
    if (k === 'properties') {
      const props: Obj = {};
      for (const [pn, pv] of Object.entries(v as Obj)) props[pn] = toV3Facts(pv);
      out[k] = props;
    } else if (k === '$ref') out[k] = (v as string).replace(V2_PREFIX, V3_PREFIX);
    else if (k === 'x-kubernetes-group-version-kind' || k === 'required' || k === 'enum' || k === 'x-kubernetes-list-map-keys') out[k] = v;
    else out[k] = toV3Facts(v);
  }
  if ('$ref' in out && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    return { allOf: [{ $ref }], ...rest };
  }
  return out;
}

/** Every schema name a schema refers to. */
export function refsOf(schema: Json, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((s) => refsOf(s, into));
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string') into.add(v.replace(V2_PREFIX, '').replace(V3_PREFIX, ''));
      else refsOf(v, into);
    }
  }
  return into;
}

export function closure(defs: Obj, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const n = queue.pop()!;
    if (seen.has(n)) continue;
    if (!defs[n]) throw new Error(`missing definition ${n}`);
    seen.add(n);
    for (const r of refsOf(defs[n])) queue.push(r);
  }
  return seen;
}

/** The definition whose only GVK is exactly this one. */
export function schemaForKind(defs: Obj, gvk: Gvk): string {
  const name = findSchemaForKind(defs, gvk);
  if (!name) throw new Error(`${gvk.group}/${gvk.version} ${gvk.kind}: no schema`);
  return name;
}

export function findSchemaForKind(defs: Obj, gvk: Gvk): string | undefined {
  const hits = Object.entries(defs).filter(([, d]) => {
    const list = (d as Obj)['x-kubernetes-group-version-kind'] as unknown as Gvk[] | undefined;
    return list?.length === 1 && list[0].group === gvk.group && list[0].version === gvk.version && list[0].kind === gvk.kind;
  });
  if (hits.length > 1) throw new Error(`${gvk.group}/${gvk.version} ${gvk.kind}: ${hits.length} schemas`);
  return hits[0]?.[0];
}

const packageOf = (name: string) => name.slice(0, name.lastIndexOf('.'));

/** Maps each schema package to the group-version its kinds declare. */
export function packageGroupVersions(defs: Obj): Map<string, { group: string; version: string }> {
  const map = new Map<string, { group: string; version: string }>();
  for (const [name, d] of Object.entries(defs)) {
    if (name.startsWith('io.k8s.apimachinery.')) continue;
    const list = (d as Obj)['x-kubernetes-group-version-kind'] as unknown as Gvk[] | undefined;
    if (list?.length === 1) map.set(packageOf(name), { group: list[0].group, version: list[0].version });
  }
  return map;
}

export const fileStem = (group: string, version: string) => `${group || 'core'}_${version}`;

// ---------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------

function kindDescription(name: string, kinds: Map<string, KindEntry>): string | undefined {
  if (extraKindDescriptions[name]) return extraKindDescriptions[name];
  const last = name.slice(name.lastIndexOf('.') + 1);
  const k = kinds.get(last);
  if (k) return k.description;
  if (last.endsWith('List') && kinds.get(last.slice(0, -4))) return `A list of ${last.slice(0, -4)} objects.`;
  return undefined;
}

function schemasDoc(defs: Obj, names: Iterable<string>, kinds: Map<string, KindEntry>): Obj {
  const out: Obj = {};
  for (const n of [...names].sort()) {
    const s = toV3Facts(defs[n]) as Obj;
    const desc = kindDescription(n, kinds);
    if (desc) s.description = desc;
    out[n] = sortKeys(s);
  }
  return out;
}

function declaration(entry: KindEntry, facts: ResourceFacts): Obj {
  const d: Obj = {
    kind: entry.kind,
    plural: facts.plural,
    singular: entry.kind.toLowerCase(),
    scope: facts.namespaced ? 'Namespaced' : 'Cluster',
    verbs: facts.verbs,
    shortNames: entry.shortNames ?? [],
    categories: entry.categories ?? [],
    subresources: facts.subresources as unknown as Json,
    printerColumns: (entry.printerColumns ?? []) as unknown as Json,
    selectableFields: entry.selectableFields ?? [],
    allowCreateOnUpdate: entry.allowCreateOnUpdate ?? false,
    nameRule: entry.nameRule ?? 'subdomain',
    virtual: entry.virtual ?? false,
  };
  return d;
}

/** v2 parameter (after resolving #/parameters refs) as a v3 parameter, facts only. */
function v3Parameter(p: Obj, shared: Obj): Obj {
  const param = (p.$ref ? shared[(p.$ref as string).replace('#/parameters/', '')] : p) as Obj;
  const schema: Obj = { type: param.type as string };
  if (param.uniqueItems) schema.uniqueItems = true;
  const out: Obj = { in: param.in as string, name: param.name as string, schema };
  if (param.required) out.required = true;
  return out;
}

/** The v2 paths of one group-version rewritten the way kube-apiserver publishes them in v3. */
function v3Paths(swagger: Obj, group: string, version: string): Obj {
  const prefix = group ? `/apis/${group}/${version}/` : `/api/${version}/`;
  const shared = swagger.parameters as Obj;
  const out: Obj = {};
  for (const [path, item] of Object.entries(swagger.paths as Obj)) {
    if (!path.startsWith(prefix)) continue;
    const pi = item as Obj;
    const np: Obj = {};
    for (const method of HTTP_METHODS) {
      const op = pi[method] as Obj | undefined;
      if (!op) continue;
      const params = (op.parameters as Obj[] | undefined) ?? [];
      const resolved = params.map((p) => (p.$ref ? shared[(p.$ref as string).replace('#/parameters/', '')] as Obj : p));
      const body = resolved.find((p) => p.in === 'body');
      const nop: Obj = { operationId: op.operationId as string, tags: op.tags as Json };
      const rest = params.filter((_, i) => resolved[i].in !== 'body').map((p) => v3Parameter(p, shared));
      if (rest.length) nop.parameters = rest;
      // As published in v3: one JSON body whatever the accepted patch types; no 401 entries.
      if (body) nop.requestBody = { content: { 'application/json': { schema: toV3Facts((body as Obj).schema) } } };
      const responses: Obj = {};
      for (const [code, r] of Object.entries(op.responses as Obj)) {
        if (code === '401') continue;
        const resp: Obj = { description: (r as Obj).description as string };
        if ((r as Obj).schema) {
          const content: Obj = {};
          for (const mime of op.produces as string[]) content[mime] = { schema: toV3Facts((r as Obj).schema) };
          resp.content = content;
        }
        responses[code] = resp;
      }
      nop.responses = responses;
      if (op['x-kubernetes-action']) nop['x-kubernetes-action'] = op['x-kubernetes-action'];
      if (op['x-kubernetes-group-version-kind']) nop['x-kubernetes-group-version-kind'] = op['x-kubernetes-group-version-kind'];
      np[method] = nop;
    }
    if (pi.parameters) np.parameters = (pi.parameters as Obj[]).map((p) => v3Parameter(p, shared));
    out[path] = sortKeys(np);
  }
  return out;
}

const info = (title: string): Obj => ({ title, version: '1.31' });

export function buildTree(swagger: Obj): Map<string, Obj> {
  const defs = { ...(swagger.definitions as Obj), ...metaExtras } as Obj;
  const ops = collectOps(swagger);
  const pkgGv = packageGroupVersions(defs);
  const files = new Map<string, Obj>();

  // Every group-version's roots: its kinds, their lists, and their subresource kinds.
  const owned = new Map<string, Set<string>>(); // file stem -> schema names it defines
  const allKinds = new Map<string, KindEntry>();
  const gvRoots = new Map<GroupVersionEntry, Set<string>>();
  const gvFacts = new Map<GroupVersionEntry, { entry: KindEntry; facts: ResourceFacts }[]>();
  for (const gv of catalogue) {
    const roots = new Set<string>();
    const facts: { entry: KindEntry; facts: ResourceFacts }[] = [];
    for (const k of gv.kinds) {
      allKinds.set(k.kind, k);
      const f = resourceFacts(ops, gv.group, gv.version, k.kind);
      facts.push({ entry: k, facts: f });
      roots.add(schemaForKind(defs, { group: gv.group, version: gv.version, kind: k.kind }));
      if (!k.virtual) roots.add(schemaForKind(defs, { group: gv.group, version: gv.version, kind: `${k.kind}List` }));
      for (const s of f.subresources) {
        const g = s.group ?? gv.group; const v = s.version ?? gv.version;
        // Connect options kinds (PodExecOptions ...) have no published schema.
        if (s.kind !== k.kind || g !== gv.group || v !== gv.version) {
          const name = findSchemaForKind(defs, { group: g, version: v, kind: s.kind });
          if (name) roots.add(name);
        }
      }
    }
    gvRoots.set(gv, roots);
    gvFacts.set(gv, facts);
  }

  // Assign each reachable schema to the document of its own group-version (or meta).
  const reachable = closure(defs, [...gvRoots.values()].flatMap((s) => [...s]));
  for (const n of Object.keys(defs)) if (n.startsWith('io.k8s.apimachinery.')) reachable.add(n);
  const ownerOf = (name: string): string => {
    if (name.startsWith('io.k8s.apimachinery.')) {
      const pkg = packageOf(name).replace('io.k8s.apimachinery.pkg.', '').replace('apis.', '').replace(/\./g, '_');
      return `meta/${pkg}`;
    }
    const gv = pkgGv.get(packageOf(name));
    if (!gv) throw new Error(`no group-version for ${name}`);
    const stem = fileStem(gv.group, gv.version);
    return catalogue.some((c) => fileStem(c.group, c.version) === stem && !c.upstreamShape) ? stem : `meta/${stem}`;
  };
  for (const n of reachable) {
    const o = ownerOf(n);
    if (!owned.has(o)) owned.set(o, new Set());
    owned.get(o)!.add(n);
  }
  // The upstream-shaped document repeats what it uses, as upstream does.
  const upstreamSchemas = new Map<GroupVersionEntry, Set<string>>();
  for (const gv of catalogue.filter((c) => c.upstreamShape)) {
    const paths = v3Paths(swagger, gv.group, gv.version);
    upstreamSchemas.set(gv, closure(defs, [...gvRoots.get(gv)!, ...refsOf(paths)]));
    for (const n of upstreamSchemas.get(gv)!) owned.get(ownerOf(n))?.delete(n);
  }
  // ... but types others also use still live in their own documents.
  for (const gv of catalogue.filter((c) => !c.upstreamShape)) {
    for (const n of closure(defs, gvRoots.get(gv)!)) owned.get(ownerOf(n))!.add(n);
  }
  for (const n of Object.keys(defs)) if (n.startsWith('io.k8s.apimachinery.')) owned.get(ownerOf(n))!.add(n);

  for (const [stem, names] of owned) {
    if (!names.size) continue;
    const gv = catalogue.find((c) => fileStem(c.group, c.version) === stem);
    const doc: Obj = { openapi: '3.0.0', info: info(`specserver ${stem.replace('meta/', 'shared types ')}`) };
    if (gv?.settings) doc['x-specserver-group-version'] = { group: gv.group, version: gv.version, ...gv.settings };
    doc.paths = {};
    if (gv) doc['x-specserver-resources'] = gvFacts.get(gv)!.map(({ entry, facts }) => declaration(entry, facts));
    doc.components = { schemas: schemasDoc(defs, names, allKinds) };
    files.set(`${stem}.json`, doc);
  }
  for (const [gv, names] of upstreamSchemas) {
    const stem = fileStem(gv.group, gv.version);
    const doc: Obj = {
      openapi: '3.0.0', info: info(`specserver ${stem}`),
      paths: v3Paths(swagger, gv.group, gv.version),
      components: { schemas: schemasDoc(defs, names, allKinds) },
    };
    files.set(`${stem}.json`, doc);
  }
  return files;
}

function main(): void {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = resolve(here, '../..');
  const refDir = process.env.SPECSERVER_REFERENCE_DIR ?? resolve(root, '../shared/reference');
  const swaggerPath = process.argv[2] ?? join(refDir, 'openapi/swagger-v1.31.json');
  const outDir = process.argv[3] ?? join(root, 'api-specs');
  const swagger = JSON.parse(readFileSync(swaggerPath, 'utf8')) as Obj;
  const files = buildTree(swagger);
  for (const [rel, doc] of files) {
    const p = join(outDir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, JSON.stringify(doc, null, 2) + '\n');
  }
  console.log(`wrote ${files.size} documents to ${outDir}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
