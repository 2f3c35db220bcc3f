// The service-account controller's part users rely on: every namespace has
// a ServiceAccount named `default` (kube-controller-manager creates it when
// the namespace appears, and again if it is deleted). Runs in-process with
// the controller's identity; a namespace that is terminating gets none.
// Also the ServiceAccount admission plugin's source of accounts, which
// waits for the controller's `default` when the controller runs.

import { ApiError } from '../api/errors.ts';
import type { ServiceAccountSource } from '../admission/plugins/service-account.ts';
import type { RegistryStore } from '../registry/store.ts';
import type { ApiIndex } from '../registry/served.ts';
import { SERVICE_ACCOUNT_CONTROLLER_WRITER } from '../registry/write-services.ts';
import type { Obj } from '../storage/interface.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';
import { cachedGet } from '../admission/lister.ts';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

/**
 * How long admission waits for an account the controller is about to create:
 * upstream asks ten times, 100-200 ms apart; a little longer here, for a busy
 * machine. The wait ends as soon as the account is stored.
 */
const AWAIT_ACCOUNT_MS = 5000;

const getOrUndefined = async (store: RegistryStore, namespace: string, name: string): Promise<Obj | undefined> => {
  try {
    return await store.get(namespace, name);
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
};

/**
 * Waits until the account `name` exists in `namespace`, or `expired`
 * settles (then undefined): a list, then a watch from the list's revision,
 * so an account stored in between is not missed.
 */
export async function awaitAccount(store: Pick<RegistryStore, 'list' | 'watch'>, namespace: string, name: string, expired: Promise<void>): Promise<Obj | undefined> {
  const list = await store.list(namespace, {});
  const found = list.items.find((sa) => sa.metadata?.name === name);
  if (found) return found;
  const watch = await store.watch(namespace, { resourceVersion: list.resourceVersion });
  let timedOut = false;
  void expired.then(() => {
    timedOut = true;
    watch.stop();
  });
  try {
    for await (const ev of watch) {
      if ((ev.type === 'ADDED' || ev.type === 'MODIFIED') && ev.object.metadata?.name === name) return ev.object;
      if (timedOut) break;
    }
  } finally {
    watch.stop();
  }
  return undefined;
}

/** The ServiceAccount admission plugin's accounts; with `awaitDefault` (the controller runs), a missing account is waited for. */
export function serviceAccountSource(api: ApiIndex, awaitDefault: boolean, waitMs = AWAIT_ACCOUNT_MS): ServiceAccountSource {
  const store = () => api.lookup('', 'v1', 'serviceaccounts')?.store;
  const source: ServiceAccountSource = {
    // from the watch cache as it stands, live when it misses (as upstream's plugin reads its lister)
    async get(namespace, name) {
      const s = store();
      return s ? cachedGet(s, namespace, name) : undefined;
    },
  };
  if (awaitDefault) {
    source.awaitCreated = async (namespace, name) => {
      const s = store();
      if (!s) return undefined;
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      });
      try {
        return await awaitAccount(s, namespace, name, expired);
      } finally {
        clearTimeout(timer);
      }
    };
  }
  return source;
}

export function startServiceAccountController(api: ApiIndex): WatchLoop | undefined {
  const nsRes = api.lookup('', 'v1', 'namespaces');
  const saRes = api.lookup('', 'v1', 'serviceaccounts');
  if (!nsRes || !saRes) return undefined;

  const ensure = async (ns: Obj): Promise<void> => {
    const namespace: string = ns.metadata?.name;
    if (!namespace || ns.metadata?.deletionTimestamp || ns.status?.phase === 'Terminating') return;
    // read first, as upstream's controller looks in its cache: a restart creates nothing that exists
    if (await getOrUndefined(saRes.store, namespace, DEFAULT_SERVICE_ACCOUNT)) return;
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
