// Which verbs each path shape of a resource serves, derived in one place from
// the verbs the resource declares, the way kube-apiserver installs its routes
// (and the served OpenAPI lists them):
//
//   namespaced resource   /{r}                          list, watch (all namespaces: reads only)
//                         /namespaces/{ns}/{r}          list, watch, create, deletecollection
//                         /namespaces/{ns}/{r}/{name}   get, update, patch, delete
//                         /watch/{r}, /watch/namespaces/{ns}/{r}[/{name}]   watch (GET)
//   cluster-scoped        /{r}                          list, watch, create, deletecollection
//                         /{r}/{name}                   get, update, patch, delete
//                         /watch/{r}[/{name}]           watch (GET)
//   subresources          .../{name}/{sub}              the subresource's declared verbs
//   proxy subresources    .../{name}/proxy[/{path}]     their declared verbs, and OPTIONS (verb '')
//
// A shape with no verb is no route (404, as `/api/v1/configmaps/{name}` is
// upstream); a method the shape does not serve is 405 MethodNotAllowed. So a
// DELETE on `/api/v1/configmaps` can never become a delete of every ConfigMap
// in every namespace. After the verb, the name in the path is checked as
// upstream's storage keys check it (not `.` or `..`, no `/` or `%`): 400.

import type { ResourceDef, SubresourceDef, Verb } from '../../generated/api-types.ts';
import type { RequestInfo } from './request-info.ts';
import { errors } from '../api/errors.ts';

export type PathShape = 'collection' | 'object' | 'subresource';

const COLLECTION_ALL_NAMESPACES: Verb[] = ['list', 'watch'];
const COLLECTION: Verb[] = ['list', 'watch', 'create', 'deletecollection'];
const OBJECT: Verb[] = ['get', 'update', 'patch', 'delete'];

/**
 * Whether a subresource forwards requests as upstream's proxy connecters do (pods, services and nodes
 * `proxy`, served with a `*ProxyOptions` kind): it also answers `.../proxy/{path}`, and OPTIONS and HEAD.
 */
export function isProxySubresource(sub: SubresourceDef | undefined): boolean {
  return sub !== undefined && sub.name === 'proxy' && sub.kind.endsWith('ProxyOptions');
}

/** HTTP methods a proxy subresource serves besides those of its declared verbs (HEAD is a get, OPTIONS has no verb). */
export const PROXY_EXTRA_METHODS = ['HEAD', 'OPTIONS'];

/** The shape of a resource path, or undefined when it has too many segments to be one. */
export function shapeOf(info: RequestInfo): PathShape | undefined {
  switch (info.parts.length) {
    case 1:
      return 'collection';
    case 2:
      return 'object';
    case 3:
      return 'subresource';
    default:
      return undefined;
  }
}

/**
 * The verbs served at one path shape of a resource: `namespacePath` says whether
 * the path named a namespace, `watchPath` whether it was a legacy /watch/ path.
 */
export function verbsAt(def: ResourceDef, shape: PathShape, opts: { namespacePath: boolean; watchPath: boolean; subresource?: string }): Set<Verb> {
  const declared = new Set<Verb>(def.verbs);
  const pick = (vs: Verb[]) => new Set(vs.filter((v) => declared.has(v)));
  // a cluster-scoped resource has no path under a namespace; a namespaced one has no object path outside one
  if (!def.namespaced && opts.namespacePath) return new Set();
  const allNamespaces = def.namespaced && !opts.namespacePath;
  if (allNamespaces && shape !== 'collection') return new Set();
  if (opts.watchPath) return shape === 'subresource' ? new Set() : pick(['watch']);
  switch (shape) {
    case 'collection':
      return pick(allNamespaces ? COLLECTION_ALL_NAMESPACES : COLLECTION);
    case 'object':
      return pick(OBJECT);
    case 'subresource':
      return new Set(def.subresources.find((s) => s.name === opts.subresource)?.verbs ?? []);
  }
}

/** Upstream's path-segment name rule: the reasons a name cannot be used in a path (empty when it can). */
export function pathSegmentNameProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  if (!name.includes('/') && !name.includes('%')) return NO_PROBLEMS;
  const out: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) out.push(`may not contain '${bad}'`);
  return out;
}

const NO_PROBLEMS: string[] = [];

/** verbsAt per resource and path shape, computed once (every request asks). */
const memo = new WeakMap<ResourceDef, Map<string, Set<Verb>>>();

/** The memo keys of the shapes without a subresource, by shape and flags (no string is built per request for them). */
const PLAIN_KEYS: Record<string, readonly string[]> = {};
for (const shape of ['collection', 'object', 'subresource'] as const) {
  PLAIN_KEYS[shape] = [0, 1, 2, 3].map((flags) => `${shape}|${flags & 1}|${flags >> 1}|`);
}

function servedVerbs(def: ResourceDef, shape: PathShape, info: RequestInfo): Set<Verb> {
  let byShape = memo.get(def);
  if (!byShape) memo.set(def, (byShape = new Map()));
  const plain = PLAIN_KEYS[shape][(info.namespacePath ? 1 : 0) | (info.watchPath ? 2 : 0)];
  const key = shape === 'subresource' ? plain + info.subresource : plain;
  let verbs = byShape.get(key);
  if (!verbs) {
    verbs = verbsAt(def, shape, { namespacePath: info.namespacePath, watchPath: info.watchPath, subresource: info.subresource });
    byShape.set(key, verbs);
  }
  return verbs;
}

/**
 * Throws the Status kube-apiserver answers when the request's path shape has no
 * route for this resource (404), does not serve the request's verb (405), or
 * names an object by a name no path can carry (400).
 */
export function checkRoute(def: ResourceDef, info: RequestInfo): void {
  const proxy = info.parts.length >= 3 && isProxySubresource(def.subresources.find((s) => s.name === info.subresource));
  // a proxy's own path follows it: .../{name}/proxy/{path}
  const shape = shapeOf(info) ?? (proxy ? 'subresource' : undefined);
  if (!shape) throw errors.notFoundPath();
  const verbs = servedVerbs(def, shape, info);
  if (verbs.size === 0) throw errors.notFoundPath();
  const options = proxy && info.verb === '' && PROXY_EXTRA_METHODS.includes(info.method);
  if (!verbs.has(info.verb as Verb) && !options) throw errors.methodNotAllowed();
  if (info.name) {
    const problems = pathSegmentNameProblems(info.name);
    if (problems.length) throw errors.badRequest(`Name parameter invalid: ${JSON.stringify(info.name)}: ${problems.join(';')}`);
  }
}
