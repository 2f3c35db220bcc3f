// The served API bound to storage: the served-resource index of api/ with
// one registry store per group and resource (shared by every version of
// it), each with its strategy and subresource strategies. Built once at
// start-up from the generated registry; nothing here is per kind.

import type { ResourceDef } from '../../generated/api-types.ts';
import { ServedIndex, type Served } from '../api/served-index.ts';
import { RegistryStore, attrsOf, keyRootOf } from './store.ts';
import { defaultStrategy, scaleStrategy, statusStrategy, type SubresourceStrategy } from './strategy.ts';
import { strategyFor } from './strategies/index.ts';
import type { ObjectAttrs, Obj, Storage } from '../storage/interface.ts';
import type { WriteServices } from './write-services.ts';

export type ServedResource = Served<RegistryStore>;
export type ApiIndex = ServedIndex<RegistryStore>;

export type StorageProvider = (prefix: string, attrs: (obj: Obj) => ObjectAttrs) => Storage;

/** The store of one group and resource, over the version it is stored in. */
function bindStore(storageDef: ResourceDef, storageFor: StorageProvider, services?: WriteServices): RegistryStore {
  const subs: Record<string, SubresourceStrategy> = {};
  for (const s of storageDef.subresources) {
    if (s.name === 'status') subs.status = statusStrategy();
    if (s.name === 'scale') subs.scale = scaleStrategy(storageDef);
  }
  const strategy = strategyFor(storageDef, defaultStrategy(storageDef));
  Object.assign(subs, strategy.subresources ?? {});
  const storage = storageFor(keyRootOf(storageDef), attrsOf(storageDef));
  return new RegistryStore(storageDef, storage, strategy, subs, services);
}

/** The served index; `services` lets in-process writers run the whole write pipeline (see write-services.ts). */
export function buildApiIndex(defs: ResourceDef[], storageFor: StorageProvider, runtimeConfig: Map<string, boolean>, services?: WriteServices): ApiIndex {
  return new ServedIndex(defs, (storageDef) => bindStore(storageDef, storageFor, services), runtimeConfig);
}
