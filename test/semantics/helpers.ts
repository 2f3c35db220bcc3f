// Shared by the semantics tests: an in-process server and small request
// helpers that return status code and parsed body.

import { startServer, type RunningServer } from '../../runtime/index.ts';

export interface Reply {
  code: number;
  body: any;
}

export async function server(opts: Parameters<typeof startServer>[0] = {}): Promise<RunningServer> {
  return startServer({ authorizationMode: ['AlwaysAllow'], port: 0, ...opts });
}

export async function call(s: RunningServer, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
  const res = await s.app.request(path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': contentType },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* text */
  }
  return { code: res.status, body: parsed };
}

/** Field paths of the causes of a 422. */
export function causeFields(r: Reply): string[] {
  return (r.body?.details?.causes ?? []).map((c: any) => c.field);
}

export function causeMessages(r: Reply): string[] {
  return (r.body?.details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`);
}

export async function until(cond: () => Promise<boolean>, ms = 5000, step = 25): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, step));
  }
  throw new Error('condition not met in time');
}
