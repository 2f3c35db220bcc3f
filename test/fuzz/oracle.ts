// The fuzz harness's judgement of one response. The rules, and why:
// - No 5xx. Exceptions, where they are kube-apiserver's right answer:
//   504 with reason Timeout (a request that ran past `?timeout=` or the
//   server's request timeout), and 503 or 500 on the connect subresources
//   (proxy, exec, attach, portforward, log), which reach a backend upstream
//   and answer 503 when there is none (a pod's proxy) or 500 when the
//   node's kubelet cannot be reached (no address, a failed dial). 429 is not a 5xx; it must carry
//   Retry-After.
// - Every error (4xx/5xx) is a Status: kind Status, apiVersion v1, status
//   Failure, code equal to the HTTP code, in JSON, or in YAML or protobuf
//   when the client asked for them. Accepted without a Status: the plain
//   `404 page not found` kube-apiserver sends for paths outside the API, 431
//   (headers too large; Go's server answers it in plain text too), and a
//   plain 400 for requests the HTTP layer refuses outright (malformed Host).
// - A 2xx body decodes in the Content-Type it claims (JSON, YAML, protobuf,
//   gzip).
// - No write succeeds through a path with a dot segment (`..`, `.`, `%2e`):
//   such a path must never be re-targeted to another object or collection.
// - No write succeeds on the cluster-wide collection of a namespaced
//   resource (`DELETE /api/v1/configmaps`): upstream serves only list and
//   watch there (405 otherwise).
// - Only a GET may turn into a stream (a watch); a response to anything
//   else that goes quiet without ending is a failure.
// - Warning headers are bounded as kube-apiserver bounds them: once their
//   text passes 4096 characters in total, each is cut to 256 characters
//   (k8s.io/apiserver, endpoints/filters/warning.go).
// Sentinel objects and readiness are checked by the harness, not here.

import { gunzipSync } from 'node:zlib';
import { parse as parseYAML } from 'yaml';
import type { KubeProtobuf } from '../../runtime/codec/protobuf/index.ts';
import type { FuzzCase } from './case.ts';
import type { SendResult } from './client.ts';
import { hasDotSegments } from './gen-paths.ts';
import { servedKinds } from './kinds.ts';

