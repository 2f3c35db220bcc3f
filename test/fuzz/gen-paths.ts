// Generators of request paths for the fuzz harness: odd paths (dot
// segments raw and percent-encoded, empty segments, fragments, encoded
// slashes, odd characters, very long paths) with every method; paths aimed
// at the sentinel objects that a server must never route to them; and every
// method on every path shape. Requests that could delete a collection the
// sentinels live in carry a label selector matching only the harness's own
// objects, except in the sentinel generator whose point is to try.

import { type GenContext, type Generator, SAFE_SELECTOR, utf8, withQuery } from './case.ts';
import { collectionPath, findKind, type FuzzKind, objectPath, servedKinds, unservedKinds } from './kinds.ts';
import { validObject } from './objects.ts';
import type { Rng } from './rng.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ODD_METHODS = ['HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'FUZZ', 'get', 'PROPFIND'];

/** Dot segments as clients write them: raw, percent-encoded in any case, mixed, with stray bytes. */
const DOT_DOT = ['..', '%2e%2e', '%2E%2E', '.%2e', '%2e.', '%2E.', '..%00', '..;', '..%2f', '%2e%2e%2f', '..\\', '%252e%252e'];
const DOT = ['.', '%2e', '%2E'];
/** Whether a path segment, percent-decoded, is a dot segment (the ones a server must not resolve). */
function isDotSegment(seg: string): boolean {
  let s = seg;
  try {
    s = decodeURIComponent(seg);
  } catch {
    /* keep raw */
  }
  return s.split(/[/\\]/).some((p) => p === '.' || p === '..');
}

export function hasDotSegments(path: string): boolean {
  return path.split('?')[0].split('/').some(isDotSegment);
}

/** The path a URL parser would make of a raw path (dot segments resolved, `%2e` and backslashes included). */
export function normalizedPath(path: string): string {
  const decoded = path.split(/[?#]/)[0].replace(/(%[0-9a-fA-F]{2})+/g, (m) => {
    try {
      return decodeURIComponent(m);
    } catch {
      return m;
    }
  });
  const p = decoded.replace(/\\/g, '/');
  try {
    return new URL(p, 'http://fuzz.invalid').pathname.replace(/\/+$/, '');
  } catch {
    return p;
  }
}

const ODD_SEGMENTS = [
  '',
  '.',
  '..',
  '%2e',
  '%2e%2e',
  '%2f',
  'a%2fb',
  '%2F..%2F',
  '%00',
  '%',
  '%zz',
  '%2',
  '#',
  '#frag',
  ';',
  'a;b=c',
  '~',
  '%7e',
  '*',
  '%2a',
  'ñ',
  '%C3%B1',
  '%FF',
  '%c0%ae',
  '\\',
  'a\\b',
  'UPPER',
  ' ',
  '%20',
  '+',
  '%2B',
  "'",
  '"',
  '<',
  '>',
  '{name}',
  '$',
  '@',
  '!',
  '|',
  '^',
  '`',
  'watch',
  'namespaces',
  'status',
  'scale',
  'api',
  'apis',
  'proxy',
  'x'.repeat(254),
  'x'.repeat(300),
  'x'.repeat(5000),
  'x'.repeat(20_000),
];

/** Segments of a path for kind k of a given shape (name and namespace from the fuzz namespace). */
function shapeSegments(rng: Rng, ctx: GenContext, k: FuzzKind): { segs: string[]; shape: string } {
  const base = k.base.split('/').filter(Boolean);
  const name = rng.chance(0.5) ? 'fz-target' : `fz-${rng.int(0, 99)}`;
  const shape = rng.pick(['cluster-collection', 'namespaced-collection', 'object', 'subresource', 'watch-collection', 'watch-object', 'object-without-namespace', 'namespace-only']);
  const ns = rng.chance(0.9) ? ctx.fuzzNs : rng.pick(['fz-missing', 'FUZZ', 'fuzz ']);
  switch (shape) {
    case 'cluster-collection':
      return { segs: [...base, k.def.resource], shape };
    case 'namespaced-collection':
      return { segs: [...base, 'namespaces', ns, k.def.resource], shape };
    case 'object':
      return { segs: [...base, ...(k.def.namespaced ? ['namespaces', ns] : []), k.def.resource, name], shape };
    case 'subresource':
      return { segs: [...base, ...(k.def.namespaced ? ['namespaces', ns] : []), k.def.resource, name, rng.pick(['status', 'scale', 'finalize', 'proxy', 'nope'])], shape };
    case 'watch-collection':
      return { segs: [...base, 'watch', ...(k.def.namespaced ? ['namespaces', ns] : []), k.def.resource], shape };
    case 'watch-object':
      return { segs: [...base, 'watch', ...(k.def.namespaced ? ['namespaces', ns] : []), k.def.resource, name], shape };
    case 'object-without-namespace':
      return { segs: [...base, k.def.resource, name], shape };
    default:
      return { segs: [...base, 'namespaces', ns], shape };
  }
}

