// One JSON request to an in-process server over its TLS socket, as the
// admin (its client certificate) or, given a token, as whoever the bearer
// token names (no client certificate). Resolves with the status, the parsed
// body (or the text) and the Warning header.
import { Agent, fetch as undiciFetch } from 'undici';
import type { RunningServer } from '../../runtime/index.ts';

export interface CallInit {
  method?: string;
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}
export interface CallResult {
  status: number;
  json: any;
  warnings: string | null;
}

export function serverCaller(s: RunningServer): (path: string, init?: CallInit) => Promise<CallResult> {
  const admin = new Agent({ connect: { ca: s.caPEM, cert: s.adminCredentials?.certPEM, key: s.adminCredentials?.keyPEM } });
  const bare = new Agent({ connect: { ca: s.caPEM } });
  return async (path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const res = await undiciFetch(`${s.url}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      dispatcher: init.token ? bare : admin,
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, json, warnings: res.headers.get('warning') };
  };
}
