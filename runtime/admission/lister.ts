// How admission plugins read the objects they consult, as upstream's plugins
// read their informers' listers: from the watch cache as it stands
// (resourceVersion 0), with no round trip to the store; on etcd without
// reliable progress requests, a read that must be current (no
// resourceVersion) is an etcd range per call, which a plugin consulted on
// every create would add to each. A get that misses is asked again live (a
// consistent read): the object may have been created a moment ago, through
// this server or another, and the cache not have seen it yet (upstream's
// plugins make the same live lookup on a miss). With the watch cache off,
// both reads go to the store.

import { ApiError } from '../api/errors.ts';
import type { RegistryStore } from '../registry/store.ts';
import type { Obj } from '../storage/interface.ts';

/** The resourceVersion of a read served from the cache as it stands. */
export const FROM_CACHE = '0';

/** The object, undefined when it does not exist: from the cache, live when the cache misses. */
export async function cachedGet(store: RegistryStore, namespace: string, name: string): Promise<Obj | undefined> {
  return (await getOrUndefined(store, namespace, name, FROM_CACHE)) ?? getOrUndefined(store, namespace, name, undefined);
}

/** The objects of a namespace ('' for all, or a cluster-scoped resource) as the cache holds them. */
export async function cachedList(store: RegistryStore, namespace: string): Promise<Obj[]> {
  return (await store.list(namespace, { resourceVersion: FROM_CACHE })).items;
}

async function getOrUndefined(store: RegistryStore, namespace: string, name: string, resourceVersion: string | undefined): Promise<Obj | undefined> {
  try {
    return await store.get(namespace, name, resourceVersion);
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
}
