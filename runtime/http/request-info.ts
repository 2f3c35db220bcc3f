// Parses a request's method and path into what it is about (the first stage
// of the request path): verb, group, version, namespace, resource, name and
// subresource for resource requests; the raw path for everything else.
// Pure: no registry look-ups here.

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; or the lower-cased method for non-resource paths. */
  verb: string;
  /** 'api' (core) or 'apis' (named groups), '' for non-resource paths. */
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments after the version. */
  parts: string[];
}

/** Subresources of the namespace object itself (not namespaced resources). */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function isWatch(query: URLSearchParams): boolean {
  const w = query.get('watch');
  return w === '1' || w === 'true';
}

export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', apiVersion: '',
    namespace: '', resource: '', subresource: '', name: '', parts: [],
  };
  const segs = path.split('/').filter((s, i) => i > 0 || s !== '');
  if (segs[0] === '') segs.shift();
  // trailing slash tolerated
  if (segs.length && segs[segs.length - 1] === '') segs.pop();
  let rest: string[];
  if (segs[0] === 'api') {
    if (segs.length < 2) return info;
    info.apiPrefix = 'api';
    info.apiVersion = segs[1];
    rest = segs.slice(2);
  } else if (segs[0] === 'apis') {
    if (segs.length < 3) return info;
    info.apiPrefix = 'apis';
    info.apiGroup = segs[1];
    info.apiVersion = segs[2];
    rest = segs.slice(3);
  } else {
    return info;
  }
  if (rest.length === 0) return info;
  info.isResourceRequest = true;
  try {
    rest = rest.map((s) => decodeURIComponent(s));
  } catch {
    /* keep raw segments; names with bad escapes fail validation later */
  }

  let watchPath = false;
  if (rest[0] === 'watch') {
    watchPath = true;
    rest = rest.slice(1);
  }
  // /namespaces/{ns}/{resource}/... ; a bare /namespaces[/{name}[/sub]] is the namespace resource itself
  if (rest[0] === 'namespaces' && rest.length >= 3 && !NAMESPACE_SUBRESOURCES.has(rest[2])) {
    info.namespace = rest[1];
    rest = rest.slice(2);
  }
  info.parts = rest;
  info.resource = rest[0] ?? '';
  info.name = rest[1] ?? '';
  info.subresource = rest[2] ?? '';
  if (info.resource === 'namespaces' && info.name) {
    // a namespace object is cluster-scoped; its own namespace is its name for authorization
    info.namespace = info.name;
  }

  const m = method.toUpperCase();
  if (watchPath || (m === 'GET' && isWatch(query))) {
    info.verb = 'watch';
  } else if (m === 'GET' || m === 'HEAD') {
    info.verb = info.name ? 'get' : 'list';
  } else if (m === 'POST') {
    info.verb = 'create';
  } else if (m === 'PUT') {
    info.verb = 'update';
  } else if (m === 'PATCH') {
    info.verb = 'patch';
  } else if (m === 'DELETE') {
    info.verb = info.name ? 'delete' : 'deletecollection';
  } else {
    info.verb = m.toLowerCase();
  }
  return info;
}
