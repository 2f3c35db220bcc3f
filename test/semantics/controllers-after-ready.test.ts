// The controllers (kube-controller-manager's upstream: namespace deletion,
// service accounts and their tokens, kube-root-ca.crt, CSR signing, bootstrap
// tokens, Event TTL, the garbage collector) start once the server is ready:
// none of them has read anything when the last step before readiness (adding
// the caller's admission plugins) runs, and startServer() still resolves only
// after they have started. ClusterRole aggregation, whose rules authorization
// reads, runs before.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdmissionChain, type AdmissionPlugin } from '../../runtime/admission/chain.ts';
import { GarbageCollector } from '../../runtime/gc/garbage-collector.ts';
import { RegistryStore } from '../../runtime/registry/store.ts';
import { call, server, until } from './helpers.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('controllers after readiness', () => {
  it('read nothing before the server is ready, and then do their work', async () => {
    const log: string[] = [];
    const marker: AdmissionPlugin = { name: 'marker' };
    const add = AdmissionChain.prototype.add;
    vi.spyOn(AdmissionChain.prototype, 'add').mockImplementation(function (this: AdmissionChain, p: AdmissionPlugin) {
      if (p === marker) log.push('ready');
      return add.call(this, p);
    });
    const list = RegistryStore.prototype.list;
    vi.spyOn(RegistryStore.prototype, 'list').mockImplementation(function (this: RegistryStore, ...args: Parameters<RegistryStore['list']>) {
      log.push(this.def.resource);
      return list.apply(this, args);
    });
    const gcStart = vi.spyOn(GarbageCollector.prototype, 'start');
    const s = await server({ admissionPlugins: [marker] });
    try {
      expect(gcStart).toHaveBeenCalledTimes(1);
      const ready = log.indexOf('ready');
      expect(ready).toBeGreaterThan(0);
      // the service account, token and CSR signing controllers' first lists
      for (const resource of ['serviceaccounts', 'secrets', 'certificatesigningrequests']) {
        expect(log.indexOf(resource), resource).toBeGreaterThan(ready);
      }
      // the bootstrap policy and the aggregation of admin, edit and view: before
      expect(log.indexOf('clusterroles')).toBeLessThan(ready);
      // they work: a new namespace gets its default ServiceAccount
      expect((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'after-ready' } })).code).toBe(201);
      await until(async () => (await call(s, 'GET', '/api/v1/namespaces/after-ready/serviceaccounts/default')).code === 200);
    } finally {
      await s.stop();
    }
  });
});
