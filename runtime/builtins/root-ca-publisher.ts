// kube-controller-manager's root CA publisher (`root-ca-cert-publisher` in
// --controllers, on by default), run in-process: every namespace has a
// ConfigMap `kube-root-ca.crt` whose `ca.crt` is the CA bundle clients
// verify the API server with (the one the tokens controller puts in legacy
// token Secrets), annotated `kubernetes.io/description` as upstream. It is
// created when a namespace appears, created again when deleted, and put
// back when edited. Writes go through the registry pipeline as the
// controller's service account. Over plain HTTP there is no CA: the server
// does not start it.

import { ApiError } from '../api/errors.ts';
import { ANNOTATION_DESCRIPTION, ROOT_CA_CONFIGMAP } from '../api/k8s-names.ts';
import type { ApiIndex } from '../registry/served.ts';
import { ROOT_CA_PUBLISHER_WRITER } from '../registry/write-services.ts';
import type { Obj } from '../storage/interface.ts';
import { ignoreStatus } from './ignore-status.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';

/** Upstream's description of the ConfigMap. */
export const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

const CA_KEY = 'ca.crt';

/**
 * The ConfigMap a namespace should have, given the one it has (undefined:
 * none): a new one to create, the live one corrected (data exactly
 * `ca.crt`, the description annotation present), or nothing to do. Other
 * annotations, labels and binaryData are left as they are, as upstream.
 */
export function planRootCAConfigMap(live: Obj | undefined, rootCA: string): { action: 'create' | 'update'; configMap: Obj } | { action: 'none' } {
  if (!live) {
    return {
      action: 'create',
      configMap: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ROOT_CA_CONFIGMAP, annotations: { [ANNOTATION_DESCRIPTION]: ROOT_CA_DESCRIPTION } }, data: { [CA_KEY]: rootCA } },
    };
  }
  const data = live.data;
  const dataRight = data && typeof data === 'object' && Object.keys(data).length === 1 && data[CA_KEY] === rootCA;
  const described = typeof live.metadata?.annotations?.[ANNOTATION_DESCRIPTION] === 'string' && live.metadata.annotations[ANNOTATION_DESCRIPTION] !== '';
  if (dataRight && described) return { action: 'none' };
  const configMap = structuredClone(live);
  configMap.data = { [CA_KEY]: rootCA };
  configMap.metadata.annotations = { ...configMap.metadata.annotations, [ANNOTATION_DESCRIPTION]: ROOT_CA_DESCRIPTION };
  return { action: 'update', configMap };
}

const terminating = (ns: Obj): boolean => !!ns.metadata?.deletionTimestamp || ns.status?.phase === 'Terminating';

export function startRootCAPublisher(api: ApiIndex, rootCA: string): WatchLoop | undefined {
  const namespaces = api.lookup('', 'v1', 'namespaces');
  const configMaps = api.lookup('', 'v1', 'configmaps');
  if (!namespaces || !configMaps) return undefined;
  const writer = { writer: ROOT_CA_PUBLISHER_WRITER };

  const sync = async (namespace: string): Promise<void> => {
    let live: Obj | undefined;
    try {
      live = await configMaps.store.get(namespace, ROOT_CA_CONFIGMAP);
    } catch (err) {
      ignoreStatus([404])(err);
    }
    const plan = planRootCAConfigMap(live, rootCA);
    if (plan.action === 'create') {
      // a namespace that is gone or terminating gets none (404, 403 from NamespaceLifecycle); 409: created meanwhile, its events follow
      await configMaps.store.create(namespace, plan.configMap, writer).catch(ignoreStatus([403, 404, 409]));
    } else if (plan.action === 'update') {
      await configMaps.store
        .update(
          namespace,
          ROOT_CA_CONFIGMAP,
          (current) => {
            if (!current) throw new ApiError(404, 'NotFound', `configmap ${ROOT_CA_CONFIGMAP} is gone`);
            const again = planRootCAConfigMap(current, rootCA);
            return again.action === 'update' ? again.configMap : current;
          },
          writer,
        )
        .catch(ignoreStatus([404, 409]));
    }
  };

  // one namespace at a time, each queued once until it is synced; a failed write is retried by the next event or resync
  const queued = new Set<string>();
  let running: Promise<void> = Promise.resolve();
  const enqueue = (namespace: string | undefined) => {
    if (!namespace || queued.has(namespace)) return;
    queued.add(namespace);
    running = running
      .then(() => {
        queued.delete(namespace);
        return sync(namespace);
      })
      .catch(() => {});
  };

  const nsLoop = startWatchLoop(namespaces.store, '', {
    resync: (items) => {
      for (const ns of items) if (!terminating(ns)) enqueue(ns.metadata?.name);
    },
    event: (ev) => {
      if (ev.type === 'ADDED' || (ev.type === 'MODIFIED' && !terminating(ev.object))) enqueue(ev.object.metadata?.name);
    },
  });
  // the ConfigMap deleted or edited: put back
  const cmLoop = startWatchLoop(configMaps.store, '', {
    resync: (items) => {
      for (const cm of items) if (cm.metadata?.name === ROOT_CA_CONFIGMAP) enqueue(cm.metadata.namespace);
    },
    event: (ev) => {
      if (ev.type !== 'ADDED' && ev.object.metadata?.name === ROOT_CA_CONFIGMAP) enqueue(ev.object.metadata.namespace);
    },
  });
  return {
    async stop() {
      await Promise.all([nsLoop.stop(), cmLoop.stop()]);
      await running;
    },
  };
}
