// Objects that exist from the first start: the namespaces default,
// kube-system, kube-public and kube-node-lease. Creating one that exists is
// not an error (restarts on the same data); one that is stored already is
// not written again.

import { ApiError } from '../api/errors.ts';
import { INITIAL_NAMESPACES } from '../api/k8s-names.ts';
import type { ApiIndex } from '../registry/served.ts';
import { APISERVER_WRITER } from '../registry/write-services.ts';
import { storedOrNone } from './read-first.ts';

export async function bootstrapNamespaces(api: ApiIndex): Promise<void> {
  const ns = api.lookup('', 'v1', 'namespaces');
  if (!ns) return;
  // together: one durable commit carries the four creates of a first start
  await Promise.all(
    INITIAL_NAMESPACES.map(async (name) => {
      if (await storedOrNone(ns.store, '', name)) return;
      try {
        await ns.store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { writer: APISERVER_WRITER });
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 409)) throw err;
      }
    }),
  );
}
