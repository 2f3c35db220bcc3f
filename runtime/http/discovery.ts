// Discovery documents, computed from the served resources when first read
// and again after they change (servedChanged): the legacy
// forms (/api, /api/v1, /apis, /apis/<g>, /apis/<g>/<v>) and aggregated
// discovery (apidiscovery.k8s.io v2 APIGroupDiscoveryList), which kubectl
// 1.31 asks for first. Group and version order comes from the APIService
// priorities once the built-ins report them (Discovery.reorder, on change);
// before that a fixed group order. The server owns one Discovery object.

import { createHash } from 'node:crypto';
import type { ResourceDef } from '../../generated/api-types.ts';
import type { Served } from '../api/served-index.ts';
import { groupVersion } from '../api/keys.ts';

/** Order groups are listed in (kube-apiserver's group priorities); others follow by name. */
const GROUP_ORDER = [
  '',
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'resource.k8s.io',
  'storagemigration.k8s.io',
];

function groupRank(g: string): number {
  const i = GROUP_ORDER.indexOf(g);
  return i < 0 ? GROUP_ORDER.length : i;
}

/** Kubernetes' version priority: GA > beta > alpha, higher numbers first. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return { rank: 0, major: 0, minor: 0 };
    return { rank: m[2] === 'alpha' ? 1 : m[2] === 'beta' ? 2 : 3, major: Number(m[1]), minor: Number(m[3] ?? 0) };
  };
  const x = parse(a),
    y = parse(b);
  return y.rank - x.rank || y.major - x.major || y.minor - x.minor || a.localeCompare(b);
}

function storageVersionHash(def: ResourceDef): string {
  return createHash('sha256').update(`${def.group}/${def.version}/${def.kind}`).digest().subarray(0, 8).toString('base64');
}

/** Whether the store of a served resource writes the version of its storage def (a CRD's store may write a version that is not served). */
function storesServedVersion(s: Served<unknown>): boolean {
  const written = (s.store as { storageVersion?: unknown } | null | undefined)?.storageVersion;
  return typeof written !== 'string' || written === groupVersion(s.storageDef.group, s.storageDef.version);
}

export interface DiscoveryDocs {
  apiVersions: object;
  apiGroupList: object;
  groups: Map<string, object>;
  resourceLists: Map<string, object>;
  aggregatedCore: object;
  aggregatedGroups: object;
}

/** Discovery order from APIServices: a group's priority (its highest groupPriorityMinimum) and each `group/version`'s versionPriority. */
export interface DiscoveryPriorities {
  groups: Map<string, number>;
  versions: Map<string, number>;
}

/**
 * The discovery documents of one server, owned by it: built from the served
 * resources when first read, built again after reorder() (APIService
 * priorities changed). Handlers read `documents` on each request, so a
 * reorder is seen by the next request; a server that answers no discovery
 * request before its priorities settle builds them once.
 */
export class Discovery {
  private docs: DiscoveryDocs | undefined;
  private priorities: DiscoveryPriorities | undefined;

  constructor(
    private readonly served: readonly Served<unknown>[],
    private readonly serverAddress: string,
  ) {}

  get documents(): DiscoveryDocs {
    this.docs ??= computeDiscovery(this.served, this.serverAddress, this.priorities);
    return this.docs;
  }

  /** The served resources changed (a CustomResourceDefinition's were added or removed): built again on the next read. */
  servedChanged(): void {
    this.docs = undefined;
  }

  /** Groups and versions in the order of these priorities from the next read on. */
  reorder(priorities: DiscoveryPriorities): void {
    this.priorities = priorities;
    this.docs = undefined;
  }
}

