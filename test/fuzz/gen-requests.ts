// Generators of otherwise ordinary requests with fuzzed parts: query
// parameters (every parameter kube-apiserver reads, with garbage values),
// subresources with any method and body, and odd headers (Content-Type,
// Accept, Content-Encoding, Host, huge and many headers).

import { gzipSync } from 'node:zlib';
import { type Generator, SAFE_SELECTOR, utf8, withQuery } from './case.ts';
import { collectionPath, type FuzzKind, objectPath, servedKinds, storedKinds } from './kinds.ts';
import { emit, oddValue } from './mutate.ts';
import { validObject } from './objects.ts';
import { DELETE_PARAMS, PATCH_PARAMS, queryString, READ_PARAMS, WRITE_PARAMS } from './params.ts';
import type { Rng } from './rng.ts';

const ACCEPTS = [
  'application/json',
  '*/*',
  '',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/vnd.kubernetes.protobuf, application/json',
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=Table;v=v1;g=meta.k8s.io, application/json',
  'application/json;as=Table;v=v1beta1;g=meta.k8s.io',
  'application/json;as=Table;v=v2;g=meta.k8s.io',
  'application/json;as=Table',
  'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  'application/yaml;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
  'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io',
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  'garbage',
  'application/xml',
  'text/html,application/xhtml+xml',
  'application/json;q=abc',
  'application/json;q=0',
  '*/*;q=0',
  'application/*',
  'APPLICATION/JSON',
  'application/json;stream=watch',
  'application/json, */*;q=0.5',
  ';;;',
  ',',
  'application/json;as=Table;v=v1;g=meta.k8s.io;q=0.9, application/yaml',
  new Array(1000).fill('application/x-fuzz').join(', '),
];

const CONTENT_TYPES = [
  '',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json;;',
  'APPLICATION/JSON',
  'text/plain',
  'application/xml',
  'application/json, application/yaml',
  'application/*',
  '*/*',
  'application/json; charset="',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/vnd.kubernetes.protobuf;stream=watch',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/apply-patch+cbor',
  'application/cbor',
  'application/yaml',
  ';',
  'application/json; x=' + 'y'.repeat(5000),
  '\u00ff',
];

