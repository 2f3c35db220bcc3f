// The served API, by group, version and resource (the scheme/RESTMapper
// role): which generated resources are enabled (defaults plus
// --runtime-config), which version of each group and resource is stored,
// and look-up by path or kind. Resources of CustomResourceDefinitions are
// added and removed while serving (replace/remove), and consumers that keep
// something derived from the index listen for changes (onChange). It is
// generic over what each group and resource is bound to (the registry binds
// a store; see registry/served.ts), so this layer knows nothing of storage.
// A resource whose versions convert to a hub in another group (its
// conversion's hubGroup: events.k8s.io Events to core Events) is bound with
// that group's resource: one binding, stored in the hub group's storage
// version, served under both groups.

import type { ResourceDef } from '../../generated/api-types.ts';
import { isEnabled, type RuntimeConfig } from './runtime-config.ts';

export interface Served<S> {
  def: ResourceDef;
  /** What the group and resource is bound to, shared by every version of it. */
  store: S;
  /** The version objects are stored in. */
  storageDef: ResourceDef;
}

/** What changed in the index: the group and resource added or removed, with its defs. */
export interface ServedChange<S> {
  added: Served<S>[];
  removed: Served<S>[];
}

export class ServedIndex<S> {
  /** Every served version of every resource; changed in place by add() and remove(). */
  readonly served: Served<S>[] = [];
  /** By group, version and resource: a look-up per request reads three maps rather than hashing a key it builds. */
  private readonly byPath = new Map<string, Map<string, Map<string, Served<S>>>>();
  private readonly byGroupKind = new Map<string, Served<S>>();
  private readonly listeners = new Set<(change: ServedChange<S>) => void>();

  /** `bind` is called once per enabled stored group and resource, with the version it is stored in. */
  constructor(defs: ResourceDef[], bind: (storageDef: ResourceDef) => S, runtimeConfig: RuntimeConfig) {
    const enabled = defs.filter((d) => isEnabled(d, runtimeConfig));
    const bound = new Map<string, { store: S; storageDef: ResourceDef }>();
    for (const def of enabled) {
      const group = storageGroupOf(def);
      const grKey = `${group}/${def.resource}`;
      let entry = bound.get(grKey);
      if (!entry) {
        // the hub group's storage version, even when --runtime-config leaves it unserved
        const storageDef = storageDefOf(group === def.group ? enabled : defs, group, def.resource);
        entry = { store: bind(storageDef), storageDef };
        bound.set(grKey, entry);
      }
      this.served.push({ def, store: entry.store, storageDef: entry.storageDef });
    }
    this.reindex();
  }

  lookup(group: string, version: string, resource: string): Served<S> | undefined {
    return this.byPath.get(group)?.get(version)?.get(resource);
  }

  /** The served resource of a kind, preferring the group's preferred version. */
  byKind(group: string, kind: string): Served<S> | undefined {
    return this.byGroupKind.get(`${group}/${kind}`);
  }

  /** Group versions served, for discovery. */
  groupVersions(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const s of this.served) {
      const list = out.get(s.def.group) ?? [];
      if (!list.includes(s.def.version)) list.push(s.def.version);
      out.set(s.def.group, list);
    }
    return out;
  }

  /**
   * Serves the versions of one group and resource (a CustomResourceDefinition's),
   * replacing what was served for it; `bind` gets the version it is stored in.
   * Listeners hear of the change once it is in place.
   */
  replace(group: string, resource: string, defs: ResourceDef[], bind: (storageDef: ResourceDef) => S): Served<S>[] {
    const removed = this.take(group, resource);
    const added: Served<S>[] = [];
    if (defs.length > 0) {
      const storageDef = storageDefOf(defs, group, resource);
      const store = bind(storageDef);
      for (const def of defs) added.push({ def, store, storageDef });
      this.served.push(...added);
    }
    this.reindex();
    this.emit({ added, removed });
    return added;
  }

  /** Stops serving a group and resource; returns what was served for it. */
  remove(group: string, resource: string): Served<S>[] {
    const removed = this.take(group, resource);
    if (removed.length === 0) return removed;
    this.reindex();
    this.emit({ added: [], removed });
    return removed;
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  onChange(listener: (change: ServedChange<S>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private take(group: string, resource: string): Served<S>[] {
    const removed: Served<S>[] = [];
    for (let i = this.served.length - 1; i >= 0; i--) {
      const s = this.served[i];
      if (s.def.group === group && s.def.resource === resource) removed.unshift(...this.served.splice(i, 1));
    }
    return removed;
  }

  private reindex(): void {
    this.byPath.clear();
    this.byGroupKind.clear();
    for (const s of this.served) {
      const { def } = s;
      let versions = this.byPath.get(def.group);
      if (!versions) this.byPath.set(def.group, (versions = new Map()));
      let resources = versions.get(def.version);
      if (!resources) versions.set(def.version, (resources = new Map()));
      resources.set(def.resource, s);
      if (def.preferredVersion || !this.byGroupKind.has(`${def.group}/${def.kind}`)) this.byGroupKind.set(`${def.group}/${def.kind}`, s);
    }
  }

  private emit(change: ServedChange<S>): void {
    for (const l of [...this.listeners]) l(change);
  }
}

/** The group a resource is stored with: its conversion's hub group, else its own. */
export function storageGroupOf(def: ResourceDef): string {
  return def.conversion?.hubGroup ?? def.group;
}

/** The version a group and resource is stored in: the one marked, else the first. */
function storageDefOf(defs: ResourceDef[], group: string, resource: string): ResourceDef {
  const same = defs.filter((d) => d.group === group && d.resource === resource);
  return same.find((d) => d.storageVersion) ?? same[0];
}
