// The service-account controller's part users rely on: every namespace has
// a ServiceAccount named `default` (kube-controller-manager creates it when
// the namespace appears, and again if it is deleted). Runs in-process with
// the controller's identity; a namespace that is terminating gets none.

import { ApiError } from '../api/errors.ts';
import type { ApiIndex } from '../registry/served.ts';
import { SERVICE_ACCOUNT_CONTROLLER_WRITER } from '../registry/write-services.ts';
import type { Obj } from '../storage/interface.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

/** Reads a ServiceAccount for ServiceAccount admission (undefined when missing). */
export function serviceAccountLookup(api: ApiIndex): (namespace: string, name: string) => Promise<Obj | undefined> {
  return async (namespace, name) => {
    const res = api.lookup('', 'v1', 'serviceaccounts');
    if (!res) return undefined;
    try {
      return await res.store.get(namespace, name);
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  };
}

export function startServiceAccountController(api: ApiIndex): WatchLoop | undefined {
  const nsRes = api.lookup('', 'v1', 'namespaces');
  const saRes = api.lookup('', 'v1', 'serviceaccounts');
  if (!nsRes || !saRes) return undefined;

  const ensure = async (ns: Obj): Promise<void> => {
    const namespace: string = ns.metadata?.name;
    if (!namespace || ns.metadata?.deletionTimestamp || ns.status?.phase === 'Terminating') return;
    try {
      await saRes.store.create(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace } }, { writer: SERVICE_ACCOUNT_CONTROLLER_WRITER });
    } catch (err) {
      // it exists, or the namespace is going away (403 from namespace lifecycle admission)
      if (!(err instanceof ApiError && (err.code === 409 || err.code === 403 || err.code === 404))) throw err;
    }
  };
  const nsLoop = startWatchLoop(nsRes.store, '', {
    resync: async (items) => {
      for (const ns of items) await ensure(ns);
    },
    event: async (ev) => {
      if (ev.type === 'ADDED') await ensure(ev.object);
    },
  });
  // a deleted `default` account comes back
  const saLoop = startWatchLoop(saRes.store, '', {
    resync: () => {},
    event: async (ev) => {
      if (ev.type !== 'DELETED' || ev.object.metadata?.name !== DEFAULT_SERVICE_ACCOUNT) return;
      try {
        await ensure(await nsRes.store.get('', ev.object.metadata.namespace));
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    },
  });
  return {
    async stop() {
      await Promise.all([nsLoop.stop(), saLoop.stop()]);
    },
  };
}