/** Query-parameter fuzzing on reads, deletes and writes of collections and objects. */
export const queryParams: Generator = (rng, ctx, index) => {
  const k = rng.pick(servedKinds);
  const method = rng.weighted([
    [14, 'GET'],
    [3, 'DELETE'],
    [1, 'POST'],
    [1, 'PUT'],
    [1, 'PATCH'],
  ]);
  const shape = rng.pick(['namespaced-collection', 'cluster-collection', 'object', 'watch-path', 'sentinel-namespace']);
  let path: string;
  switch (shape) {
    case 'cluster-collection':
      path = collectionPath(k);
      break;
    case 'object':
      path = objectPath(k, ctx.fuzzNs, rng.chance(0.7) ? 'fz-target' : `fz-${index}`);
      break;
    case 'watch-path':
      path = `${k.base}/watch/${k.def.namespaced ? `namespaces/${ctx.fuzzNs}/` : ''}${k.def.resource}`;
      break;
    // reading the sentinels' namespace is harmless; writes there go to the run's namespace instead
    case 'sentinel-namespace':
      path = collectionPath(k, method === 'GET' ? rng.pick(ctx.sentinels.namespaces) : ctx.fuzzNs);
      break;
    default:
      path = collectionPath(k, ctx.fuzzNs);
  }
  const isObject = shape === 'object';
  const names = method === 'GET' ? READ_PARAMS : method === 'DELETE' ? DELETE_PARAMS : method === 'PATCH' ? PATCH_PARAMS : WRITE_PARAMS;
  const parts: string[] = [];
  // deletes of a collection outside the run's namespace reach only the harness's own objects
  const collectionDelete = method === 'DELETE' && !isObject;
  const confined = path.includes(`/namespaces/${ctx.fuzzNs}/`);
  if (collectionDelete && !confined) parts.push(SAFE_SELECTOR);
  let q = queryString(rng, rng.int(1, 5), names);
  if (collectionDelete && !confined)
    q = q
      .split('&')
      .filter((p) => !/^labelSelector=/.test(p))
      .join('&');
  parts.push(q);
  path = withQuery(path, ...parts);
  const query = path.split('?')[1] ?? '';
  const headers: Record<string, string> = { accept: rng.chance(0.6) ? 'application/json' : rng.pick(ACCEPTS) };
  if (!headers.accept) delete headers.accept;
  let body: Uint8Array | undefined;
  if (method === 'POST' || method === 'PUT') {
    headers['content-type'] = 'application/json';
    body = utf8(JSON.stringify(validObject(k, isObject ? path.split('?')[0].split('/').pop()! : `fz-${index}`, ctx.fuzzNs)));
  } else if (method === 'PATCH') {
    headers['content-type'] = rng.pick(['application/merge-patch+json', 'application/apply-patch+yaml']);
    body = utf8(JSON.stringify({ apiVersion: k.apiVersion, kind: k.def.kind, metadata: { name: 'fz-target', labels: { patched: 'yes' } } }));
  } else if (method === 'DELETE' && rng.chance(0.4)) {
    headers['content-type'] = 'application/json';
    body = utf8(emit(deleteOptions(rng)));
  }
  return {
    generator: `query/${method}-${shape}`,
    note: `${method} ${k.apiVersion} ${k.def.resource} with garbage query parameters`,
    method,
    path,
    headers,
    body,
    stream: method === 'GET' && (shape === 'watch-path' || /(^|&)watch=/.test(query)),
  };
};

/** A DeleteOptions body with fields of odd values. */
function deleteOptions(rng: Rng): Record<string, unknown> {
  const o: Record<string, unknown> = { kind: rng.pick(['DeleteOptions', 'Status', '', 'Pod']), apiVersion: rng.pick(['v1', 'meta.k8s.io/v1', 'x/y']) };
  const field = rng.pick(['gracePeriodSeconds', 'propagationPolicy', 'orphanDependents', 'dryRun', 'preconditions']);
  o[field] = field === 'preconditions' ? rng.pick<unknown>([{ uid: 'nope' }, { resourceVersion: '1' }, { uid: 7 }, 'x', { resourceVersion: '9223372036854775808' }]) : oddValue(rng);
  return o;
}

const SUBRESOURCES = [
  'status',
  'scale',
  'finalize',
  'exec',
  'log',
  'proxy',
  'binding',
  'eviction',
  'token',
  'ephemeralcontainers',
  'attach',
  'portforward',
  'approval',
  'nope',
  'status/extra',
  'proxy/a/b',
  'scale/',
];

