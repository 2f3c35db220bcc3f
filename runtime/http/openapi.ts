// Serves the OpenAPI documents of the served API: /openapi/v2 (JSON, or the
// gnostic protobuf form for `application/com.github.proto-openapi.spec.v2...`,
// with kube-openapi's ETag, Last-Modified, Vary and 304s, gzipped as its
// gziphandler does, openapi/gzip.ts) and /openapi/v3 (never compressed)
// (index and one JSON document per served group-version, with ETags and
// 304s; a ?hash= is cached as immutable, a stale one redirected). Codegen precomputed the documents (generated/openapi) for
// every group-version it knows; they are cut to what --runtime-config serves
// (openapi/served.ts) on first use and kept until the served resources
// change (changed(): a CustomResourceDefinition's resources were served or
// dropped; their paths and schemas come from openapi/custom.ts), when they
// are built again with a new Last-Modified and so new ETags.

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Context } from 'hono';
import { errors } from '../api/errors.ts';
import { sendStatus } from './respond.ts';
import { requestHeader } from './request-headers.ts';
import { servedSet, servedV2, servedV3, type ServedResource } from './openapi/served.ts';
import { MEDIA_OPENAPI_V2_PROTOBUF, v2Form, v3JSONAcceptable } from './openapi/accept.ts';
import { notModified } from './openapi/conditional.ts';
import { GZIP_MIN_BYTES, GzipCache, acceptsGzipEncoding } from './openapi/gzip.ts';
import { v3Key } from '../schema/openapi-docs.ts';
import { customGroupVersions, customV2Additions, customV3Document, type CustomResourceDoc, type SchemaPool } from './openapi/custom.ts';

export interface OpenAPIServer {
  v2(c: Context): Response | Promise<Response>;
  v3Index(c: Context): Response;
  v3(c: Context): Response;
  /** The served resources changed: the documents are built again on the next request. */
  changed(): void;
}

export interface OpenAPIServed {
  /** The resources the server serves (every version of each), read again after changed(). */
  served: () => readonly ServedResource[];
  /** The custom resources served while running, with their schemas (none by default). */
  custom?: () => CustomResourceDoc[];
  /** Every resource the generated documents describe (served or not). */
  known: readonly ServedResource[];
  /** When the documents were built: their Last-Modified (default: now). */
  builtAt?: Date;
}

/** kube-openapi's ETag: SHA-512 of the JSON document, upper-case hex. */
export function documentHash(bytes: Uint8Array | string): string {
  return createHash('sha512').update(bytes).digest('hex').toUpperCase();
}

/** A pause that yields a turn of the event loop once `ms` of work went by since the last one. */
function timeSlices(ms: number): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < ms) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

interface Doc {
  bytes: Uint8Array;
  hash: string;
}

const encoder = new TextEncoder();

