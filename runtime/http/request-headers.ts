// The raw request as the stages read it: its target (the request line's
// path and query as sent, see request-info.ts) and its headers. Headers are
// read the way kube-apiserver's Go server does
// (http.Header.Get): the first field of that name, matched without regard
// to case, and "" for a field sent empty. Over a socket the value is found
// in node's raw header list, so no WHATWG Headers object (nor node's joined
// `headers` record, where duplicates of most fields become one value with
// ", ") is built for it; a request without a socket (app.request()) has only
// its Headers, whose repeated fields are already joined.

import type { Context } from 'hono';
import { splitTarget } from './request-info.ts';

/** The first value of `name` (lower-case) in a raw header list (`[name, value, name, value, ...]`). */
export function firstRawHeader(raw: readonly string[], name: string): string | undefined {
  const n = name.length;
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i];
    if (k.length === n && (k === name || k.toLowerCase() === name)) return raw[i + 1];
  }
  return undefined;
}

/** Node's request under a Hono context served by @hono/node-server (absent for app.request()). */
function incomingOf(c: Context): { rawHeaders: string[]; url?: string } | undefined {
  const incoming = (c.env as { incoming?: { rawHeaders?: string[]; url?: string } } | undefined)?.incoming;
  return incoming?.rawHeaders ? (incoming as { rawHeaders: string[]; url?: string }) : undefined;
}

/** The request's header `name` (lower-case), as Go's Header.Get reads it; undefined when absent. */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = incomingOf(c);
  if (incoming) return firstRawHeader(incoming.rawHeaders, name);
  return c.req.raw.headers.get(name) ?? undefined;
}

/** The request target split into raw path and query: node's request line as sent, or (app.request()) the URL's path and query. */
export function requestTarget(c: Context): { path: string; query: string } {
  const raw = incomingOf(c)?.url;
  if (raw !== undefined) return splitTarget(raw);
  const url = new URL(c.req.url);
  return splitTarget(`${url.pathname}${url.search}`);
}
