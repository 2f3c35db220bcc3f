// The baseline processes do what the benches' headers say: bare Hono serves
// exactly the bytes it was given (protobuf when asked for), over HTTPS with
// the key and certificate given after --tls; the bare fan-out server writes
// each POSTed body to every open stream as an event line after appending it
// to its file; bare-node answers every request with the same JSON; the raw
// SQLite baseline commits rows.
// No timing is asserted.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oneConnection, rawGet } from '../support/http.ts';
import { baseline, root, spawnBaseline, waitReady } from '../support/servers.ts';
import { createCA, issueCertificate } from '../../runtime/auth/pki/certs.ts';

const scratch = mkdtempSync(join(tmpdir(), 'bench-baselines-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('bare-hono.mjs', () => {
  it('answers every GET with the given bytes, the protobuf ones when Accept names protobuf', async () => {
    const json = Buffer.from('{"kind":"ConfigMap","metadata":{"name":"x","managedFields":[]}}');
    const pb = Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x00, 0xff]);
    writeFileSync(join(scratch, 'o.json'), json);
    writeFileSync(join(scratch, 'o.pb'), pb);
    const bare = await spawnBaseline('bare-hono.mjs', [join(scratch, 'o.json'), join(scratch, 'o.pb')]);
    const agent = oneConnection();
    try {
      const cases: [Record<string, string>, Buffer, string][] = [
        [{}, json, 'application/json'],
        [{ accept: 'application/json' }, json, 'application/json'],
        [{ accept: 'application/vnd.kubernetes.protobuf' }, pb, 'application/vnd.kubernetes.protobuf'],
      ];
      for (const [headers, body, type] of cases) {
        const r = await rawGet(`${bare.url}/api/v1/namespaces/default/configmaps/x`, agent, headers);
        expect(r.status).toBe(200);
        expect(r.contentType).toBe(type);
        expect(r.body.equals(body)).toBe(true);
      }
      // our server's headers: Cache-Control, and an Audit-Id that is a new UUID per answer
      const ids = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const r = await rawGet(`${bare.url}/api/v1/namespaces/default/configmaps/x`, agent);
        const h = Object.fromEntries(Array.from({ length: r.rawHeaders.length / 2 }, (_, j) => [r.rawHeaders[2 * j].toLowerCase(), r.rawHeaders[2 * j + 1]]));
        expect(h['cache-control']).toBe('no-cache, private');
        expect(h['audit-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        ids.add(h['audit-id']);
      }
      expect(ids.size).toBe(3);
      expect((await rawGet(`${bare.url}/readyz`, agent)).status).toBe(200);
    } finally {
      agent.destroy();
      await bare.stop();
    }
  });

  it('serves HTTPS with the key and certificate given after --tls', async () => {
    const ca = await createCA('bench-ca');
    const serving = await issueCertificate(ca, { commonName: 'bench', hosts: ['127.0.0.1'], usage: 'server', validityDays: 1 });
    writeFileSync(join(scratch, 'tls.key'), serving.keyPEM);
    writeFileSync(join(scratch, 'tls.crt'), serving.certPEM);
    const bare = await spawnBaseline('bare-hono.mjs', ['--tls', join(scratch, 'tls.key'), join(scratch, 'tls.crt')]);
    try {
      expect(bare.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      await waitReady(bare.url);
      const body = await new Promise<string>((resolve, reject) => {
        const req = httpsGet(`${bare.url}/x`, { ca: ca.certPEM, agent: false }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
      });
      expect(body).toBe('{}');
    } finally {
      await bare.stop();
    }
  });
});

describe('bare-node.mjs', () => {
  it('answers every request with the same ConfigMap JSON over http', async () => {
    const bare = await spawnBaseline('bare-node.mjs', ['http', scratch]);
    const agent = oneConnection();
    try {
      expect(bare.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      for (const path of ['/api/v1/namespaces/default/configmaps/bench', '/anything']) {
        const r = await rawGet(`${bare.url}${path}`, agent);
        expect(r.status).toBe(200);
        expect(r.contentType).toBe('application/json');
        expect(JSON.parse(r.body.toString())).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'bench' } });
      }
    } finally {
      agent.destroy();
      await bare.stop();
    }
  });
});

describe('bare-fanout.mjs', () => {
  it('writes each POSTed body to every open stream as one event line, after appending it to its file', async () => {
    const file = join(scratch, 'fanout.log');
    const bare = await spawnBaseline('bare-fanout.mjs', [file]);
    const controllers = [new AbortController(), new AbortController()];
    try {
      const streams = await Promise.all(controllers.map((c) => fetch(`${bare.url}/watch`, { signal: c.signal })));
      const body = '{"metadata":{"name":"a"}}';
      const posted = await fetch(`${bare.url}/write`, { method: 'POST', body });
      expect(posted.status).toBe(201);
      expect(await posted.text()).toBe(body);
      for (const s of streams) {
        const reader = s.body!.getReader();
        let text = '';
        while (!text.endsWith('\n')) text += Buffer.from((await reader.read()).value!).toString();
        expect(text).toBe(`{"type":"ADDED","object":${body}}\n`);
      }
      expect(readFileSync(file, 'utf8')).toBe(body);
    } finally {
      for (const c of controllers) c.abort();
      await bare.stop();
    }
  });
});

describe('raw-sqlite.mjs', () => {
  it('commits rows one at a time and says how many', () => {
    const r = spawnSync(process.execPath, [baseline('raw-sqlite.mjs'), join(scratch, 'raw.db'), '0.2', '500'], { cwd: root, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: number; seconds: number };
    expect(out.rows).toBeGreaterThan(0);
    expect(out.seconds).toBeGreaterThan(0);
  });
});
