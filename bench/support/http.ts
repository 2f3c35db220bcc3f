// A bench's own HTTP client calls: a GET over one kept-alive connection that
// returns the raw bytes and the time to the last byte (no parsing), a JSON
// POST, and autocannon with the figures' defaults.

import autocannon from 'autocannon';
import { Agent, request } from 'node:http';

export interface RawResponse {
  status: number;
  contentType: string;
  body: Buffer;
  /** The response's header lines as received (name, value, name, value, ...). */
  rawHeaders: string[];
  /** From the request being sent to the response's last byte, ms. */
  ms: number;
}

/** One kept-alive connection, so that timed requests pay no connection set-up. */
export const oneConnection = (): Agent => new Agent({ keepAlive: true, maxSockets: 1 });

/** GET url with the given headers; the body is collected as raw chunks, never parsed. */
export function rawGet(url: string, agent: Agent, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - t0;
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks), rawHeaders: res.rawHeaders, ms });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * GET url until the answer is 200 in the media type asked for (an older
 * checkout measured with --before loaded its protobuf code in the background
 * after start and answered JSON until then), at most `tries` times 50 ms apart.
 */
export async function getAs(url: string, agent: Agent, accept: string, tries = 100): Promise<RawResponse> {
  for (let i = 1; ; i++) {
    const r = await rawGet(url, agent, { accept });
    if (r.status === 200 && r.contentType.startsWith(accept)) return r;
    if (i >= tries) throw new Error(`GET ${url} (accept ${accept}) answered ${r.status} ${r.contentType}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/**
 * A response's header block reduced to what two servers sending the same
 * bytes share: each header's name (lower-cased) and its value's length, in
 * the order sent, without Date (the clock's) and the connection headers.
 */
export function headerShape(r: RawResponse): string {
  const out: string[] = [];
  for (let i = 0; i < r.rawHeaders.length; i += 2) {
    const name = r.rawHeaders[i].toLowerCase();
    if (name === 'date' || name === 'connection' || name === 'keep-alive') continue;
    out.push(`${name}:${r.rawHeaders[i + 1].length}`);
  }
  return out.sort().join(' ');
}

/** POST a JSON body; throws unless the answer is 2xx. Returns the answer's body. */
export async function postJSON(url: string, body: unknown): Promise<string> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await r.text();
  if (r.status < 200 || r.status > 299) throw new Error(`POST ${url}: ${r.status} ${text.slice(0, 300)}`);
  return text;
}

/** autocannon that throws on any non-2xx answer or error (a figure of failures is no figure). */
export async function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  const r = await autocannon({ pipelining: 1, ...opts });
  if (r.non2xx || r.errors) throw new Error(`${opts.method ?? 'GET'} ${opts.url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return r;
}

/**
 * Creates `count` objects with POSTs over `connections` connections (autocannon
 * with a fixed amount); make(i) is the i-th object, i counting from `from`.
 */
export async function createMany(collectionURL: string, count: number, make: (i: number) => unknown, connections = 32, from = 0): Promise<void> {
  let i = from;
  await cannon({
    url: collectionURL,
    connections,
    amount: count,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify(make(i++)) }) }],
  });
}