function bodyFor(rng: Rng, ctx: GenContext, k: FuzzKind, method: string, index: number): { headers: Record<string, string>; body?: Uint8Array } {
  if (method === 'POST' || method === 'PUT') {
    return { headers: { 'content-type': 'application/json' }, body: utf8(JSON.stringify(validObject(k, rng.chance(0.5) ? 'fz-target' : `fz-${index}`, ctx.fuzzNs))) };
  }
  if (method === 'PATCH') {
    return { headers: { 'content-type': 'application/merge-patch+json' }, body: utf8(JSON.stringify({ metadata: { annotations: { 'fuzz.example.com/patched': String(index) } } })) };
  }
  return { headers: {} };
}

/** An odd path built from a valid shape, with any method (the server must answer each with a Status, never reach another object). */
export const oddPath: Generator = (rng, ctx, index) => {
  const k = rng.chance(0.9) ? rng.pick(servedKinds) : rng.pick(unservedKinds);
  const { segs, shape } = shapeSegments(rng, ctx, k);
  const notes: string[] = [shape];
  let variant = '';
  for (let n = rng.int(1, 2); n > 0; n--) {
    const what = rng.pick(['replace', 'insert', 'dot-dot', 'dot', 'encode', 'upper-encode', 'empty', 'trailing-slash', 'leading-slashes', 'long', 'unicode', 'drop']);
    const i = rng.int(0, segs.length - 1);
    variant ||= what;
    switch (what) {
      case 'replace': {
        const s = rng.pick(ODD_SEGMENTS);
        segs[i] = s;
        notes.push(`segment ${i} = ${JSON.stringify(s.slice(0, 16))}`);
        break;
      }
      case 'insert': {
        const s = rng.pick(ODD_SEGMENTS);
        segs.splice(i, 0, s);
        notes.push(`insert ${JSON.stringify(s.slice(0, 16))} at ${i}`);
        break;
      }
      case 'dot-dot': {
        const s = rng.pick(DOT_DOT);
        segs.splice(i + 1, 0, s);
        notes.push(`${s} after ${i}`);
        break;
      }
      case 'dot': {
        const s = rng.pick(DOT);
        segs.splice(i + 1, 0, s);
        notes.push(`${s} after ${i}`);
        break;
      }
      case 'encode':
        segs[i] = [...Buffer.from(segs[i])].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
        notes.push(`percent-encode ${i}`);
        break;
      case 'upper-encode':
        segs[i] = encodeURIComponent(segs[i]).replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
        notes.push(`partly encode ${i}`);
        break;
      case 'empty':
        segs.splice(i + 1, 0, '');
        notes.push(`empty after ${i}`);
        break;
      case 'trailing-slash':
        segs.push('');
        notes.push('trailing slash');
        break;
      case 'leading-slashes':
        segs.unshift('');
        notes.push('leading //');
        break;
      case 'long':
        segs.splice(i, 0, ...new Array(rng.pick([100, 1000])).fill('a'));
        notes.push('many segments');
        break;
      case 'unicode':
        segs[i] += rng.pick(['ñ', '\u00ff', '%E2%80%AE', '%F0%9F%98%80', '%ED%A0%80']);
        notes.push(`unicode in ${i}`);
        break;
      default:
        segs.splice(i, 1);
        notes.push(`drop ${i}`);
        break;
    }
  }
  let method = rng.chance(0.93) ? rng.pick(METHODS) : rng.pick(ODD_METHODS);
  let path = `/${segs.join('/')}`;
  // the run's own namespace must survive the run: never delete it, however the path is spelled
  if (method === 'DELETE' && normalizedPath(path).replace(/\/{2,}/g, '/') === `/api/v1/namespaces/${ctx.fuzzNs}`) {
    method = 'GET';
    notes.push('(DELETE of the run namespace made a GET)');
  }
  // a request that could delete a collection only reaches the harness's own objects
  if (method === 'DELETE') path = withQuery(path, SAFE_SELECTOR);
  const isDot = hasDotSegments(path);
  if (isDot && method === 'DELETE') notes.push('(dot segments)');
  const { headers, body } = bodyFor(rng, ctx, k, method, index);
  return {
    generator: `path/${variant}`,
    note: `${method} ${k.apiVersion} ${k.def.resource}: ${notes.join('; ')}`,
    method,
    path,
    headers: { accept: 'application/json', ...headers },
    body,
    stream: method === 'GET' && (shape.startsWith('watch') || segs.includes('watch')),
    risky: isDot || path.includes('//'),
    connect: segs.some((s) => ['proxy', 'exec', 'attach', 'portforward', 'log'].includes(s)),
  };
};

