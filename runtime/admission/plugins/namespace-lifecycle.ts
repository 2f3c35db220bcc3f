// NamespaceLifecycle admission: new namespaced objects need an existing
// namespace (404 otherwise) that is not being deleted (403 with a
// NamespaceTerminating cause). A mutating plugin, first in the chain, as
// upstream: later plugins (ServiceAccount) never see a create into a
// missing or terminating namespace. Deleting the immortal namespaces is
// refused by the namespace strategy (its delete check runs before admission).
//
// As upstream's plugin reads its informer's lister first, the namespace is
// read from the watch cache as it stands (resourceVersion 0: no round trip
// to the store, which on etcd without reliable progress requests a
// consistent read would be). A namespace found there and active is enough.
// A live (consistent) read decides when the cache does not: the namespace is
// missing there (created a moment ago, perhaps through another server whose
// write the cache has not seen yet), it is terminating there (it may be gone
// and made again), or it was deleted through this server in the last 30
// seconds (upstream's forced live lookup: the cache may still show it
// active; after a deletecollection of namespaces, which names none, every
// namespace). The plugin sees those deletes because it handles the DELETE
// of a namespace too. Where the namespaces' store hands out their served JSON, a
// namespace is parsed once per stored version, not once per create into it.

import { ApiError, errors } from '../../api/errors.ts';
import { isPromise, type Maybe } from '../../api/maybe.ts';
import type { ApiIndex, ServedResource } from '../../registry/served.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';
import type { Obj } from '../../storage/interface.ts';

const NS_GR = { group: '', resource: 'namespaces' };

/** Namespaces kept at most (by name) with their served JSON and verdict; also the most deletes remembered. */
const SEEN_MAX = 4096;

/** How long after a namespace's delete was admitted its creates read it live (upstream's forceLiveLookupTTL). */
export const FORCE_LIVE_LOOKUP_MS = 30_000;

interface Seen {
  json: string;
  terminating: boolean;
}

/** What a read of the namespace found. */
type Found = 'active' | 'terminating' | 'missing';

/** The resourceVersion of a read from the cache as it stands; undefined: a consistent (live) read. */
const CACHED = '0';

export function namespaceLifecyclePlugin(api: ApiIndex, now: () => number = Date.now): AdmissionPlugin {
  const seen = new Map<string, Seen>();
  /** Namespaces deleted through this server lately: until when their creates read them live. */
  const liveUntil = new Map<string, number>();
  /** Until when every create reads its namespace live (a deletecollection of namespaces names none). */
  let allLiveUntil = 0;

  const forcedLive = (name: string): boolean => {
    if (allLiveUntil && now() < allLiveUntil) return true;
    const until = liveUntil.get(name);
    if (until === undefined) return false;
    if (now() < until) return true;
    liveUntil.delete(name);
    return false;
  };
  const noteDelete = (name: string): void => {
    if (!name) {
      allLiveUntil = now() + FORCE_LIVE_LOOKUP_MS;
      return;
    }
    if (liveUntil.size >= SEEN_MAX) {
      const t = now();
      for (const [n, until] of liveUntil) if (until <= t) liveUntil.delete(n);
      if (liveUntil.size >= SEEN_MAX) liveUntil.clear();
    }
    liveUntil.set(name, now() + FORCE_LIVE_LOOKUP_MS);
  };

  const decide = (attrs: AdmissionAttributes, found: Found): void => {
    if (found === 'missing') throw errors.notFound(NS_GR, attrs.namespace);
    if (found === 'terminating') {
      const why = `unable to create new content in namespace ${attrs.namespace} because it is being terminated`;
      const err = errors.forbidden({ group: attrs.group, resource: attrs.resource }, attrs.name, why);
      err.details!.causes = [{ reason: 'NamespaceTerminating', message: why, field: 'metadata.namespace' }];
      throw err;
    }
  };

  return {
    name: 'NamespaceLifecycle',
    // a PUT or apply that creates the object reaches admission as a CREATE too
    handles: (attrs) => (attrs.operation === 'CREATE' && !!attrs.namespace) || isNamespaceDelete(attrs),
    admit(attrs): Maybe<void> {
      if (isNamespaceDelete(attrs)) {
        noteDelete(attrs.name);
        return;
      }
      if (attrs.operation !== 'CREATE' || !attrs.namespace) return;
      const res = api.lookup(attrs.group, attrs.version, attrs.resource);
      if (!res || !res.def.namespaced) return;
      const nsRes = api.lookup('', 'v1', 'namespaces');
      if (!nsRes) return;
      const name = attrs.namespace;
      const live = () => {
        const found = readNamespace(nsRes, name, undefined, seen);
        return isPromise(found) ? found.then((f) => decide(attrs, f)) : decide(attrs, found);
      };
      if (forcedLive(name)) return live();
      const cached = readNamespace(nsRes, name, CACHED, seen);
      const then = (found: Found): Maybe<void> => (found === 'active' ? undefined : live());
      return isPromise(cached) ? cached.then(then) : then(cached);
    },
  };
}

function isNamespaceDelete(attrs: AdmissionAttributes): boolean {
  return attrs.operation === 'DELETE' && attrs.group === '' && attrs.resource === 'namespaces' && !attrs.subresource;
}

const terminatingObject = (ns: Obj): boolean => !!ns.metadata?.deletionTimestamp || ns.status?.phase === 'Terminating';

/** The namespace as a read at resourceVersion finds it; the store's other errors as they are. */
function readNamespace(nsRes: ServedResource, name: string, resourceVersion: string | undefined, seen: Map<string, Seen>): Maybe<Found> {
  const missing = (err: unknown): Found => {
    seen.delete(name);
    if (err instanceof ApiError && err.code === 404) return 'missing';
    throw err;
  };
  let enc;
  try {
    enc = nsRes.store.getEncoded('', name, resourceVersion);
  } catch (err) {
    return missing(err);
  }
  if (isPromise(enc)) return enc.then((e) => foundIn(nsRes, name, resourceVersion, e, seen), missing);
  return foundIn(nsRes, name, resourceVersion, enc, seen);
}

function foundIn(nsRes: ServedResource, name: string, resourceVersion: string | undefined, enc: { json: string } | undefined, seen: Map<string, Seen>): Maybe<Found> {
  if (!enc) {
    // a store that cannot hand out served JSON
    return nsRes.store.get('', name, resourceVersion).then(
      (ns) => (terminatingObject(ns) ? 'terminating' : 'active'),
      (err: unknown) => {
        if (err instanceof ApiError && err.code === 404) return 'missing';
        throw err;
      },
    );
  }
  const known = seen.get(name);
  if (known && known.json === enc.json) return known.terminating ? 'terminating' : 'active';
  const terminating = terminatingObject(JSON.parse(enc.json) as Obj);
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(name, { json: enc.json, terminating });
  return terminating ? 'terminating' : 'active';
}
