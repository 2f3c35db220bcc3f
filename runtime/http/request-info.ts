// Parses a request's method and path into what it is about (the first stage
// of the request path): verb, group, version, namespace, resource, name and
// subresource for resource requests; the raw path for everything else.
// Pure: no registry look-ups here.
//
// The path is the raw request target as the client sent it, never a
// normalised URL: a URL parser resolves `a/..` and `a/%2e%2e` and cuts a
// literal `#` off as a fragment, which would re-target a request for one
// oddly named object to its collection. Segments are split first and then
// percent-decoded one by one (as a Go server sees them, a literal `#` is part
// of the name). A path that cannot address anything as written (a malformed
// escape, an encoded `/`, an empty segment, a `.` or `..` segment outside the
// name) carries a `pathError` instead of being repaired; names themselves are
// checked by the routing stage (http/path-verbs.ts), after the verb. The
// segments after a `proxy` subresource are the path it forwards (upstream
// does not interpret them): they are decoded but not checked.

import { ApiError, errors } from '../api/errors.ts';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** The request's HTTP method, upper case. */
  method: string;
  /**
   * get, list, watch, create, update, patch, delete, deletecollection; '' for another method on a resource
   * path (as upstream: OPTIONS on a proxy is authorized with an empty verb); the lower-cased method for
   * non-resource paths.
   */
  verb: string;
  /** 'api' (core) or 'apis' (named groups), '' for non-resource paths. */
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments after the version (and after `/watch` and `/namespaces/{ns}`), decoded. */
  parts: string[];
  /** The path was one of the legacy `/watch/...` paths (served for GET only). */
  watchPath: boolean;
  /** The path named a namespace before the resource (`.../namespaces/{ns}/{resource}...`). */
  namespacePath: boolean;
  /** Why the path as written addresses nothing (400 or 404); the request must be refused with it. */
  pathError?: ApiError;
}

/** Subresources of the namespace object itself (not namespaced resources). */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function isWatch(query: URLSearchParams): boolean {
  // as kube-apiserver: any value but false/0 asks for a watch
  const w = query.get('watch');
  return w !== null && !['false', '0'].includes(w.toLowerCase());
}

const isDotSegment = (s: string): boolean => s === '.' || s === '..';

/** The subresource whose further segments are a path it forwards, not a path to interpret. */
const FORWARDING_SUBRESOURCE = 'proxy';

/**
 * Where the forwarded path of a `.../{name}/proxy/...` request starts among the
 * segments (segs.length when the path has none): after the prefix, a `watch`,
 * a `namespaces/{ns}`, the resource, the name and `proxy`.
 */
function forwardedPathStart(segs: string[]): number {
  let i = segs[0] === 'api' ? 2 : segs[0] === 'apis' ? 3 : -1;
  if (i < 0) return segs.length;
  if (segs[i] === 'watch') i++;
  if (segs[i] === 'namespaces' && segs.length - i >= 3 && !NAMESPACE_SUBRESOURCES.has(segs[i + 2])) i += 2;
  return segs[i + 2] === FORWARDING_SUBRESOURCE && segs.length > i + 3 ? i + 3 : segs.length;
}

/**
 * The segments of a path after its leading '/', as `path.slice(1).split('/')`
 * gives them (empty ones included), found by scanning: split() of a string
 * made per request is a call into the runtime that costs twice as much.
 */
export function pathSegments(path: string): string[] {
  const segs: string[] = [];
  let from = 1;
  for (let slash = path.indexOf('/', from); slash >= 0; slash = path.indexOf('/', from)) {
    segs.push(path.slice(from, slash));
    from = slash + 1;
  }
  segs.push(path.slice(from));
  return segs;
}

/** Splits a raw request target (`/path?query`, or an absolute URL) into its raw path and raw query. */
export function splitTarget(target: string): { path: string; query: string } {
  let rest = target;
  // an origin-form target (the common case) starts with '/'; only an absolute one has a scheme and authority to drop
  const scheme = target.charCodeAt(0) === 0x2f ? null : /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?]*/.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  return { path: path === '' ? '/' : path, query: q < 0 ? '' : rest.slice(q + 1) };
}

/**
 * The path as an HTTP router compares it with the non-resource endpoints'
 * paths: percent-escapes decoded as decodeURI does (escapes of reserved
 * characters such as `/` stay), except `%25`, which stays as written; a
 * malformed escape stays as written.
 */
export function routingPath(rawPath: string): string {
  if (!rawPath.includes('%')) return rawPath;
  const path = rawPath.replace(/%25/g, '%2525');
  try {
    return decodeURI(path);
  } catch {
    return path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (m) => {
      try {
        return decodeURI(m);
      } catch {
        return m;
      }
    });
  }
}

class BadEscape extends Error {}

/** What a raw segment holds when it is not its own decoded form: an escape, or a byte node handed over as a latin1 character. */
const NEEDS_DECODING = /[%\u0080-\u00ff]/;

const utf8 = new TextDecoder('utf-8', { fatal: false });
const utf8Encoder = new TextEncoder();

