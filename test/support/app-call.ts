// JSON requests to an in-process server through its Hono app
// (app.request(): no socket, no TLS), and polling for what the server does
// on its own after a request (the CRD controller serving a new resource).
// A body that is not JSON (Go's plain-text 404 of an unserved group) comes
// back as `{ text }`.
import type { RunningServer } from '../../runtime/index.ts';

export type Json = Record<string, any>;

export interface AppCallResult {
  status: number;
  json: Json;
  headers: Headers;
}

export type AppCall = (method: string, path: string, body?: unknown, contentType?: string, headers?: Record<string, string>) => Promise<AppCallResult>;

/** A caller of the app of the server `server()` returns (read at each call: servers are started in beforeAll). */
export function appCaller(server: () => Pick<RunningServer, 'app'>): AppCall {
  return async (method, path, body, contentType = 'application/json', headers = {}) => {
    const init: RequestInit = { method, headers: { 'content-type': contentType, ...headers } };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const res = await server().app.request(path, init);
    const text = await res.text();
    let json: Json;
    try {
      json = JSON.parse(text) as Json;
    } catch {
      json = { text };
    }
    return { status: res.status, json, headers: res.headers };
  };
}

/** Polls until `check` returns a value; gives up after `rounds` rounds 10 ms apart (a bound for a hung test, not a timing assumption). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, rounds = 3000): Promise<T> {
  for (let i = 0; i < rounds; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never happened: ${what}`);
}

/** The first `n` events of a watch of `path` on the server's app (fewer if it ends first), `during` run once the watch is open. */
export async function watchUntil(server: Pick<RunningServer, 'app'>, path: string, n: number, during: () => Promise<void>): Promise<Json[]> {
  const res = await server.app.request(path);
  if (res.status !== 200) throw new Error(`watch ${path}: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  await during();
  let text = '';
  while (text.split('\n').filter((l) => l).length < n) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  return text
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l) as Json);
}
