// Infers resources from the `paths` of an upstream kube-apiserver OpenAPI v3
// document: the path shape gives plural, scope and subresource; the
// operation's x-kubernetes-action (or, when absent, its HTTP method and path
// shape) gives the verb; x-kubernetes-group-version-kind (or the schema the
// operation returns or accepts) gives the kind.
import type { Verb } from '../templates/api-types.ts';
import type { OpenAPISchema } from '../model/types.ts';
import { CodegenError, jp } from './errors.ts';
import { isObject, refName } from './schema-util.ts';
import { sortVerbs, type DeclaredResource } from './compact.ts';

export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
const ACTIONS: Record<string, Verb | null> = {
  get: 'get',
  list: 'list',
  watch: 'watch',
  watchlist: 'watch',
  post: 'create',
  put: 'update',
  patch: 'patch',
  delete: 'delete',
  deletecollection: 'deletecollection',
  connect: null,
};

interface PathShape {
  group: string;
  version: string;
  plural: string;
  namespaced: boolean;
  item: boolean;
  sub?: string;
  watch: boolean;
}

export function parsePath(path: string): PathShape | null {
  const segs = path.split('/').filter((s) => s !== '');
  let group: string;
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 2) {
    group = '';
    rest = segs.slice(2);
  } else if (segs[0] === 'apis' && segs.length >= 3) {
    group = segs[1];
    rest = segs.slice(3);
  } else return null;
  const version = segs[0] === 'api' ? segs[1] : segs[2];
  let watch = false;
  if (rest[0] === 'watch') {
    watch = true;
    rest = rest.slice(1);
  }
  let namespaced = false;
  if (rest[0] === 'namespaces' && rest[1] === '{namespace}' && rest.length > 2) {
    namespaced = true;
    rest = rest.slice(2);
  }
  const plural = rest[0];
  if (plural === undefined || plural.includes('{')) return null;
  const item = rest[1] === '{name}';
  if (rest.length > 1 && !item) return null;
  const sub = item && rest[2] !== undefined && !rest[2].includes('{') ? rest[2] : undefined;
  return { group, version, plural, namespaced, item, sub, watch };
}

function inferVerb(method: string, shape: PathShape): Verb | null {
  if (shape.watch) return method === 'get' ? 'watch' : null;
  if (!shape.item) return ({ get: 'list', post: 'create', delete: 'deletecollection' } as Record<string, Verb>)[method] ?? null;
  return ({ get: 'get', put: 'update', patch: 'patch', delete: 'delete', post: 'create' } as Record<string, Verb>)[method] ?? null;
}

function bodyRefs(op: OpenAPISchema): string[] {
  const out: string[] = [];
  const collect = (content: unknown) => {
    if (!isObject(content)) return;
    const json = content['application/json'] ?? Object.values(content)[0];
    if (isObject(json) && isObject(json.schema)) {
      const n = refName(json.schema);
      if (n) out.push(n);
    }
  };
  const responses = isObject(op.responses) ? op.responses : {};
  for (const code of ['200', '201', '202']) if (isObject(responses[code])) collect(responses[code].content);
  if (isObject(op.requestBody)) collect(op.requestBody.content);
  return out;
}

type GvkOf = (schemaName: string) => Gvk[];

interface Acc {
  shape: PathShape;
  verbs: Set<Verb>;
  gvk?: Gvk;
  weakGvk?: Gvk;
  at: string;
}

/** Resources (with their subresources) declared by upstream-style paths. */
export function readUpstreamPaths(
  file: string,
  paths: unknown,
  gvkOf: GvkOf,
  itemsOf: (schemaName: string) => string | undefined,
): { resources: (DeclaredResource & { gvk: Gvk })[]; group?: string; version?: string } {
  if (!isObject(paths)) return { resources: [] };
  const acc = new Map<string, Acc>();
  let group: string | undefined;
  let version: string | undefined;
  for (const path of Object.keys(paths).sort()) {
    const item = paths[path];
    const shape = parsePath(path);
    const pathAt = jp('$.paths', path);
    if (!shape || !isObject(item)) {
      const m = /^\/(?:api\/(v[^/]+)|apis\/([^/]+)\/([^/]+))\/?$/.exec(path);
      if (m) {
        group = m[2] ?? '';
        version = m[1] ?? m[3];
      }
      continue;
    }
    group = shape.group;
    version = shape.version;
    const key = `${shape.plural}/${shape.sub ?? ''}`;
    let a = acc.get(key);
    if (!a) {
      a = { shape, verbs: new Set(), at: pathAt };
      acc.set(key, a);
    }
    if (shape.namespaced) a.shape.namespaced = true;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const action = op['x-kubernetes-action'];
      let verb: Verb | null;
      if (typeof action === 'string') {
        if (!(action in ACTIONS)) throw new CodegenError(file, jp(jp(pathAt, method), 'x-kubernetes-action'), `unknown x-kubernetes-action ${JSON.stringify(action)}`);
        verb = ACTIONS[action] ?? inferVerb(method, { ...shape, watch: false });
      } else verb = inferVerb(method, shape);
      if (verb) a.verbs.add(verb);
      const declared = op['x-kubernetes-group-version-kind'];
      if (isObject(declared) && typeof declared.kind === 'string') {
        a.gvk ??= { group: String(declared.group ?? ''), version: String(declared.version ?? ''), kind: declared.kind };
        continue;
      }
      if (shape.watch || verb === 'delete' || verb === 'deletecollection') continue;
      for (const n of bodyRefs(op)) {
        const direct = gvkOf(n);
        const itemName = itemsOf(n);
        const g = direct.length === 1 && !itemName ? direct[0] : itemName ? gvkOf(itemName)[0] : undefined;
        if (g) {
          if (method === 'get' || method === 'put') a.gvk ??= g;
          else a.weakGvk ??= g;
          break;
        }
      }
    }
  }
  const parents = [...acc.values()].filter((a) => a.shape.sub === undefined);
  const resources = parents.map((p) => {
    const gvk = p.gvk ?? p.weakGvk;
    if (!gvk) throw new CodegenError(file, p.at, `cannot tell the kind of resource ${JSON.stringify(p.shape.plural)}: no operation names a schema with x-kubernetes-group-version-kind`);
    const subs = [...acc.values()]
      .filter((a) => a.shape.plural === p.shape.plural && a.shape.sub !== undefined)
      .sort((x, y) => (x.shape.sub! < y.shape.sub! ? -1 : 1))
      .map((s) => {
        const sg = s.gvk ?? s.weakGvk;
        const d: { name: string; kind: string; group?: string; version?: string; verbs: Verb[] } = { name: s.shape.sub!, kind: sg?.kind ?? gvk.kind, verbs: sortVerbs(s.verbs) };
        if (sg && (sg.group !== gvk.group || sg.version !== gvk.version)) {
          d.group = sg.group;
          d.version = sg.version;
        }
        return d;
      });
    const verbs = sortVerbs(p.verbs);
    const decl: DeclaredResource & { gvk: Gvk } = {
      kind: gvk.kind,
      plural: p.shape.plural,
      singular: gvk.kind.toLowerCase(),
      namespaced: p.shape.namespaced,
      verbs,
      shortNames: [],
      categories: [],
      subresources: subs,
      printerColumns: [],
      selectableFields: [],
      allowCreateOnUpdate: false,
      nameRule: 'subdomain',
      virtual: verbs.length === 1 && verbs[0] === 'create',
      jsonPath: p.at,
      gvk,
    };
    return decl;
  });
  return { resources, group, version };
}