export function openAPIServer(dir: string, api: OpenAPIServed): OpenAPIServer {
  let served = api.served();
  let custom = api.custom?.() ?? [];
  let set = servedSet(served);
  let builtAt = api.builtAt ?? new Date();
  const read = (rel: string): Uint8Array | undefined => {
    const p = join(dir, rel);
    return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
  };
  const parse = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;

  // v2: the served cut of the full document, its protobuf form made on first ask (in slices of time)
  let v2: (Doc & { proto?: Promise<Uint8Array> }) | null | undefined;
  const loadV2 = () => {
    if (v2 === undefined) {
      const full = read('v2.json');
      if (!full) v2 = null;
      else {
        const doc = parse(full);
        if (custom.length) {
          const more = customV2Additions(custom, schemaPool());
          doc.paths = { ...(doc.paths as object), ...more.paths };
          doc.definitions = { ...(doc.definitions as object), ...more.definitions };
        }
        const bytes = encoder.encode(JSON.stringify(servedV2(doc, set)));
        v2 = { bytes, hash: documentHash(bytes) };
      }
    }
    return v2;
  };

  // v3: one document per served group-version; cut only when some of its resources are not served
  const v3Keys = new Map<string, { group: string; version: string }>();
  const whole = new Set<string>();
  let customKeys = new Map<string, { group: string; version: string }>();
  const keyV3 = () => {
    v3Keys.clear();
    whole.clear();
    for (const r of served) v3Keys.set(v3Key(r.group, r.version), { group: r.group, version: r.version });
    customKeys = customGroupVersions(custom);
    // resources per group-version, served and known, counted in one pass each
    const count = (list: readonly { group: string; version: string }[]) => {
      const n = new Map<string, number>();
      for (const r of list) {
        const key = v3Key(r.group, r.version);
        n.set(key, (n.get(key) ?? 0) + 1);
      }
      return n;
    };
    const [servedCounts, knownCounts] = [count(served), count(api.known)];
    for (const key of v3Keys.keys()) {
      if ((servedCounts.get(key) ?? 0) === (knownCounts.get(key) ?? 0) && !customKeys.has(key)) whole.add(key);
    }
  };
  keyV3();
  // the named schemas of every generated v3 document: what custom resources' documents refer to
  let pool: SchemaPool | undefined;
  const schemaPool = (): SchemaPool => {
    if (pool) return pool;
    pool = new Map();
    const docs = existsSync(join(dir, 'v3')) ? readdirSync(join(dir, 'v3')).filter((f) => f.endsWith('.json') && f !== 'index.json') : [];
    for (const f of docs.sort()) {
      const comps = parse(read(`v3/${f}`)!).components as { schemas?: Record<string, Record<string, unknown>> } | undefined;
      for (const [n, sch] of Object.entries(comps?.schemas ?? {})) if (!pool.has(n)) pool.set(n, sch);
    }
    return pool;
  };
  const v3Docs = new Map<string, Doc | null>();
  const loadV3 = (key: string): Doc | null => {
    let d = v3Docs.get(key);
    if (d === undefined) {
      const gv = customKeys.get(key);
      const file = gv ? encoder.encode(JSON.stringify(customV3Document(custom, schemaPool(), gv.group, gv.version))) : read(`v3/${key.replace(/\//g, '__')}.json`);
      if (!file || !v3Keys.has(key)) d = null;
      else {
        const bytes = whole.has(key) ? file : encoder.encode(JSON.stringify(servedV3(parse(file), set)));
        d = { bytes, hash: documentHash(bytes) };
      }
      v3Docs.set(key, d);
    }
    return d;
  };
  let v3Index: Doc | undefined;

  const gzipped = new GzipCache();
  /**
   * /openapi/v2's headers: gziphandler's Vary: Accept-Encoding first, then kube-openapi's Vary: Accept (one
   * header line here; a plain object lets the node adapter write the answer without adding a Content-Type).
   */
  const v2Headers = (extra: Record<string, string>): Record<string, string> => ({ Vary: 'Accept-Encoding, Accept', ...extra });
  /** A v2 body, gzipped when the client takes it and it is big enough. */
  const v2Body = (c: Context, bytes: Uint8Array, headers: Record<string, string>): Response | Promise<Response> => {
    if (c.req.method === 'HEAD' || bytes.byteLength < GZIP_MIN_BYTES || !acceptsGzipEncoding(requestHeader(c, 'accept-encoding'))) {
      return new Response(bytes as unknown as BodyInit, { headers });
    }
    headers['Content-Encoding'] = 'gzip';
    return gzipped.of(bytes).then((gz) => new Response(gz as unknown as BodyInit, { headers }));
  };
  const json = (bytes: Uint8Array, extra: Record<string, string> = {}) => new Response(bytes as unknown as BodyInit, { headers: { 'Content-Type': 'application/json', ...extra } });
  // an empty body, not null: the node adapter gives a null body a text/plain Content-Type
  const empty = (status: number, headers: Record<string, string>) => new Response(new Uint8Array(0), { status, headers });

  return {
    changed() {
      served = api.served();
      custom = api.custom?.() ?? [];
      set = servedSet(served);
      keyV3();
      v2 = undefined;
      v3Docs.clear();
      v3Index = undefined;
      // a new Last-Modified: clients holding the old documents see them change
      builtAt = new Date(Math.max(Date.now(), builtAt.getTime() + 1000));
    },
    v2(c) {
      const doc = loadV2();
      if (!doc) return sendStatus(errors.notFoundPath());
      const form = v2Form(requestHeader(c, 'accept'));
      // as kube-openapi: 406 with no body when neither JSON nor the protobuf form is acceptable
      if (!form) return new Response(new Uint8Array(0), { status: 406, headers: v2Headers({}) });
      const etag = `"${doc.hash}"`;
      const base = { Etag: etag, 'Cache-Control': 'no-cache, private' };
      if (notModified(requestHeader(c, 'if-none-match'), requestHeader(c, 'if-modified-since'), { etag, lastModified: builtAt })) {
        return new Response(new Uint8Array(0), { status: 304, headers: v2Headers(base) });
      }
      const headers = v2Headers({ ...base, 'Last-Modified': builtAt.toUTCString() });
      if (form === 'json') {
        headers['Content-Type'] = 'application/json';
        return v2Body(c, doc.bytes, headers);
      }
      headers['Content-Type'] = MEDIA_OPENAPI_V2_PROTOBUF;
      // the encoder (and the protobuf wire package under it) is loaded on the first protobuf request, not at start
      doc.proto ??= import('./openapi/gnostic.ts').then(({ encodeGnosticV2 }) => encodeGnosticV2(parse(doc.bytes), timeSlices(10)));
      return doc.proto.then((proto) => v2Body(c, proto, headers));
    },
    v3Index(c) {
      if (!v3Index) {
        const paths: Record<string, { serverRelativeURL: string }> = {};
        for (const key of [...v3Keys.keys()].sort()) {
          const d = loadV3(key);
          if (d) paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${d.hash}` };
        }
        const bytes = encoder.encode(JSON.stringify({ paths }));
        v3Index = { bytes, hash: documentHash(bytes) };
      }
      const etag = `"${v3Index.hash}"`;
      if (notModified(requestHeader(c, 'if-none-match'), undefined, { etag, lastModified: builtAt })) return empty(304, { Etag: etag, 'Cache-Control': 'no-cache, private' });
      return json(v3Index.bytes, { Etag: etag, 'Cache-Control': 'no-cache, private' });
    },
    v3(c) {
      const url = new URL(c.req.url);
      const key = url.pathname.replace(/^\/openapi\/v3\//, '');
      if (!/^[a-z0-9.\-/]+$/i.test(key) || key.includes('..')) return sendStatus(errors.notFoundPath());
      const d = loadV3(key);
      if (!d) return sendStatus(errors.notFoundPath());
      // kube-openapi's handler3: JSON (the protobuf form of v3 is not produced here), ETag, and for a ?hash=
      // the immutable caching headers, or a 301 to the current hash when it is another
      if (!v3JSONAcceptable(requestHeader(c, 'accept'))) return empty(406, { Vary: 'Accept' });
      const etag = `"${d.hash}"`;
      const headers: Record<string, string> = { Vary: 'Accept', Etag: etag };
      const hash = url.searchParams.get('hash');
      if (hash) {
        if (hash !== d.hash) return empty(301, { ...headers, 'Content-Type': 'application/json', Location: `/openapi/v3/${key}?hash=${d.hash}` });
        headers['Cache-Control'] = 'public, immutable';
        headers.Expires = new Date(Date.now() + 365 * 86400_000).toUTCString();
      } else headers['Cache-Control'] = 'no-cache, private';
      if (notModified(requestHeader(c, 'if-none-match'), requestHeader(c, 'if-modified-since'), { etag, lastModified: builtAt })) return empty(304, headers);
      return json(d.bytes, { ...headers, 'Last-Modified': builtAt.toUTCString() });
    },
  };
}
