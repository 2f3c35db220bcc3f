// One HTTP request with its target sent exactly as written (node:http does not
// resolve dot segments or drop a '#', as fetch and URL do), for tests of
// request paths and headers (over TLS with the credentials registered for a
// server started by the test, see server-fetch.ts). Resolves with the status, the text and, when the
// text is JSON, the parsed body.
import { request } from 'node:http';
import { request as tlsRequest } from 'node:https';
import { tlsFor } from './server-fetch.ts';

export interface RawResponse {
  status: number;
  text: string;
  json: any;
}

export function rawRequest(baseURL: string, method: string, path: string, opts: { body?: string; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<RawResponse> {
  const u = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const tls = u.protocol === 'https:' ? (tlsFor(baseURL) ?? {}) : undefined;
    const send = tls ? tlsRequest : request;
    const options = { host: u.hostname, port: u.port, method, path, headers: opts.headers ?? {}, ...(tls && { ca: tls.caPEM, cert: tls.certPEM, key: tls.keyPEM }) };
    const req = send(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    // a request the server never answers fails its test instead of hanging it
    req.setTimeout(opts.timeoutMs ?? 20_000, () => req.destroy(new Error(`no answer to ${method} ${path}`)));
    req.end(opts.body);
  });
}
