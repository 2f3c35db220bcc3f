// The served API: which generated resources are enabled (defaults plus
// --runtime-config), one registry store per group and resource (shared by
// every version of it), and look-up by group, version and resource. Built
// once at start-up from the generated registry; nothing here is per kind.

import type { ResourceDef } from '../../generated/api-types.ts';
import { RegistryStore, attrsOf, keyRootOf } from '../registry/store.ts';
import { defaultStrategy, scaleStrategy, statusStrategy, type SubresourceStrategy } from '../registry/strategy.ts';
import { strategyFor } from '../registry/strategies/index.ts';
import type { ObjectAttrs, Obj, Storage } from '../storage/interface.ts';

export interface ServedResource {
  def: ResourceDef;
  /** The store of its group and resource (storage version objects). */
  store: RegistryStore;
  /** The version objects are stored in. */
  storageDef: ResourceDef;
}

export type StorageProvider = (prefix: string, attrs: (obj: Obj) => ObjectAttrs) => Storage;

/** Parses --runtime-config (`api/all=true,networking.k8s.io/v1beta1=true,batch/v1=false`). */
export function parseRuntimeConfig(text: string | undefined): Map<string, boolean> {
  const out = new Map<string, boolean>();
  if (!text) return out;
  for (const part of text.split(',')) {
    const p = part.trim();
    if (!p) continue;
    const [k, v = 'true'] = p.split('=');
    if (v !== 'true' && v !== 'false') throw new Error(`invalid value in --runtime-config for ${k}: ${v}`);
    out.set(k.trim(), v === 'true');
  }
  return out;
}

export function isEnabled(def: ResourceDef, rc: Map<string, boolean>): boolean {
  const gv = def.group ? `${def.group}/${def.version}` : `v1`;
  const gvr = `${gv}/${def.resource}`;
  if (rc.has(gvr)) return rc.get(gvr)!;
  if (rc.has(gv)) return rc.get(gv)!;
  if (!def.group && rc.has(`api/${def.version}`)) return rc.get(`api/${def.version}`)!;
  const levelKey = def.stability === 'GA' ? 'api/ga' : def.stability === 'beta' ? 'api/beta' : 'api/alpha';
  if (rc.has(levelKey)) return rc.get(levelKey)!;
  if (rc.has('api/all')) return rc.get('api/all')!;
  return def.enabledByDefault;
}

export class ApiIndex {
  readonly served: ServedResource[] = [];
  private readonly byPath = new Map<string, ServedResource>();
  private readonly byGroupKind = new Map<string, ServedResource>();

  constructor(defs: ResourceDef[], storageFor: StorageProvider, runtimeConfig: Map<string, boolean>) {
    const enabled = defs.filter((d) => isEnabled(d, runtimeConfig));
    const stores = new Map<string, { store: RegistryStore; storageDef: ResourceDef }>();
    for (const def of enabled) {
      const grKey = `${def.group}/${def.resource}`;
      let entry = stores.get(grKey);
      if (!entry) {
        const storageDef = enabled.find((d) => d.group === def.group && d.resource === def.resource && d.storageVersion)
          ?? enabled.find((d) => d.group === def.group && d.resource === def.resource)!;
        const subs: Record<string, SubresourceStrategy> = {};
        for (const s of storageDef.subresources) {
          if (s.name === 'status') subs.status = statusStrategy();
          if (s.name === 'scale') subs.scale = scaleStrategy();
        }
        const strategy = strategyFor(storageDef, defaultStrategy(storageDef));
        Object.assign(subs, strategy.subresources ?? {});
        const storage = storageFor(keyRootOf(storageDef), attrsOf(storageDef));
        entry = { store: new RegistryStore(storageDef, storage, strategy, subs), storageDef };
        stores.set(grKey, entry);
      }
      const served: ServedResource = { def, store: entry.store, storageDef: entry.storageDef };
      this.served.push(served);
      this.byPath.set(`${def.group}/${def.version}/${def.resource}`, served);
      if (def.preferredVersion || !this.byGroupKind.has(`${def.group}/${def.kind}`)) this.byGroupKind.set(`${def.group}/${def.kind}`, served);
    }
  }

  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  /** The served resource of a kind, preferring the group's preferred version. */
  byKind(group: string, kind: string): ServedResource | undefined {
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
}
