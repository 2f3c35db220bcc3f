// The kinds the fuzz harness aims at: every resource of the generated
// registry that a default server serves, with the paths of each shape
// (cluster-wide collection, namespaced collection, object, subresource).

import type { ResourceDef } from '../../generated/api-types.ts';
import { resources } from '../../generated/registry.ts';

export interface FuzzKind {
  def: ResourceDef;
  /** `v1`, `apps/v1`. */
  apiVersion: string;
  /** `/api/v1`, `/apis/apps/v1`. */
  base: string;
}

export function kindOf(def: ResourceDef): FuzzKind {
  const apiVersion = def.group ? `${def.group}/${def.version}` : def.version;
  return { def, apiVersion, base: def.group ? `/apis/${apiVersion}` : `/api/${apiVersion}` };
}

/** Resources served by a server started with default options. */
export const servedKinds: FuzzKind[] = resources.filter((r) => r.enabledByDefault).map(kindOf);

/** Resources in the registry that a default server does not serve (404s). */
export const unservedKinds: FuzzKind[] = resources.filter((r) => !r.enabledByDefault).map(kindOf);

/** Stored kinds (not the review kinds that are answered in place). */
export const storedKinds: FuzzKind[] = servedKinds.filter((k) => !k.def.virtual);

/** The collection path: namespaced under `ns`, or cluster-wide when ns is undefined. */
export function collectionPath(k: FuzzKind, ns?: string): string {
  return ns !== undefined && k.def.namespaced ? `${k.base}/namespaces/${ns}/${k.def.resource}` : `${k.base}/${k.def.resource}`;
}

export function objectPath(k: FuzzKind, ns: string | undefined, name: string): string {
  return `${collectionPath(k, ns)}/${name}`;
}

export function findKind(apiVersion: string, resource: string): FuzzKind {
  const k = servedKinds.find((x) => x.apiVersion === apiVersion && x.def.resource === resource);
  if (!k) throw new Error(`no served resource ${apiVersion} ${resource}`);
  return k;
}