/**
 * Decodes one raw path segment: `%XX` escapes and raw bytes (a Node server hands
 * non-ASCII bytes over as latin1 characters) become UTF-8 text, invalid byte
 * sequences the replacement character; a malformed escape throws.
 */
export function decodeSegment(raw: string): string {
  if (!NEEDS_DECODING.test(raw)) return raw;
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const ch = raw.charCodeAt(i);
    if (ch === 0x25) {
      const hex = raw.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new BadEscape(`invalid URL escape "${raw.slice(i, i + 3)}"`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (ch <= 0xff) {
      bytes.push(ch);
    } else {
      bytes.push(...utf8Encoder.encode(String.fromCodePoint(raw.codePointAt(i)!)));
      if (ch >= 0xd800 && ch <= 0xdbff) i++;
    }
  }
  return utf8.decode(new Uint8Array(bytes));
}

/** The upper- and lower-case forms of the usual methods as sent, so that parsing a request makes no new strings for them. */
const METHOD_CASES = new Map<string, readonly [string, string]>(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((m) => [m, [m, m.toLowerCase()]]));

export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    method: METHOD_CASES.get(method)?.[0] ?? method.toUpperCase(),
    verb: METHOD_CASES.get(method)?.[1] ?? method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
    watchPath: false,
    namespacePath: false,
  };
  if (!path.startsWith('/')) {
    info.pathError = errors.notFoundPath();
    return info;
  }
  const rawSegs = pathSegments(path);
  // one trailing slash is tolerated (as upstream's router does); anything emptier is not collapsed
  if (rawSegs.length > 1 && rawSegs[rawSegs.length - 1] === '') rawSegs.pop();
  if (rawSegs.length === 1 && rawSegs[0] === '') rawSegs.pop();

  let segs: string[];
  if (!NEEDS_DECODING.test(path)) {
    // nothing escaped: the raw segments are the decoded ones (the common case)
    segs = rawSegs;
  } else {
    try {
      segs = rawSegs.map(decodeSegment);
    } catch (err) {
      if (!(err instanceof BadEscape)) throw err;
      info.pathError = errors.badRequest(err.message);
      return info;
    }
  }
  // in the segments that address something (not a proxy's forwarded path), an empty segment or an encoded '/'
  // never stands for another path
  for (let i = 0, end = forwardedPathStart(segs); i < end; i++) {
    if (segs[i] === '' || segs[i].includes('/')) {
      info.pathError = errors.notFoundPath();
      return info;
    }
  }

  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 2) {
    info.apiPrefix = 'api';
    info.apiVersion = segs[1];
    rest = segs.slice(2);
  } else if (segs[0] === 'apis' && segs.length >= 3) {
    info.apiPrefix = 'apis';
    info.apiGroup = segs[1];
    info.apiVersion = segs[2];
    rest = segs.slice(3);
  } else {
    if (segs.some(isDotSegment)) info.pathError = errors.notFoundPath();
    return info;
  }
  if (rest.length === 0) {
    if (segs.some(isDotSegment)) info.pathError = errors.notFoundPath();
    return info;
  }
  info.isResourceRequest = true;

  if (rest[0] === 'watch') {
    info.watchPath = true;
    rest = rest.slice(1);
  }
  // /namespaces/{ns}/{resource}/... ; a bare /namespaces[/{name}[/sub]] is the namespace resource itself
  if (rest[0] === 'namespaces' && rest.length >= 3 && !NAMESPACE_SUBRESOURCES.has(rest[2])) {
    info.namespace = rest[1];
    info.namespacePath = true;
    rest = rest.slice(2);
  }
  info.parts = rest;
  info.resource = rest[0] ?? '';
  info.name = rest[1] ?? '';
  info.subresource = rest[2] ?? '';
  if (info.resource === 'namespaces' && info.name && !info.namespacePath) {
    // a namespace object is cluster-scoped; its own namespace is its name for authorization
    info.namespace = info.name;
  }
  // a dot segment anywhere but the name (which the router validates) addresses nothing
  let dotted = isDotSegment(info.apiGroup) || isDotSegment(info.apiVersion) || (info.namespacePath && isDotSegment(info.namespace)) || isDotSegment(info.resource);
  for (let i = 2, end = info.subresource === FORWARDING_SUBRESOURCE ? 3 : rest.length; i < end && !dotted; i++) dotted = isDotSegment(rest[i]);
  if (dotted) info.pathError = errors.notFoundPath();

  const m = info.method;
  if (info.watchPath) {
    // the /watch/ paths serve GET only; other methods keep their own verb and are refused by the router
    info.verb = m === 'GET' || m === 'HEAD' ? 'watch' : m.toLowerCase();
  } else if (m === 'GET' || m === 'HEAD') {
    // as kube-apiserver: ?watch turns a collection read into a watch; a named read stays a get
    info.verb = info.name ? 'get' : isWatch(query) ? 'watch' : 'list';
  } else if (m === 'POST') {
    info.verb = 'create';
  } else if (m === 'PUT') {
    info.verb = 'update';
  } else if (m === 'PATCH') {
    info.verb = 'patch';
  } else if (m === 'DELETE') {
    info.verb = info.name ? 'delete' : 'deletecollection';
  } else {
    info.verb = '';
  }
  return info;
}
