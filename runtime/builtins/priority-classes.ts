// The built-in PriorityClasses system-node-critical and
// system-cluster-critical, created at start through the registry's write
// pipeline as kube-apiserver's scheduling bootstrap hook creates them; one
// that exists (a restart on the same data) is read, not written again.

import { ApiError } from '../api/errors.ts';
import type { ApiIndex } from '../registry/served.ts';
import { SYSTEM_PRIORITY_CLASSES } from '../registry/strategies/priorityclass.ts';
import { APISERVER_WRITER } from '../registry/write-services.ts';
import { storedOrNone } from './read-first.ts';

export async function bootstrapPriorityClasses(api: ApiIndex): Promise<void> {
  const res = api.lookup('scheduling.k8s.io', 'v1', 'priorityclasses');
  if (!res) return;
  for (const pc of SYSTEM_PRIORITY_CLASSES) {
    if (await storedOrNone(res.store, '', pc.name)) continue;
    const obj = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: pc.name }, value: pc.value, description: pc.description };
    try {
      await res.store.create('', obj, { writer: APISERVER_WRITER });
    } catch (err) {
      // another server sharing the store created it first
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    }
  }
}
