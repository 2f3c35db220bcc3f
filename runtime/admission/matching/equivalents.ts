// Equivalent resources for matchPolicy Equivalent (upstream's
// EquivalentResourceMapper): the served resources bound to one store, which
// are one set of stored objects: the versions of a group and resource, and
// a resource of another group stored with them (events.k8s.io `events` with
// core `events`, as their conversion declares). Also the kind served at a
// resource's subresource (Scale for scale), which a request converted to an
// equivalent is sent as, and the conversion of the request's objects into
// that equivalent's version by their store (its generated or declared
// conversions; a custom resource's converter).

import type { ApiIndex } from '../../registry/served.ts';
import type { Maybe } from '../../api/maybe.ts';
import type { Obj } from '../../storage/interface.ts';
import type { GroupVersionKind, GroupVersionResource } from './rules.ts';

export interface ResourceMapper {
  /** The served resources equivalent to gvr (gvr included) that serve the subresource, in the index's order. */
  equivalentsFor(gvr: GroupVersionResource, subresource: string): GroupVersionResource[];
  /** The kind served at gvr's subresource (or gvr itself for ''); undefined when not served. */
  kindFor(gvr: GroupVersionResource, subresource: string): GroupVersionKind | undefined;
  /** An object of gvr's store in `apiVersion` (one of its equivalents' versions); the object itself when it is in it already. */
  convert(gvr: GroupVersionResource, obj: Obj, apiVersion: string): Maybe<Obj>;
}

/** The mapper over what the server serves now (custom resources included; rebuilt when the index changes). */
export function apiResourceMapper(api: ApiIndex): ResourceMapper {
  let byStore: Map<unknown, ApiIndex['served']> | undefined;
  api.onChange(() => {
    byStore = undefined;
  });
  const index = () => {
    if (byStore) return byStore;
    byStore = new Map();
    for (const s of api.served) {
      let list = byStore.get(s.store);
      if (!list) byStore.set(s.store, (list = []));
      list.push(s);
    }
    return byStore;
  };
  const serves = (s: ApiIndex['served'][number], sub: string) => sub === '' || s.def.subresources.some((x) => x.name === sub);
  return {
    equivalentsFor(gvr, subresource) {
      const own = api.served.find((s) => s.def.group === gvr.group && s.def.resource === gvr.resource);
      const list = own ? (index().get(own.store) ?? []) : [];
      return list.filter((s) => serves(s, subresource)).map((s) => ({ group: s.def.group, version: s.def.version, resource: s.def.resource }));
    },
    kindFor(gvr, subresource) {
      const s = api.lookup(gvr.group, gvr.version, gvr.resource);
      if (!s) return undefined;
      if (subresource === '') return { group: s.def.group, version: s.def.version, kind: s.def.kind };
      const sub = s.def.subresources.find((x) => x.name === subresource);
      if (!sub) return undefined;
      return { group: sub.group ?? s.def.group, version: sub.version ?? s.def.version, kind: sub.kind };
    },
    convert(gvr, obj, apiVersion) {
      const s = api.lookup(gvr.group, gvr.version, gvr.resource);
      if (!s || obj.apiVersion === apiVersion) return obj;
      // a copy: the store keeps what it converted per source object, and admission changes this one in place
      return s.store.inVersion(structuredClone(obj), apiVersion);
    },
  };
}
