// The served API, by group, version and resource (the scheme/RESTMapper
// role): which generated resources are enabled (defaults plus
// --runtime-config), which version of each group and resource is stored,
// and look-up by path or kind. It is generic over what each group and
// resource is bound to (the registry binds a store; see
// registry/served.ts), so this layer knows nothing of storage.

import type { ResourceDef } from '../../generated/api-types.ts';
import { groupVersion } from './keys.ts';

export interface Served<S> {
  def: ResourceDef;
  /** What the group and resource is bound to, shared by every version of it. */
  store: S;
  /** The version objects are stored in. */
  storageDef: ResourceDef;
}

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
  const gv = groupVersion(def.group, def.version);
  const gvr = `${gv}/${def.resource}`;
  if (rc.has(gvr)) return rc.get(gvr)!;
  if (rc.has(gv)) return rc.get(gv)!;
  if (!def.group && rc.has(`api/${def.version}`)) return rc.get(`api/${def.version}`)!;
  const levelKey = def.stability === 'GA' ? 'api/ga' : def.stability === 'beta' ? 'api/beta' : 'api/alpha';
  if (rc.has(levelKey)) return rc.get(levelKey)!;
  if (rc.has('api/all')) return rc.get('api/all')!;
  return def.enabledByDefault;
}

export class ServedIndex<S> {
  readonly served: Served<S>[] = [];
  private readonly byPath = new Map<string, Served<S>>();
  private readonly byGroupKind = new Map<string, Served<S>>();

  /** `bind` is called once per enabled group and resource, with the version it is stored in. */
  constructor(defs: ResourceDef[], bind: (storageDef: ResourceDef) => S, runtimeConfig: Map<string, boolean>) {
    const enabled = defs.filter((d) => isEnabled(d, runtimeConfig));
    const bound = new Map<string, { store: S; storageDef: ResourceDef }>();
    for (const def of enabled) {
      const grKey = `${def.group}/${def.resource}`;
      let entry = bound.get(grKey);
      if (!entry) {
        const storageDef = enabled.find((d) => d.group === def.group && d.resource === def.resource && d.storageVersion) ?? enabled.find((d) => d.group === def.group && d.resource === def.resource)!;
        entry = { store: bind(storageDef), storageDef };
        bound.set(grKey, entry);
      }
      const served: Served<S> = { def, store: entry.store, storageDef: entry.storageDef };
      this.served.push(served);
      this.byPath.set(`${def.group}/${def.version}/${def.resource}`, served);
      if (def.preferredVersion || !this.byGroupKind.has(`${def.group}/${def.kind}`)) this.byGroupKind.set(`${def.group}/${def.kind}`, served);
    }
  }

  lookup(group: string, version: string, resource: string): Served<S> | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
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
}