/** Methods and bodies on subresources, declared or not. */
export const subresources: Generator = (rng, ctx, index) => {
  const withSubs = storedKinds.filter((k) => k.def.subresources.length > 0);
  const k: FuzzKind = rng.chance(0.8) ? rng.pick(withSubs) : rng.pick(storedKinds);
  const sub = rng.chance(0.6) && k.def.subresources.length ? rng.pick(k.def.subresources).name : rng.pick(SUBRESOURCES);
  const name = rng.chance(0.8) ? 'fz-target' : `fz-${index}`;
  const method = rng.pick(['GET', 'PUT', 'PATCH', 'POST', 'DELETE']);
  let path = `${objectPath(k, ctx.fuzzNs, name)}/${sub}`;
  if (rng.chance(0.3)) path = withQuery(path, queryString(rng, rng.int(1, 2), method === 'GET' ? READ_PARAMS : WRITE_PARAMS));
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: Uint8Array | undefined;
  if (method !== 'GET' && method !== 'DELETE') {
    const target = ctx.targets.find((t) => t.kind === k)?.object ?? validObject(k, name, ctx.fuzzNs);
    const candidates: unknown[] = [
      target,
      { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace: ctx.fuzzNs }, spec: { replicas: rng.pick<unknown>([3, -1, 2147483648, '3', null, 1.5]) } },
      { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ctx.fuzzNs } },
      { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: 'node-1' } },
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['x'], expirationSeconds: rng.pick([-1, 0, 600, 1e12]) } },
      { status: oddValue(rng) },
      { spec: { replicas: 2 } },
      oddValue(rng),
      { metadata: { name: 'other' } },
    ];
    body = utf8(emit(rng.pick(candidates)));
    headers['content-type'] =
      method === 'PATCH' ? rng.pick(['application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/json-patch+json', 'application/apply-patch+yaml']) : 'application/json';
    if (method === 'PATCH' && headers['content-type'] === 'application/json-patch+json') {
      body = utf8(JSON.stringify([{ op: rng.pick(['replace', 'add', 'remove']), path: rng.pick(['/spec/replicas', '/status', '/status/replicas', '/metadata/name']), value: oddValue(rng) }]));
    }
    if (method === 'PATCH' && headers['content-type'] === 'application/apply-patch+yaml') path = withQuery(path, 'fieldManager=fuzz');
  }
  const connect = ['exec', 'log', 'proxy', 'attach', 'portforward'].includes(sub.split('/')[0]);
  return {
    generator: `subresource/${sub.split('/')[0]}-${method}`,
    note: `${method} ${k.apiVersion} ${k.def.resource}/${sub}`,
    method,
    path,
    headers,
    body,
    connect,
  };
};

