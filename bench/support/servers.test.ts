// How the benches start servers: ours compiled from a checkout's dist/ (an
// older checkout without the build step under tsx), and getAs() waiting for
// the media type asked for.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAs, oneConnection } from './http.ts';
import { root, serverCommand, serverEntry } from './servers.ts';

describe('serverCommand', () => {
  it('runs this checkout compiled, by plain node', () => {
    expect(serverCommand()).toEqual([serverEntry(root)]);
    expect(serverEntry(root)).toBe(join(root, 'dist', 'cli.js'));
  });

  it('runs a checkout without the build step from its sources under tsx', () => {
    const old = mkdtempSync(join(tmpdir(), 'bench-old-checkout-'));
    try {
      expect(serverCommand(old)).toEqual(['--import', 'tsx', join(old, 'runtime', 'cli.ts')]);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });
});

describe('getAs', () => {
  // answers JSON to the first two requests, then what was asked for
  let served = 0;
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      served++;
      const type = served > 2 ? String(req.headers.accept) : 'application/json';
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': type });
      res.end('x');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('asks again until the answer has the media type asked for', async () => {
    const agent = oneConnection();
    const r = await getAs(`${url}/x`, agent, 'application/vnd.kubernetes.protobuf');
    agent.destroy();
    expect(r.contentType).toBe('application/vnd.kubernetes.protobuf');
    expect(served).toBe(3);
  });

  it('gives up after the tries given', async () => {
    const agent = oneConnection();
    await expect(getAs(`${url}/missing`, agent, 'application/json', 2)).rejects.toThrow(/answered 404/);
    agent.destroy();
  });
});