const CM = () => findKind('v1', 'configmaps');
const SECRET = () => findKind('v1', 'secrets');
const DEPLOY = () => findKind('apps/v1', 'deployments');
const CLUSTERROLE = () => findKind('rbac.authorization.k8s.io/v1', 'clusterroles');
const NAMESPACE = () => findKind('v1', 'namespaces');

/**
 * Requests aimed at the sentinels through paths a correct server refuses or
 * routes elsewhere: writes on the cluster-wide collection of a namespaced
 * resource, dot segments that resolve to a sentinel collection or object, a
 * raw `#`, empty segments. Whatever the answer, no sentinel may change.
 */
export const sentinelPath: Generator = (rng, ctx, index) => {
  const S = rng.pick(ctx.sentinels.namespaces);
  const which = rng.pick(['configmaps', 'secrets', 'deployments'] as const);
  const k = which === 'configmaps' ? CM() : which === 'secrets' ? SECRET() : DEPLOY();
  const sentinelName = ctx.sentinels.names[which];
  const dd = () => rng.pick(DOT_DOT.filter((d) => !d.includes('%25')));
  const family = rng.pick([
    'cluster-wide-collection',
    'object-dotdot-to-collection',
    'traverse-to-collection',
    'traverse-to-namespace',
    'traverse-to-object',
    'fragment',
    'empty-segment',
    'clusterrole-dotdot',
    'clusterrole-traverse-to-object',
    'dot-in-collection',
    'encoded-slash-name',
  ]);
  let path: string;
  let kind = k;
  let bodyObj: Record<string, any> | undefined = validObject(k, sentinelName, S);
  switch (family) {
    case 'cluster-wide-collection':
      path = collectionPath(k);
      bodyObj = validObject(k, `fz-${index}`, S);
      break;
    case 'object-dotdot-to-collection':
      path = `${objectPath(k, S, rng.pick([sentinelName, `fz-${index}`]))}/${dd()}`;
      break;
    case 'traverse-to-collection':
      path = `${objectPath(k, ctx.fuzzNs, 'fz-target')}/${dd()}/${dd()}/${dd()}/${S}/${k.def.resource}`;
      break;
    case 'traverse-to-namespace':
      kind = NAMESPACE();
      path = `${collectionPath(k, ctx.fuzzNs)}/${dd()}/${dd()}/${S}`;
      bodyObj = validObject(kind, S, S);
      break;
    case 'traverse-to-object':
      path = `${objectPath(k, ctx.fuzzNs, 'fz-target')}/${dd()}/${dd()}/${dd()}/${S}/${k.def.resource}/${sentinelName}`;
      break;
    case 'fragment':
      path = `${collectionPath(k, S)}/${rng.pick(['#', '#x', `#/${sentinelName}`, '%23/#'])}`;
      break;
    case 'empty-segment':
      path = rng.pick([
        `/api/v1/namespaces/${S}//${k.def.resource}`.replace('/api/v1', k.base),
        `/${collectionPath(k, S)}`,
        collectionPath(k, S).replace('/namespaces/', '//namespaces/'),
        `${collectionPath(k, S)}//${rng.pick(['', '/'])}x`,
      ]);
      break;
    case 'clusterrole-dotdot':
      kind = CLUSTERROLE();
      path = `${objectPath(kind, undefined, rng.pick(['fz-target', ctx.sentinels.clusterRole]))}/${dd()}`;
      bodyObj = validObject(kind, ctx.sentinels.clusterRole, S);
      break;
    case 'clusterrole-traverse-to-object':
      kind = CLUSTERROLE();
      path = `${objectPath(kind, undefined, 'fz-target')}/${dd()}/${ctx.sentinels.clusterRole}`;
      bodyObj = validObject(kind, ctx.sentinels.clusterRole, S);
      break;
    case 'dot-in-collection':
      path = `${collectionPath(k, S)}/${rng.pick(DOT)}`;
      break;
    default:
      path = `${collectionPath(k, ctx.fuzzNs)}/${rng.pick(['..%2f..%2f', '%2e%2e%2f%2e%2e%2f', '..%5c..%5c'])}${S}%2f${k.def.resource}`;
      break;
  }
  const method = rng.weighted([
    [6, 'DELETE'],
    [2, 'PUT'],
    [2, 'PATCH'],
    [1, 'POST'],
  ]);
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: Uint8Array | undefined;
  if (method === 'PUT' || method === 'POST') {
    headers['content-type'] = 'application/json';
    body = utf8(JSON.stringify({ ...bodyObj, data: { pwned: 'yes' } }));
  } else if (method === 'PATCH') {
    headers['content-type'] = 'application/merge-patch+json';
    body = utf8(JSON.stringify({ metadata: { labels: { pwned: 'yes' } } }));
  } else if (rng.chance(0.3)) {
    headers['content-type'] = 'application/json';
    body = utf8(JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' }));
  }
  return {
    generator: `sentinel/${family}`,
    note: `${method} aimed at sentinel ${kind.def.resource} in ${S}`,
    method,
    path,
    headers,
    body,
    risky: true,
  };
};

/** Every method on every path shape of a kind, with plausible bodies (the verbs a resource declares decide 2xx or 405). */
export const methodMatrix: Generator = (rng, ctx, index) => {
  const k = rng.pick(servedKinds);
  const shapes = [
    ['cluster-collection', collectionPath(k)],
    ['namespaced-collection', collectionPath(k, ctx.fuzzNs)],
    ['object', objectPath(k, ctx.fuzzNs, rng.pick(['fz-target', `fz-${index}`]))],
    ['watch', `${k.base}/watch/${k.def.namespaced ? `namespaces/${ctx.fuzzNs}/` : ''}${k.def.resource}`],
    ['subresource', `${objectPath(k, ctx.fuzzNs, 'fz-target')}/${rng.pick(k.def.subresources.map((s) => s.name).concat(['status']))}`],
  ] as const;
  const [shape, basePath] = shapes[index % shapes.length];
  const method = METHODS[Math.floor(index / shapes.length) % METHODS.length];
  let path = basePath;
  if (method === 'DELETE' && shape !== 'object' && shape !== 'subresource') path = withQuery(path, SAFE_SELECTOR);
  if (method === 'GET' && shape === 'watch') path = withQuery(path, 'timeoutSeconds=1');
  const { headers, body } = bodyFor(rng, ctx, k, method, index);
  return {
    generator: `method/${shape}`,
    note: `${method} on the ${shape} of ${k.apiVersion} ${k.def.resource}`,
    method,
    path,
    headers: { accept: 'application/json', ...headers },
    body,
    stream: method === 'GET' && shape === 'watch',
    connect: shape === 'subresource' && /\/(proxy|exec|attach|portforward|log)$/.test(path),
  };
};
