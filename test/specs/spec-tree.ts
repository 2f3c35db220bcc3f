// Test helpers over plain JSON: load every document under api-specs/, list the
// resources they declare (compact declarations and upstream-shaped paths),
// and read any swagger/OpenAPI `paths` object into resources with verbs and
// subresources. Independent of codegen on purpose: the specs tests check the
// files, not the code that reads them.

import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Schema } from './schema-compare.ts';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const specsDir = join(projectRoot, 'api-specs');

export function referenceDir(): string | undefined {
  const dir = process.env.SPECSERVER_REFERENCE_DIR ?? resolve(projectRoot, '../shared/reference');
  return existsSync(join(dir, 'openapi/swagger-v1.31.json')) ? dir : undefined;
}

export interface SpecDoc {
  file: string;
  doc: Record<string, any>;
}

export function loadSpecs(dir = specsDir): SpecDoc[] {
  const out: SpecDoc[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.json')) out.push({ file: relative(dir, p), doc: JSON.parse(readFileSync(p, 'utf8')) });
    }
  };
  walk(dir);
  return out;
}

export interface Subresource {
  name: string;
  kind: string;
  group: string;
  version: string;
  verbs: string[];
}
export interface Resource {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  verbs: string[];
  subresources: Subresource[];
  file?: string;
}

const ACTIONS: Record<string, string> = {
  get: 'get',
  list: 'list',
  watch: 'watch',
  watchlist: 'watch',
  post: 'create',
  put: 'update',
  patch: 'patch',
  delete: 'delete',
  deletecollection: 'deletecollection',
};
const METHOD_VERB: Record<string, string> = { get: 'get', post: 'create', put: 'update', patch: 'patch', delete: 'delete' };
const sorted = (s: Iterable<string>) => [...new Set(s)].sort();

/** Resources named by a `paths` object (v2 or v3 shape: both carry the action and GVK markers). */
export function resourcesFromPaths(paths: Record<string, any>): Resource[] {
  const byKey = new Map<string, { r: Resource; subs: Map<string, Subresource> }>();
  const ops: { seg: { group: string; version: string; plural: string; namespaced: boolean; sub?: string }; verb: string; gvk: any }[] = [];
  for (const [path, item] of Object.entries(paths)) {
    const p = path.split('/').filter(Boolean);
    let group: string;
    let version: string;
    let rest: string[];
    if (p[0] === 'api') {
      group = '';
      version = p[1];
      rest = p.slice(2);
    } else if (p[0] === 'apis') {
      group = p[1];
      version = p[2];
      rest = p.slice(3);
    } else continue;
    if (rest[0] === 'watch') rest = rest.slice(1);
    let namespaced = false;
    if (rest[0] === 'namespaces' && rest[1] === '{namespace}' && rest.length > 2) {
      namespaced = true;
      rest = rest.slice(2);
    }
    if (!rest.length) continue;
    const sub = rest[1] === '{name}' && rest.length >= 3 ? rest[2] : undefined;
    for (const [method, op] of Object.entries(item as Record<string, any>)) {
      if (!op || typeof op !== 'object' || !op['x-kubernetes-action'] || !op['x-kubernetes-group-version-kind']) continue;
      const action = op['x-kubernetes-action'];
      const verb = action === 'connect' ? METHOD_VERB[method] : ACTIONS[action];
      if (!verb) continue;
      ops.push({ seg: { group, version, plural: rest[0], namespaced, sub }, verb, gvk: op['x-kubernetes-group-version-kind'] });
    }
  }
  for (const { seg, verb, gvk } of ops.filter((o) => !o.seg.sub)) {
    const key = `${seg.group}/${seg.version}/${seg.plural}`;
    const e = byKey.get(key) ?? {
      r: { group: seg.group, version: seg.version, kind: gvk.kind, plural: seg.plural, namespaced: false, verbs: [] as string[], subresources: [] as Subresource[] },
      subs: new Map<string, Subresource>(),
    };
    e.r.verbs.push(verb);
    e.r.namespaced ||= seg.namespaced;
    byKey.set(key, e);
  }
  for (const { seg, verb, gvk } of ops.filter((o) => o.seg.sub)) {
    const e = byKey.get(`${seg.group}/${seg.version}/${seg.plural}`);
    if (!e) continue;
    const s = e.subs.get(seg.sub!) ?? { name: seg.sub!, kind: gvk.kind, group: gvk.group, version: gvk.version, verbs: [] as string[] };
    s.verbs.push(verb);
    e.subs.set(seg.sub!, s);
  }
  return [...byKey.values()].map(({ r, subs }) => ({
    ...r,
    verbs: sorted(r.verbs),
    subresources: [...subs.values()].map((s) => ({ ...s, verbs: sorted(s.verbs) })).sort((a, b) => a.name.localeCompare(b.name)),
  }));
}

function gvkOf(schema: Schema): { group: string; version: string; kind: string }[] {
  return (schema['x-kubernetes-group-version-kind'] as any[]) ?? [];
}

/** Every resource our tree serves, from compact declarations and from upstream-shaped paths. */
export function declaredResources(docs: SpecDoc[]): Resource[] {
  const out: Resource[] = [];
  for (const { file, doc } of docs) {
    const decls = doc['x-specserver-resources'] as any[] | undefined;
    if (decls) {
      const schemas = doc.components?.schemas ?? {};
      for (const d of decls) {
        const gvks = Object.values(schemas as Record<string, Schema>)
          .flatMap(gvkOf)
          .filter((g) => g.kind === d.kind);
        const gv = doc['x-specserver-group-version'] ?? gvks[0];
        if (!gv) throw new Error(`${file}: no schema with kind ${d.kind}`);
        out.push({
          file,
          group: gv.group,
          version: gv.version,
          kind: d.kind,
          plural: d.plural,
          namespaced: (d.scope ?? 'Namespaced') === 'Namespaced',
          verbs: sorted(d.verbs ?? []),
          subresources: (d.subresources ?? [])
            .map((s: any) => ({
              name: s.name,
              kind: s.kind ?? d.kind,
              group: s.group ?? gv.group,
              version: s.version ?? gv.version,
              verbs: sorted(s.verbs ?? []),
            }))
            .sort((a: Subresource, b: Subresource) => a.name.localeCompare(b.name)),
        });
      }
    } else if (doc.paths && Object.keys(doc.paths).length) {
      for (const r of resourcesFromPaths(doc.paths)) out.push({ ...r, file });
    }
  }
  return out;
}

/** All schemas of the tree by name (the first definition wins; duplicates are checked elsewhere). */
export function allSchemas(docs: SpecDoc[]): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const { doc } of docs) {
    for (const [name, s] of Object.entries((doc.components?.schemas ?? {}) as Record<string, Schema>)) out[name] ??= s;
  }
  return out;
}

/** The schema name whose only GVK is exactly this kind. */
export function schemaNameFor(schemas: Record<string, Schema>, group: string, version: string, kind: string): string | undefined {
  return Object.entries(schemas).find(([, s]) => {
    const g = gvkOf(s);
    return g.length === 1 && g[0].group === group && g[0].version === version && g[0].kind === kind;
  })?.[0];
}
