// etcd_request_duration_seconds for the store: wraps the key-value layer
// every storage above it calls (the SQLite revision log), so each call that
// reaches the database is timed once, whatever asked for it; reads the
// watch caches answer from memory never get here, as upstream's watch cache
// spares etcd. The object type is the group and resource of the key
// (`pods`, `deployments.apps`), as upstream labels it.

import type { KV, KVListOptions } from '../storage/interface.ts';

export type StoreObserver = (operation: string, type: string, seconds: number) => void;

/** `pods` for /registry/core/pods/..., `deployments.apps` for /registry/apps/deployments/... */
export function objectType(key: string): string {
  const parts = key.split('/', 4);
  if (parts[1] !== 'registry' || !parts[2]) return '';
  const group = parts[2];
  const resource = parts[3] ?? '';
  return group === 'core' ? resource : `${resource}.${group}`;
}

export function instrumentKV(kv: KV, observe: StoreObserver, now: () => number = () => performance.now()): KV {
  const timed = <T>(operation: string, key: string, call: Promise<T>, start: number): Promise<T> => {
    const done = () => observe(operation, objectType(key), (now() - start) / 1000);
    call.then(done, done);
    return call;
  };
  const wrapped: KV = {
    currentRevision: () => kv.currentRevision(),
    compactedRevision: () => kv.compactedRevision(),
    get: (key, revision) => timed('get', key, kv.get(key, revision), now()),
    list: (start: string, opts?: KVListOptions) => timed(opts?.count ? 'listWithCount' : 'list', start, kv.list(start, opts), now()),
    create: (key, value) => timed('create', key, kv.create(key, value), now()),
    update: (key, value, expected) => timed('update', key, kv.update(key, value, expected), now()),
    delete: (key, expected) => timed('delete', key, kv.delete(key, expected), now()),
    watch: (prefix, opts) => kv.watch(prefix, opts),
    compact: (revision) => kv.compact(revision),
    close: () => kv.close(),
  };
  if (kv.revisionNow) wrapped.revisionNow = () => kv.revisionNow!();
  return wrapped;
}
