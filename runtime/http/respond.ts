// Writing responses: objects and lists in the negotiated form (JSON, YAML,
// Table, PartialObjectMetadata), `pretty`, gzip above 128 KiB when the
// client accepts it, Warning headers, and Status errors.

import { gzipSync } from 'node:zlib';
import { yaml } from '../api/yaml.ts';
import type { ResourceDef } from '../../generated/api-types.ts';
import { GZIP_THRESHOLD_BYTES, MEDIA_JSON } from '../api/k8s-names.ts';
import type { Obj } from '../storage/interface.ts';
import { type CellFormatter, type IncludeObject, partialObjectMetadata, toTable } from '../table/convert.ts';
import type { Negotiated } from './negotiate.ts';
import { ApiError, type StatusBody } from '../api/errors.ts';
import { isAscii, warningHeaderValues } from './warnings.ts';

export interface ResponseOptions {
  status?: number;
  pretty?: boolean;
  acceptEncoding?: string | null;
  warnings?: string[];
  headers?: Record<string, string>;
}

const NO_WARNINGS: readonly string[] = [];

/**
 * Response headers: a plain object when possible, which lets @hono/node-server
 * write the response without building a WHATWG Headers object; a Headers
 * instance only when several Warning headers must be sent. Warning values
 * come from warnings.ts, which makes them valid header values whatever the
 * texts contain.
 */
export function responseHeaders(contentType: string, opts: ResponseOptions, extra?: Record<string, string>): Record<string, string> | Headers {
  const warnings = opts.warnings?.length ? warningHeaderValues(opts.warnings) : NO_WARNINGS;
  if (warnings.length <= 1) {
    const h: Record<string, string> = { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' };
    if (warnings.length) h.Warning = warnings[0];
    if (opts.headers) Object.assign(h, opts.headers);
    if (extra) Object.assign(h, extra);
    return h;
  }
  const h = new Headers({ 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' });
  for (const w of warnings) h.append('Warning', w);
  if (opts.headers) for (const [k, v] of Object.entries(opts.headers)) h.set(k, v);
  if (extra) for (const [k, v] of Object.entries(extra)) h.set(k, v);
  return h;
}

/**
 * Whether the client takes a gzipped answer: as kube-apiserver's
 * negotiateContentEncoding, one of the comma-separated tokens of
 * Accept-Encoding, trimmed, is exactly `gzip` (no q-values are weighed).
 */
export function acceptsGzip(header: string | null | undefined): boolean {
  if (!header) return false;
  for (const token of header.split(',')) if (token.trim() === 'gzip') return true;
  return false;
}

export function encodeBody(value: unknown, encoding: 'json' | 'yaml', pretty: boolean): string {
  if (encoding === 'yaml') return yaml().stringify(value, { lineWidth: 0 });
  return pretty ? `${JSON.stringify(value, null, 2)}\n` : `${JSON.stringify(value)}\n`;
}

/**
 * The body size a response made here carries (apiserver_response_sizes reads
 * it): a property of the response object, set once (a WeakMap entry per
 * response cost the garbage collector more).
 */
const BODY_SIZE = Symbol('bodySize');

type Sized = Response & { [BODY_SIZE]?: number };

/** The size in bytes of a response's body, when it was made here with its whole body. */
export function responseBodySize(res: Response): number | undefined {
  return (res as Sized)[BODY_SIZE];
}

function sized(res: Response, bytes: number): Response {
  (res as Sized)[BODY_SIZE] = bytes;
  return res;
}

export function send(text: string, contentType: string, opts: ResponseOptions): Response {
  const status = opts.status ?? 200;
  // Node writes the headers of a string body in the body's encoding: raw UTF-8 in a
  // Warning header needs a byte body to reach the wire as it is
  if (opts.warnings?.length && opts.warnings.some((w) => !isAscii(w))) {
    return sendBytes(Buffer.from(text, 'utf8'), contentType, opts);
  }
  // a UTF-8 string is at most 3 bytes per UTF-16 unit: only long ones can pass the threshold
  if (text.length * 3 > GZIP_THRESHOLD_BYTES && acceptsGzip(opts.acceptEncoding)) {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.byteLength > GZIP_THRESHOLD_BYTES) {
      const headers = responseHeaders(contentType, opts, { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
      const gzipped = gzipSync(bytes, { level: 1 });
      return sized(new Response(gzipped as unknown as BodyInit, { status, headers }), gzipped.byteLength);
    }
  }
  return sized(new Response(text, { status, headers: responseHeaders(contentType, opts) }), Buffer.byteLength(text));
}

/** Binary bodies (protobuf): gzipped above the threshold when the client accepts it. */
export function sendBytes(bytes: Uint8Array, contentType: string, opts: ResponseOptions): Response {
  const status = opts.status ?? 200;
  if (bytes.byteLength > GZIP_THRESHOLD_BYTES && acceptsGzip(opts.acceptEncoding)) {
    const headers = responseHeaders(contentType, opts, { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
    const gzipped = gzipSync(bytes, { level: 1 });
    return sized(new Response(gzipped as unknown as BodyInit, { status, headers }), gzipped.byteLength);
  }
  return sized(new Response(bytes as unknown as BodyInit, { status, headers: responseHeaders(contentType, opts) }), bytes.byteLength);
}

export function sendJSON(value: unknown, opts: ResponseOptions = {}): Response {
  return send(encodeBody(value, 'json', !!opts.pretty), MEDIA_JSON, opts);
}

export function sendStatus(err: ApiError, opts: ResponseOptions = {}): Response {
  const body: StatusBody = err.status();
  return send(encodeBody(body, 'json', !!opts.pretty), MEDIA_JSON, {
    ...opts,
    status: err.code,
    headers: { ...(opts.headers ?? {}), ...(err.headers ?? {}) },
  });
}

export interface TransformContext {
  def: ResourceDef;
  includeObject: IncludeObject;
  formatters: Record<string, CellFormatter>;
  /** Where a Table's cells are read from (RegistryStore.tableSource). */
  cellsFrom?: (obj: Obj) => Obj;
}

/** Applies the negotiated target (Table, PartialObjectMetadata...) to one object. */
export function transformObject(obj: Obj, neg: Negotiated, tc: TransformContext): unknown {
  switch (neg.target.as) {
    case 'Table':
      return toTable(tc.def, [obj], {
        includeObject: tc.includeObject,
        version: neg.target.version,
        formatters: tc.formatters,
        cellsFrom: tc.cellsFrom,
        listMeta: { resourceVersion: obj.metadata?.resourceVersion },
      });
    case 'PartialObjectMetadata':
      return partialObjectMetadata(obj, neg.target.version);
    default:
      return obj;
  }
}

/** Applies the negotiated target to a list (items and list metadata). */
export function transformList(list: Obj, neg: Negotiated, tc: TransformContext): unknown {
  switch (neg.target.as) {
    case 'Table':
      return toTable(tc.def, list.items, { includeObject: tc.includeObject, version: neg.target.version, formatters: tc.formatters, cellsFrom: tc.cellsFrom, listMeta: list.metadata });
    case 'PartialObjectMetadataList': {
      const version = neg.target.version;
      return {
        kind: 'PartialObjectMetadataList',
        apiVersion: `meta.k8s.io/${version}`,
        metadata: list.metadata,
        items: list.items.map((o: Obj) => partialObjectMetadata(o, version)),
      };
    }
    default:
      return list;
  }
}
