// Equivalent resources for matchPolicy Equivalent (upstream's
// EquivalentResourceMapper): the served versions of a group and resource,
// which are one set of stored objects, plus the resources of other groups
// kube-apiserver stores under the same key (its storage prefix is the
// resource name, so core `events` and `events.k8s.io` `events` are one
// set). Also the kind served at a resource's subresource (Scale for scale),
// which a request converted to an equivalent is sent as.

import type { ApiIndex } from '../../registry/served.ts';
import type { GroupVersionKind, GroupVersionResource } from './rules.ts';

/** Resources of different groups that kube-apiserver 1.31 stores as one (group/resource pairs). */
export const CROSS_GROUP_EQUIVALENTS: readonly (readonly string[])[] = [['/events', 'events.k8s.io/events']];

export interface ResourceMapper {
  /** The served resources equivalent to gvr (gvr included) that serve the subresource, in the index's order. */
  equivalentsFor(gvr: GroupVersionResource, subresource: string): GroupVersionResource[];
  /** The kind served at gvr's subresource (or gvr itself for ''); undefined when not served. */
  kindFor(gvr: GroupVersionResource, subresource: string): GroupVersionKind | undefined;
}

function storageKey(group: string, resource: string): string {
  const gr = `${group}/${resource}`;
  for (const set of CROSS_GROUP_EQUIVALENTS) if (set.includes(gr)) return set[0];
  return gr;
}

/** The mapper over what the server serves now (custom resources included; rebuilt when the index changes). */
export function apiResourceMapper(api: ApiIndex): ResourceMapper {
  let byKey: Map<string, ApiIndex['served']> | undefined;
  api.onChange(() => {
    byKey = undefined;
  });
  const index = () => {
    if (byKey) return byKey;
    byKey = new Map();
    for (const s of api.served) {
      const k = storageKey(s.def.group, s.def.resource);
      let list = byKey.get(k);
      if (!list) byKey.set(k, (list = []));
      list.push(s);
    }
    return byKey;
  };
  const serves = (s: ApiIndex['served'][number], sub: string) => sub === '' || s.def.subresources.some((x) => x.name === sub);
  return {
    equivalentsFor(gvr, subresource) {
      const list = index().get(storageKey(gvr.group, gvr.resource)) ?? [];
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
  };
}
