// What a restart writes. The built-ins read before they write: on the same
// data, port and flags nothing has changed, so the store's revision stays
// where it was, and no create or update even enters the registry pipeline
// (none that would end in 409 or change nothing: each would load validators);
// a bootstrap object that was deleted is created again (upstream reconciles
// its policy at every start), and only it. A first start issues its many
// creates together rather than one after the other (a durable commit then
// carries many of them).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import { startServer, type RunningServer, type StartOptions } from '../../runtime/index.ts';
import { RegistryStore } from '../../runtime/registry/store.ts';
import { openStorage } from '../../runtime/storage/factory.ts';
import { call, until } from './helpers.ts';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

// every request of the test is the cluster's admin (the TLS case has no client certificate in app.request)
const admin: RequestAuthenticator = { authenticate: async () => ({ user: { name: 'admin', groups: ['system:masters', 'system:authenticated'] } }) };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'restart-writes-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** The store's revision on disk (no server running). */
async function revisionOnDisk(): Promise<number> {
  const st = await openStorage({ dataDir: dir });
  try {
    return await st.kv.currentRevision();
  } finally {
    await st.close();
  }
}

/** The controllers' first work is done: every initial namespace has its default ServiceAccount (and kube-root-ca.crt over TLS). */
async function settled(s: RunningServer, tls: boolean): Promise<void> {
  for (const ns of NAMESPACES) {
    await until(async () => (await call(s, 'GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).code === 200);
    if (tls) await until(async () => (await call(s, 'GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).code === 200);
  }
}

/** Starts on `dir`, waits for the controllers, runs `fn`, stops; the port and the revision on disk after. */
async function run(opts: StartOptions, fn: (s: RunningServer) => Promise<void> = async () => {}): Promise<{ port: number; revision: number }> {
  const s = await startServer({ dataDir: dir, authenticators: [admin], ...opts });
  try {
    await settled(s, !opts.insecureServeHTTP);
    await fn(s);
  } finally {
    await s.stop();
  }
  return { port: s.port, revision: await revisionOnDisk() };
}

describe('a restart', () => {
  it.each<[string, StartOptions]>([
    ['TLS and the default authorization (Node,RBAC)', {}],
    ['plain HTTP, AlwaysAllow', { insecureServeHTTP: true, authorizationMode: ['AlwaysAllow'] }],
    ['with IPAddress objects mirrored (networking.k8s.io/v1beta1 on)', { insecureServeHTTP: true, authorizationMode: ['AlwaysAllow'], runtimeConfig: 'networking.k8s.io/v1beta1=true' }],
  ])('with nothing changed writes nothing: %s', async (_, opts) => {
    const first = await run(opts);
    expect(first.revision).toBeGreaterThan(100); // the first start wrote the bootstrap objects
    const writes = [vi.spyOn(RegistryStore.prototype, 'create'), vi.spyOn(RegistryStore.prototype, 'update'), vi.spyOn(RegistryStore.prototype, 'delete')];
    const again = await run({ ...opts, port: first.port });
    expect(again.revision).toBe(first.revision);
    expect(writes.map((w) => w.mock.calls.map((c) => `${c[0]}/${(c[1] as { metadata?: { name?: string } })?.metadata?.name ?? c[1]}`))).toEqual([[], [], []]);
    vi.restoreAllMocks();
    const third = await run({ ...opts, port: first.port });
    expect(third.revision).toBe(first.revision);
  });

  it('creates a deleted bootstrap ClusterRole again, and writes nothing else', async () => {
    const opts: StartOptions = { insecureServeHTTP: true, authorizationMode: ['AlwaysAllow'] };
    const first = await run(opts, async (s) => {
      expect((await call(s, 'DELETE', `${RBAC}/clusterroles/system:heapster`)).code).toBe(200);
    });
    const again = await run({ ...opts, port: first.port }, async (s) => {
      const r = await call(s, 'GET', `${RBAC}/clusterroles/system:heapster`);
      expect(r.code).toBe(200);
      expect(r.body.rules.length).toBeGreaterThan(0);
      expect(r.body.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate']).toBe('true');
    });
    expect(again.revision).toBe(first.revision + 1);
  });

  it('puts the kubernetes Endpoints and EndpointSlice right when the port changed, and writes nothing else', async () => {
    const opts: StartOptions = { insecureServeHTTP: true, authorizationMode: ['AlwaysAllow'] };
    const first = await run(opts);
    let port = 0;
    const again = await run(opts, async (s) => {
      port = s.port;
      const ep = await call(s, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes');
      expect(ep.body.subsets[0].ports[0].port).toBe(port);
    });
    expect(port).not.toBe(first.port);
    expect(again.revision).toBe(first.revision + 2);
  });
});

describe('a first start', () => {
  it('has its bootstrap creates in flight together', async () => {
    const create = RegistryStore.prototype.create;
    let inFlight = 0;
    let most = 0;
    vi.spyOn(RegistryStore.prototype, 'create').mockImplementation(function (this: RegistryStore, ...args: Parameters<RegistryStore['create']>) {
      most = Math.max(most, ++inFlight);
      return create.apply(this, args).finally(() => inFlight--);
    });
    const s = await startServer({ dataDir: dir, insecureServeHTTP: true, authorizationMode: ['AlwaysAllow'] });
    await s.stop();
    // the RBAC bootstrap policy alone is over a hundred objects
    expect(most).toBeGreaterThan(50);
  });
});