export interface Verdict {
  /** The rule that failed; undefined when the response is acceptable. */
  rule?: string;
  /** What the response said (Status message or body start), for grouping and the report. */
  message: string;
  status: number;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const clusterWideNamespaced = new Set(servedKinds.filter((k) => k.def.namespaced).map((k) => `${k.base}/${k.def.resource}`));

/** `DELETE /api/v1/configmaps` and the like (a trailing slash included). */
export function isClusterWideNamespacedCollection(path: string): boolean {
  return clusterWideNamespaced.has(path.split(/[?#]/)[0].replace(/\/+$/, ''));
}

function mediaOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

function decodeBody(body: Buffer, headers: Record<string, string>): Buffer {
  return headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

interface Decoded {
  value?: any;
  error?: string;
}

function decode(body: Buffer, media: string, codec?: KubeProtobuf): Decoded {
  try {
    if (media === 'application/json' || media.endsWith('+json')) return { value: JSON.parse(body.toString('utf8')) };
    if (media === 'application/yaml') return { value: parseYAML(body.toString('utf8')) };
    if (media === 'application/vnd.kubernetes.protobuf') {
      if (body.length < 4 || body.subarray(0, 4).toString('latin1') !== 'k8s\u0000') return { error: 'protobuf body without the k8s\\0 prefix' };
      return { value: codec ? codec.decode(new Uint8Array(body)) : { kind: body.includes('Status') ? 'Status' : 'unknown' } };
    }
    return { error: `undecodable content type ${JSON.stringify(media)}` };
  } catch (err) {
    return { error: `${media} body does not decode: ${(err as Error).message.slice(0, 120)}` };
  }
}

/** Media types the client's Accept allows an error in: JSON always (the fallback), YAML and protobuf when asked for. */
function acceptableErrorMedia(c: FuzzCase): Set<string> {
  const accept = (c.headers.accept ?? '').toLowerCase();
  const ok = new Set(['application/json']);
  if (accept.includes('application/yaml')) ok.add('application/yaml');
  if (accept.includes('application/vnd.kubernetes.protobuf')) ok.add('application/vnd.kubernetes.protobuf');
  return ok;
}

export function judge(c: FuzzCase, r: SendResult, codec?: KubeProtobuf): Verdict {
  if (r.kind === 'client-refused') return { message: `client refused: ${r.error}`, status: 0 };
  if (r.kind === 'no-response') return { rule: 'no-response', message: r.error, status: 0 };
  const { res } = r;
  const status = res.status;
  const media = mediaOf(res.headers['content-type']);
  let body: Buffer;
  try {
    body = decodeBody(res.body, res.headers);
  } catch (err) {
    return { rule: 'bad-gzip', message: (err as Error).message, status };
  }
  const text = body.subarray(0, 400).toString('utf8');
  if (res.incomplete) return { rule: 'incomplete-response', message: `${res.incomplete}: ${text.slice(0, 100)}`, status };
  if (res.unexpectedStream && c.method !== 'GET') return { rule: 'stream-for-a-write', message: `${c.method} answered ${status} and kept the response open: ${text.slice(0, 100)}`, status };
  const warn = checkWarnings(res.warnings);
  if (warn) return { rule: 'warning-not-truncated', message: warn, status };

  if (status >= 200 && status < 300) {
    const path = c.path;
    if (WRITES.has(c.method) && hasDotSegments(path)) {
      return { rule: 'write-through-dot-segment', message: `${c.method} answered ${status}`, status };
    }
    if (WRITES.has(c.method) && isClusterWideNamespacedCollection(path)) {
      return { rule: 'write-on-cluster-wide-collection', message: `${c.method} answered ${status}`, status };
    }
    if (res.streamed || c.method === 'HEAD' || status === 204 || body.length === 0) return { message: '', status };
    if (media === 'text/plain' || media === '') return { message: text.slice(0, 80), status }; // health-style endpoints
    const d = decode(body, media, codec);
    if (d.error) return { rule: 'bad-success-body', message: d.error, status };
    return { message: '', status };
  }

  if (status >= 300 && status < 400) return { message: res.headers.location ?? '', status };

  // errors
  if (status === 431) return { message: 'request header fields too large', status };
  if (status === 404 && media === 'text/plain' && text === '404 page not found\n') return { message: text.trim(), status };
  if (c.method === 'HEAD') return judgeCode(c, status, '(HEAD: no body)', res.headers);
  if (status === 400 && c.protocolReject && (media === '' || media === 'text/plain')) return { message: `HTTP layer: ${text.slice(0, 80)}`, status };
  if (body.length === 0) return { rule: 'error-without-status', message: `empty ${status} body (Content-Type ${JSON.stringify(media)})`, status };
  if (!acceptableErrorMedia(c).has(media)) {
    return { rule: 'error-without-status', message: `${status} as ${JSON.stringify(media)}: ${text.slice(0, 120)}`, status };
  }
  const d = decode(body, media, codec);
  if (d.error) return { rule: 'error-without-status', message: d.error, status };
  const s = d.value;
  if (!s || typeof s !== 'object' || s.kind !== 'Status') {
    return { rule: 'error-without-status', message: `${status} body of kind ${JSON.stringify(s?.kind)}: ${text.slice(0, 120)}`, status };
  }
  const message = String(s.message ?? '');
  if (s.code !== status || s.status !== 'Failure' || s.apiVersion !== 'v1') {
    return { rule: 'status-mismatch', message: `HTTP ${status}, Status code ${s.code}, status ${s.status}, apiVersion ${s.apiVersion}: ${message}`, status };
  }
  return judgeCode(c, status, message, res.headers, s.reason);
}

const WARNING_ITEM = /(\d{3}) (\S+) "((?:[^"\\]|\\.)*)"/g;

/** Texts of the Warning header items (`299 - "text"`), however they were split into lines. */
export function warningTexts(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) for (const m of line.matchAll(WARNING_ITEM)) out.push(m[3].replace(/\\(.)/g, '$1'));
  return out;
}

/** Upstream keeps the total at 4096 characters, or cuts every item to 256 beyond that. */
export function checkWarnings(lines: string[]): string | undefined {
  const texts = warningTexts(lines);
  const runes = (t: string) => [...t].length;
  const total = texts.reduce((s, t) => s + runes(t), 0);
  if (total <= 4096) return undefined;
  const long = texts.find((t) => runes(t) > 256 + 3);
  if (!long) return undefined;
  return `${texts.length} warnings of ${total} characters, one of ${runes(long)}: ${long.slice(0, 80)}`;
}

function judgeCode(c: FuzzCase, status: number, message: string, headers: Record<string, string>, reason?: string): Verdict {
  if (status === 429 && !headers['retry-after']) return { rule: '429-without-retry-after', message, status };
  if (status < 500) return { message, status };
  if (status === 504 && (reason === 'Timeout' || c.method === 'HEAD')) return { message, status };
  if ((status === 503 || status === 500) && c.connect) return { message, status };
  return { rule: `server-error-${status}`, message, status };
}

/** A message with its variable parts blanked, to group failures of one cause. */
export function normalizeMessage(m: string): string {
  return m
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\b[0-9a-f]{8}-[0-9a-f-]{27}\b/g, 'UID')
    .replace(/\d+/g, 'N')
    .replace(/fz-N/g, 'NAME')
    .slice(0, 140);
}
