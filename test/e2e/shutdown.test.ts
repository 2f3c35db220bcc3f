// End-to-end: graceful termination of a real server process. A write whose
// body is still being sent when SIGTERM arrives completes with 201; while it
// is in flight the server no longer accepts connections; an open watch gets
// the write's event and then a normal end of its chunked response (not a
// reset); the process exits 0.
import type http from 'node:http';
import https from 'node:https';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process.ts';
import { serverFetch, tlsFor } from '../support/server-fetch.ts';

const CM = '/api/v1/namespaces/default/configmaps';

async function waitFor(cond: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The CA and admin certificate of the server at url (node:https options). */
const tlsOptions = (url: string) => {
  const t = tlsFor(url)!;
  return { ca: t.caPEM, cert: t.certPEM, key: t.keyPEM };
};

/** A watch over HTTP/1.1 (TLS), recording its events and how the response ended. */
async function openWatch(url: string): Promise<{ events: any[]; ended: Promise<string> }> {
  const events: any[] = [];
  let buf = '';
  const req = https.get(url, tlsOptions(url));
  const res: http.IncomingMessage = (await once(req, 'response'))[0];
  expect(res.statusCode).toBe(200);
  const ended = new Promise<string>((resolve) => {
    res.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        events.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    });
    res.on('end', () => resolve(res.complete ? 'end' : 'incomplete'));
    res.on('aborted', () => resolve('aborted'));
    res.on('error', (e) => resolve(`error: ${e.message}`));
    req.on('error', (e) => resolve(`error: ${e.message}`));
  });
  return { events, ended };
}

describe('graceful shutdown', () => {
  it('finishes a write in flight at SIGTERM, refuses new connections meanwhile, ends watches cleanly, exits 0', async () => {
    const s = await startServerProcess();
    const u = new URL(s.url);
    const exited = new Promise<number | null>((resolve) => s.proc.on('exit', (code) => resolve(code)));

    const watch = await openWatch(`${s.url}${CM}?watch=true`);

    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'in-flight' }, data: { a: 'b'.repeat(4000) } });
    const half = Math.floor(body.length / 2);
    const post = https.request({
      host: u.hostname,
      port: u.port,
      method: 'POST',
      path: CM,
      ...tlsOptions(s.url),
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
    });
    const response = once(post, 'response');
    post.flushHeaders();
    // "100 Continue" comes once the server has read the headers and handed the request on
    await once(post, 'continue');
    post.write(body.slice(0, half));

    s.proc.kill('SIGTERM');
    await waitFor(() => s.output().includes('stopped listening; waiting for 1 request(s) in flight'), 'the drain to start');
    // no new connections while draining
    await expect(serverFetch(`${s.url}/readyz`)).rejects.toThrow();

    post.end(body.slice(half));
    const res: http.IncomingMessage = (await response)[0];
    let text = '';
    for await (const chunk of res) text += chunk;
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(text).metadata.name).toBe('in-flight');

    expect(await watch.ended).toBe('end');
    expect(watch.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toContain('ADDED in-flight');
    expect(await exited).toBe(0);
    expect(s.output()).toContain('stopped\n');
  });
});