/** An ordinary request with odd headers. */
export const oddHeaders: Generator = (rng, ctx, index) => {
  const k = rng.pick(storedKinds.filter((x) => x.def.verbs.includes('create')));
  const op = rng.pick(['list', 'get', 'create', 'patch']);
  let method = 'GET';
  let path = collectionPath(k, ctx.fuzzNs);
  let body: Uint8Array | undefined;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (op === 'get') path = objectPath(k, ctx.fuzzNs, 'fz-target');
  if (op === 'create') {
    method = 'POST';
    body = utf8(JSON.stringify(validObject(k, `fz-${index}`, ctx.fuzzNs)));
    headers['content-type'] = 'application/json';
  }
  if (op === 'patch') {
    method = 'PATCH';
    path = objectPath(k, ctx.fuzzNs, 'fz-target');
    body = utf8(JSON.stringify({ metadata: { annotations: { 'fuzz.example.com/h': String(index) } } }));
    headers['content-type'] = 'application/merge-patch+json';
  }
  const what = rng.pick(['content-type', 'accept', 'accept-encoding', 'content-encoding', 'huge-header', 'many-headers', 'host', 'browser', 'auth', 'override', 'charset-body']);
  let protocolReject = false;
  let note: string;
  switch (what) {
    case 'content-type': {
      const ct = rng.pick(CONTENT_TYPES);
      if (ct) headers['content-type'] = ct;
      else delete headers['content-type'];
      if (!body && rng.chance(0.5)) {
        method = 'POST';
        body = utf8(JSON.stringify(validObject(k, `fz-${index}`, ctx.fuzzNs)));
      }
      note = `Content-Type ${JSON.stringify(ct.slice(0, 60))}`;
      break;
    }
    case 'accept': {
      const a = rng.pick(ACCEPTS);
      if (a) headers.accept = a;
      else delete headers.accept;
      note = `Accept ${JSON.stringify(a.slice(0, 60))}`;
      break;
    }
    case 'accept-encoding': {
      headers['accept-encoding'] = rng.pick(['gzip', 'br', '*', 'gzip;q=0', 'identity;q=0', 'gzip, deflate, br', 'x'.repeat(2000), 'GZIP']);
      note = `Accept-Encoding ${headers['accept-encoding'].slice(0, 30)}`;
      break;
    }
    case 'content-encoding': {
      const ce = rng.pick(['gzip', 'gzip-real', 'br', 'deflate', 'identity', 'x', 'gzip, gzip']);
      if (!body) {
        method = 'POST';
        path = collectionPath(k, ctx.fuzzNs);
        body = utf8(JSON.stringify(validObject(k, `fz-${index}`, ctx.fuzzNs)));
        headers['content-type'] = 'application/json';
      }
      if (ce === 'gzip-real') {
        body = new Uint8Array(gzipSync(body));
        headers['content-encoding'] = 'gzip';
      } else headers['content-encoding'] = ce;
      note = `Content-Encoding ${ce}`;
      break;
    }
    case 'huge-header': {
      const n = rng.pick([4_000, 15_000, 20_000, 100_000]);
      headers['x-fuzz'] = 'a'.repeat(n);
      note = `one header of ${n} bytes`;
      break;
    }
    case 'many-headers': {
      const n = rng.pick([100, 500, 2000]);
      for (let i = 0; i < n; i++) headers[`x-fuzz-${i}`] = 'v';
      note = `${n} headers`;
      break;
    }
    case 'host': {
      const h = rng.pick(['', 'evil.example', 'evil.example:6443', 'localhost', '127.0.0.1:1', '[::1]', 'a b', 'a/b', '@', 'x'.repeat(300), '127.0.0.1:99999', '[::1', 'a:b:c']);
      headers.host = h;
      protocolReject = !/^[a-z0-9.-]*(:\d{1,5})?$|^\[::1\]$/i.test(h) || h === '' || h === '127.0.0.1:99999';
      note = `Host ${JSON.stringify(h.slice(0, 40))}`;
      break;
    }
    case 'browser': {
      headers.origin = rng.pick(['http://evil.example', 'null', 'http://127.0.0.1', '']);
      headers['sec-fetch-site'] = rng.pick(['cross-site', 'same-site', 'same-origin', 'none', 'x']);
      headers.cookie = 'session=1';
      note = `Origin ${headers.origin} Sec-Fetch-Site ${headers['sec-fetch-site']}`;
      break;
    }
    case 'auth': {
      headers.authorization = rng.pick(['Bearer x', 'Bearer ', 'Basic !!!', 'Basic ' + Buffer.from('a:b').toString('base64'), 'Negotiate', 'x'.repeat(8000), 'Bearer ñ']);
      if (rng.chance(0.5)) headers['impersonate-user'] = rng.pick(['system:admin', '', 'ñ']);
      note = `Authorization ${headers.authorization.slice(0, 20)}`;
      break;
    }
    case 'override': {
      headers['x-http-method-override'] = rng.pick(['DELETE', 'PUT', 'PATCH']);
      headers['x-http-method'] = headers['x-http-method-override'];
      note = `method override ${headers['x-http-method-override']}`;
      break;
    }
    default: {
      // a JSON body in another charset
      method = 'POST';
      path = collectionPath(k, ctx.fuzzNs);
      headers['content-type'] = rng.pick(['application/json; charset=utf-16', 'application/json; charset=iso-8859-1']);
      body = new Uint8Array(Buffer.from(JSON.stringify(validObject(k, `fz-${index}`, ctx.fuzzNs)), 'utf16le'));
      note = `${headers['content-type']} body in UTF-16`;
    }
  }
  // Node's HTTP client refuses header values with control characters: keep to Latin-1 printable
  for (const [h, v] of Object.entries(headers)) headers[h] = v.replace(/[^\t\u0020-\u007e\u0080-\u00ff]/g, '?');
  return {
    generator: `headers/${what}`,
    note: `${method} ${k.apiVersion} ${k.def.resource}: ${note}`,
    method,
    path,
    headers,
    body,
    protocolReject,
  };
};