function computeDiscovery(served: readonly Served<unknown>[], serverAddress: string, priorities?: DiscoveryPriorities): DiscoveryDocs {
  const byGroup = new Map<string, Map<string, Served<unknown>[]>>();
  for (const s of served) {
    const versions = byGroup.get(s.def.group) ?? new Map<string, Served<unknown>[]>();
    const list = versions.get(s.def.version) ?? [];
    list.push(s);
    versions.set(s.def.version, list);
    byGroup.set(s.def.group, versions);
  }
  const groupPriority = (g: string) => priorities?.groups.get(g) ?? -1;
  const groupsSorted = [...byGroup.keys()].sort(priorities ? (a, b) => groupPriority(b) - groupPriority(a) || a.localeCompare(b) : (a, b) => groupRank(a) - groupRank(b) || a.localeCompare(b));
  const versionPriority = (g: string, v: string) => priorities?.versions.get(`${g}/${v}`);
  const byPriority = (g: string) => [...byGroup.get(g)!.keys()].every((v) => versionPriority(g, v) !== undefined);

  const preferredOf = (g: string): string => {
    if (byPriority(g)) return versionsOf(g)[0];
    const versions = [...byGroup.get(g)!.keys()];
    const flagged = versions.find((v) =>
      byGroup
        .get(g)!
        .get(v)!
        .some((s) => s.def.preferredVersion),
    );
    return flagged ?? versions.sort(compareVersions)[0];
  };
  function versionsOf(g: string): string[] {
    if (byPriority(g)) {
      return [...byGroup.get(g)!.keys()].sort((a, b) => versionPriority(g, b)! - versionPriority(g, a)! || compareVersions(a, b));
    }
    const pref = preferredOf(g);
    return [...byGroup.get(g)!.keys()].sort(compareVersions).sort((a, b) => (a === pref ? -1 : b === pref ? 1 : 0));
  }

  const resourceLists = new Map<string, object>();
  for (const [g, versions] of byGroup) {
    for (const [v, list] of versions) {
      const gv = groupVersion(g, v);
      const resources: object[] = [];
      for (const s of [...list].sort((a, b) => a.def.resource.localeCompare(b.def.resource))) {
        const d = s.def;
        const r: Record<string, unknown> = {
          name: d.resource,
          singularName: d.singular,
          namespaced: d.namespaced,
          kind: d.kind,
          verbs: d.verbs,
        };
        if (d.shortNames.length) r.shortNames = d.shortNames;
        if (d.categories.length) r.categories = d.categories;
        // a CRD whose storage version is not served has none (upstream's discovery controller only hashes a served storage version)
        if (!d.custom || storesServedVersion(s)) r.storageVersionHash = storageVersionHash(s.storageDef);
        resources.push(r);
        for (const sub of d.subresources) {
          const sr: Record<string, unknown> = { name: `${d.resource}/${sub.name}`, singularName: '', namespaced: d.namespaced, kind: sub.kind, verbs: sub.verbs };
          if (sub.group !== undefined) sr.group = sub.group;
          if (sub.version !== undefined) sr.version = sub.version;
          resources.push(sr);
        }
      }
      resourceLists.set(gv, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv, resources });
    }
  }

  const groupDoc = (g: string) => {
    const pref = preferredOf(g);
    return {
      name: g,
      versions: versionsOf(g).map((v) => ({ groupVersion: `${g}/${v}`, version: v })),
      preferredVersion: { groupVersion: `${g}/${pref}`, version: pref },
    };
  };
  const groups = new Map<string, object>();
  for (const g of groupsSorted) if (g) groups.set(g, { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(g) });

  const aggregatedGroup = (g: string) => ({
    metadata: g ? { name: g, creationTimestamp: null } : { creationTimestamp: null },
    versions: versionsOf(g).map((v) => ({
      version: v,
      resources: [...byGroup.get(g)!.get(v)!]
        .sort((a, b) => a.def.resource.localeCompare(b.def.resource))
        .map((s) => {
          const d = s.def;
          const r: Record<string, unknown> = {
            resource: d.resource,
            responseKind: { group: d.group, version: d.version, kind: d.kind },
            scope: d.namespaced ? 'Namespaced' : 'Cluster',
            singularResource: d.singular,
            verbs: d.verbs,
          };
          if (d.shortNames.length) r.shortNames = d.shortNames;
          if (d.categories.length) r.categories = d.categories;
          if (d.subresources.length) {
            r.subresources = d.subresources.map((sub) => ({
              subresource: sub.name,
              responseKind: { group: sub.group ?? d.group, version: sub.version ?? d.version, kind: sub.kind },
              verbs: sub.verbs,
            }));
          }
          return r;
        }),
      freshness: 'Current',
    })),
  });

  return {
    apiVersions: {
      kind: 'APIVersions',
      versions: byGroup.has('') ? versionsOf('') : [],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    },
    apiGroupList: { kind: 'APIGroupList', apiVersion: 'v1', groups: groupsSorted.filter((g) => g).map(groupDoc) },
    groups,
    resourceLists,
    aggregatedCore: {
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      metadata: {},
      items: byGroup.has('') ? [aggregatedGroup('')] : [],
    },
    aggregatedGroups: {
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      metadata: {},
      items: groupsSorted.filter((g) => g).map(aggregatedGroup),
    },
  };
}
