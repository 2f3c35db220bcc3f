// ComponentStatus: a read-only kind computed on each get or list from the
// server's own health — `etcd-0` from a storage read, `controller-manager`
// from the in-process controllers. Nothing is stored; writes are refused by
// the kind's verbs (get and list only).

import type { ComputedSource } from '../registry/store.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { Obj } from '../storage/interface.ts';

export type HealthProbe = () => Promise<void> | void;

function componentStatus(name: string, healthy: boolean, message: string, error?: string): Obj {
  const cond: Obj = { type: 'Healthy', status: healthy ? 'True' : 'False' };
  if (message) cond.message = message;
  if (error) cond.error = error;
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name }, conditions: [cond] };
}

export function componentStatusSource(probes: Record<string, HealthProbe>): ComputedSource {
  const probe = async (name: string): Promise<Obj> => {
    try {
      await probes[name]();
      return componentStatus(name, true, 'ok');
    } catch (err) {
      return componentStatus(name, false, '', err instanceof Error ? err.message : String(err));
    }
  };
  return {
    async get(_ns, name) {
      return Object.prototype.hasOwnProperty.call(probes, name) ? probe(name) : null;
    },
    async list() {
      return Promise.all(Object.keys(probes).sort().map(probe));
    },
  };
}

/** Installs the computed source on the ComponentStatus store, when the kind is served. */
export function installComponentStatus(api: ApiIndex, controllersAlive: () => boolean): void {
  const res = api.byKind('', 'ComponentStatus');
  if (!res) return;
  const ns = api.lookup('', 'v1', 'namespaces');
  res.store.computed = componentStatusSource({
    'controller-manager': () => {
      if (!controllersAlive()) throw new Error('the in-process controllers are stopped');
    },
    'etcd-0': async () => {
      if (ns) await ns.store.list('', { limit: 1 });
    },
  });
}
