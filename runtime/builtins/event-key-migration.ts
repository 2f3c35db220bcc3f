// Start-up migration of the events.k8s.io Event keys of earlier versions.
// Before core v1 and events.k8s.io/v1 Events were one store, events.k8s.io
// Events were stored under their own group's key,
// `/registry/events.k8s.io/events/<ns>/<name>` (in etcd
// `<prefix>/events.k8s.io/events/...`, see storage/etcd/key-layout.ts). No
// store reads those keys now, so neither API serves them and the Event TTL
// never deletes them. At start, each one is moved into the Events store:
// converted to the storage version (core v1) and created under core's key
// with its identity kept (RegistryStore.createMoved), then the old key is
// deleted. Idempotent, and safe with several replicas starting at once: a
// create that finds the key present leaves the object there alone (another
// replica moved it, or a client wrote one of that name since), and an old
// key already deleted is skipped. The old key is deleted only at the
// resourceVersion that was read, so a run never deletes a write it did not
// see (an older replica still running); the next start finds that key again
// and, the Event being under core's key by then, deletes it.

import type { ApiIndex } from '../registry/served.ts';
import { keyRoot } from '../api/keys.ts';
import { NotFoundError, PreconditionError, type Storage } from '../storage/interface.ts';

/** Where earlier versions kept events.k8s.io Events. */
export const OLD_EVENTS_ROOT = keyRoot('events.k8s.io', 'events');

const PAGE = 500;

export interface MigrationResult {
  /** Old keys read. */
  found: number;
  /** Objects created under the store's key (the others were there already). */
  created: number;
  /** Old keys deleted by this run. */
  deleted: number;
}

/**
 * Moves every object under the old key root into the Events store; `old` is
 * the object layer that holds that root (no watch cache).
 */
export async function migrateOldEventKeys(api: ApiIndex, old: Storage, log?: (msg: string) => void): Promise<MigrationResult> {
  const result: MigrationResult = { found: 0, created: 0, deleted: 0 };
  const store = api.lookup('', 'v1', 'events')?.store;
  if (!store) return result;
  let cont: string | undefined;
  do {
    // each page at the latest revision: the keys this run deleted are gone from it
    const page = await old.list(OLD_EVENTS_ROOT, { limit: PAGE, continue: cont });
    for (const obj of page.items) {
      result.found++;
      const md = obj.metadata ?? {};
      try {
        if (await store.createMoved(obj)) result.created++;
      } catch (err) {
        // one object the store refuses (over its size limit) stays where it is and does not stop the start
        log?.(`events.k8s.io Event ${md.namespace}/${md.name} stored by an earlier version was not moved: ${(err as Error).message}`);
        continue;
      }
      const key = `${OLD_EVENTS_ROOT}${md.namespace ? `${md.namespace}/` : ''}${md.name}`;
      try {
        await old.delete(key, { preconditions: { resourceVersion: md.resourceVersion } });
        result.deleted++;
      } catch (err) {
        // deleted by another replica, or written again since it was read
        if (!(err instanceof NotFoundError) && !(err instanceof PreconditionError)) throw err;
      }
    }
    cont = page.continue || undefined;
  } while (cont);
  if (result.found) log?.(`moved ${result.created} of ${result.found} events.k8s.io Events stored under ${OLD_EVENTS_ROOT} by an earlier version to the Events store`);
  return result;
}
