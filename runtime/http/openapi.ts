// Serves the OpenAPI documents codegen precomputed (generated/openapi):
// /openapi/v2 and /openapi/v3 (index and one document per group-version,
// addressed with ?hash= for caching). Files are read once, on first use,
// and served as stored bytes.

import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'hono';
import { errors } from '../api/errors.ts';
import { sendStatus } from './respond.ts';
import { requestHeader } from './request-headers.ts';

export interface OpenAPIServer {
  v2(c: Context): Response;
  v3Index(c: Context): Response;
  v3(c: Context): Response;
}

export function openAPIServer(dir: string): OpenAPIServer {
  const cache = new Map<string, Uint8Array | null>();
  const load = (rel: string): Uint8Array | null => {
    if (!cache.has(rel)) {
      const p = join(dir, rel);
      cache.set(rel, existsSync(p) ? new Uint8Array(readFileSync(p)) : null);
    }
    return cache.get(rel)!;
  };
  const json = (bytes: Uint8Array | null, extra: Record<string, string> = {}) =>
    bytes ? new Response(bytes as unknown as BodyInit, { headers: { 'Content-Type': 'application/json', ...extra } }) : sendStatus(errors.notFoundPath());
  return {
    v2(c) {
      const accept = requestHeader(c, 'accept') ?? '';
      // the protobuf form of v2 is not produced; clients that list JSON as an alternative get JSON
      if (accept && !/application\/json|\*\/\*/.test(accept)) return sendStatus(errors.notAcceptable(['application/json']));
      return json(load('v2.json'));
    },
    v3Index() {
      return json(load('v3/index.json'));
    },
    v3(c) {
      const path = new URL(c.req.url).pathname.replace(/^\/openapi\/v3\//, '');
      if (!/^[a-z0-9.\-/]+$/i.test(path) || path.includes('..')) return sendStatus(errors.notFoundPath());
      const file = `v3/${path.replace(/\//g, '__')}.json`;
      const hashed = new URL(c.req.url).searchParams.has('hash');
      return json(load(file), hashed ? { 'Cache-Control': 'public, immutable', Expires: new Date(Date.now() + 365 * 86400_000).toUTCString() } : { 'Cache-Control': 'no-cache, private' });
    },
  };
}
