// What /readyz waits for at start: the bootstrap writers (namespaces, RBAC
// policy, priority classes), as upstream's post-start hooks gate it, but not
// the garbage collector, which upstream runs in kube-controller-manager. The
// collector's start is held open here; /readyz answers 200 meanwhile, and
// startServer() still resolves only after the collector has started.

import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GarbageCollector } from '../../runtime/gc/garbage-collector.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

let running: RunningServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await running?.stop();
  running = undefined;
});

describe('readiness at start', () => {
  it('does not wait for the garbage collector; startServer() does', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const gcStarting = new Promise<void>((r) => (entered = r));
    const original = GarbageCollector.prototype.start;
    vi.spyOn(GarbageCollector.prototype, 'start').mockImplementation(async function (this: GarbageCollector) {
      entered();
      await held;
      return original.call(this);
    });
    const port = await freePort();
    let resolved = false;
    const starting = startServer({ port, insecureServeHTTP: true, authorizationMode: ['AlwaysAllow'] }).then((s) => {
      resolved = true;
      running = s;
      return s;
    });
    await gcStarting;
    const res = await fetch(`http://127.0.0.1:${port}/readyz?verbose`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).toContain('[+]poststarthook/rbac/bootstrap-roles ok');
    expect(resolved).toBe(false);
    release();
    await starting;
    expect(resolved).toBe(true);
  });
});
