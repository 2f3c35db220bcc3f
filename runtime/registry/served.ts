// The served API bound to storage: the served-resource index of api/ with
// one registry store per group and resource (shared by every version of
// it), each with its strategy and subresource strategies. Built at start-up
// from the generated registry; the resources of CustomResourceDefinitions
// are bound while serving (serveResource) and dropped with the index's remove().
// Nothing here is per kind.

import type { ResourceDef, VersionDefault } from '../../generated/api-types.ts';
import { ServedIndex, storageGroupOf, type Served } from '../api/served-index.ts';
import type { RuntimeConfig } from '../api/runtime-config.ts';
import { RegistryStore, attrsOf, keyRootOf } from './store.ts';
import { defaultStrategy, scaleStrategy, statusStrategy, type SubresourceStrategy } from './strategy.ts';
import { strategyFor } from './strategies/index.ts';
import { customResourceStrategy, type CustomResourceState } from './strategies/custom-resource.ts';
import { withReadDefaults, type ReadOf, type StorageRead } from './read-defaults.ts';
import type { StructuralDefaults } from '../schema/structural-defaults.ts';
import type { StructuralPruning } from '../schema/structural-pruning.ts';
import type { ObjectAttrs, Obj, Storage } from '../storage/interface.ts';
import type { WriteServices } from './write-services.ts';
import type { VersionConverter } from './conversion/converter.ts';
import { applyVersionDefaults, conversionsOf, convertDeclared, declaredConverter, declaredObjectVersions, versionDefaultsOf } from './conversion/declared.ts';
import type { StrategyContext } from './strategies/context.ts';
import { groupVersion } from '../api/keys.ts';
import type { Strategy } from './strategy.ts';
import { errors } from '../api/errors.ts';
import { compileStructuralDefaults } from '../schema/structural-defaults.ts';
import { compileStructuralPruning } from '../schema/structural-pruning.ts';
import type { OpenAPISchema } from '../schema/util.ts';

/** How the objects of a resource bound while serving are converted, and the apiVersion they are stored in. */
export interface Conversion {
  converter: VersionConverter;
  storageVersion: string;
  /**
   * Every version the CRD lists (apiVersion → its openAPIV3Schema), served or
   * not: an object stored in a version that is not served reads with that
   * version's schema, and one stored in a version the CRD no longer lists
   * cannot be read (upstream's converter refuses it). Absent: unknown
   * versions read with the storage version's schema.
   */
  versions?: Map<string, OpenAPISchema | undefined>;
}

export type ServedResource = Served<RegistryStore>;
export type ApiIndex = ServedIndex<RegistryStore>;

export type StorageProvider = (prefix: string, attrs: (obj: Obj) => ObjectAttrs) => Storage;

/**
 * Field-selector attributes by storage prefix, for resources bound while
 * serving: the storage of a prefix is made once (storageFor keeps it), but a
 * CRD's selectable fields can change, so its storage reads them through here.
 */
const liveAttrs = new WeakMap<StorageProvider, Map<string, (obj: Obj) => ObjectAttrs>>();

function attrsFor(storageDef: ResourceDef, storageFor: StorageProvider): (obj: Obj) => ObjectAttrs {
  const attrs = attrsOf(storageDef);
  if (!storageDef.custom) return attrs;
  let byPrefix = liveAttrs.get(storageFor);
  if (!byPrefix) liveAttrs.set(storageFor, (byPrefix = new Map()));
  byPrefix.set(keyRootOf(storageDef), attrs);
  const current = byPrefix;
  return (obj) => current.get(keyRootOf(storageDef))!(obj);
}

/**
 * A strategy whose defaults also set the declared defaults of the version
 * the object is in (the Go defaulter of that version; the object is still
 * in the request's version when defaults run).
 */
function withVersionDefaults(strategy: Strategy, byApiVersion: Map<string, VersionDefault[]>): Strategy {
  return {
    ...strategy,
    defaults(obj) {
      const declared = typeof obj.apiVersion === 'string' ? byApiVersion.get(obj.apiVersion) : undefined;
      if (declared) applyVersionDefaults(obj, declared);
      strategy.defaults?.(obj);
    },
  };
}

/** What a kind's strategy learns of the versions of its store: their objects in the storage version's shape. */
function strategyContext(storageDef: ResourceDef, versions: ResourceDef[]): StrategyContext {
  const byApiVersion = conversionsOf(versions);
  if (![...byApiVersion.values()].some((c) => c.rules.length > 0)) return {};
  const storage = groupVersion(storageDef.group, storageDef.version);
  return { toStorage: (obj) => convertDeclared(obj, storage, byApiVersion) };
}

/**
 * Field-selector attributes read in the storage version's shape: an object
 * stored in another version (by an earlier layout: events.k8s.io Events in
 * core's etcd directory) is selected by its fields as converted, as upstream
 * decodes every stored object before selecting.
 */
function attrsInStorageShape(attrs: (obj: Obj) => ObjectAttrs, storageVersion: string, toStorage: (obj: Obj) => Obj): (obj: Obj) => ObjectAttrs {
  return (obj) => attrs(obj.apiVersion && obj.apiVersion !== storageVersion ? toStorage(obj) : obj);
}

/** The store of one group and resource, over the version it is stored in; `versions` are its built-in versions (several: converted). */
function bindStore(storageDef: ResourceDef, storageFor: StorageProvider, services?: WriteServices, conversion?: Conversion, versions?: ResourceDef[]): RegistryStore {
  const subs: Record<string, SubresourceStrategy> = {};
  for (const s of storageDef.subresources) {
    if (s.name === 'status') subs.status = statusStrategy();
    if (s.name === 'scale') subs.scale = scaleStrategy(storageDef);
  }
  const declaredDefaults = versions ? versionDefaultsOf(versions) : undefined;
  const ctx: StrategyContext = { ...(versions ? strategyContext(storageDef, versions) : {}), features: services?.features };
  const plain = strategyFor(storageDef, defaultStrategy(storageDef), ctx);
  const generic = declaredDefaults ? withVersionDefaults(plain, declaredDefaults) : plain;
  const strategy = storageDef.custom && services?.customResources ? customResourceStrategy(storageDef, generic, services.customResources) : generic;
  Object.assign(subs, strategy.subresources ?? {});
  const plainAttrs = attrsFor(storageDef, storageFor);
  const attrs = ctx.toStorage ? attrsInStorageShape(plainAttrs, groupVersion(storageDef.group, storageDef.version), ctx.toStorage) : plainAttrs;
  const stored = storageFor(keyRootOf(storageDef), attrs);
  // a custom resource reads pruned and defaulted by the schema of the version it is stored in (as it is now)
  const readDefaults = storageDef.custom ? readsOf(storageDef, services?.customResources, conversion?.versions) : undefined;
  const storage = readDefaults ? withReadDefaults(stored, readDefaults) : stored;
  const store = new RegistryStore(storageDef, storage, strategy, subs, services);
  // the predicates of its requests select with the same attributes as its watch cache
  if (ctx.toStorage) store.attrs = attrs;
  if (conversion) {
    store.converter = conversion.converter;
    store.storageVersion = conversion.storageVersion;
    if (storageDef.custom) store.coercion = coercionOf(storageDef, services?.customResources);
  }
  if (versions) store.fieldVersions = declaredObjectVersions(versions);
  return store;
}

/** The served index; `services` lets in-process writers run the whole write pipeline (see write-services.ts). */
export function buildApiIndex(defs: ResourceDef[], storageFor: StorageProvider, runtimeConfig: RuntimeConfig, services?: WriteServices): ApiIndex {
  // the versions of each stored resource: its group's, and those of another group whose hub it is
  const versionsOf = new Map<string, ResourceDef[]>();
  for (const d of defs) {
    if (d.custom) continue;
    const key = `${storageGroupOf(d)}/${d.resource}`;
    versionsOf.set(key, [...(versionsOf.get(key) ?? []), d]);
  }
  return new ServedIndex(
    defs,
    (storageDef) => {
      // a built-in resource of several versions is stored in its storage version and converted by its declared conversions
      const versions = versionsOf.get(`${storageDef.group}/${storageDef.resource}`);
      if (!versions || versions.length < 2) return bindStore(storageDef, storageFor, services);
      const conversion = { converter: declaredConverter(versions), storageVersion: groupVersion(storageDef.group, storageDef.version) };
      return bindStore(storageDef, storageFor, services, conversion, versions);
    },
    runtimeConfig,
  );
}

/**
 * Serves the versions of one group and resource while serving (a CRD's),
 * replacing what was served for it; `conversion` says how its objects are
 * converted between the versions (conversion/) and which apiVersion they are
 * stored in (a CRD's storage version need not be served).
 */
export function serveResource(api: ApiIndex, defs: ResourceDef[], storageFor: StorageProvider, services?: WriteServices, conversion?: Conversion): ServedResource[] {
  const { group, resource } = defs[0];
  return api.replace(group, resource, defs, (storageDef) => bindStore(storageDef, storageFor, services, conversion));
}

/** A version's read from storage: pruning (when its schema can prune), then nulls and defaults; undefined when it changes nothing. */
function storageRead(state: CustomResourceState, schema: string | undefined): StorageRead | undefined {
  if (schema === undefined) return undefined;
  return readWith(state.pruning?.(schema), state.defaults?.(schema));
}

function readWith(pruning: StructuralPruning | undefined, defaults: StructuralDefaults | undefined): StorageRead | undefined {
  const prunes = pruning?.canPrune === true;
  if (!prunes && !defaults?.hasDefaults) return undefined;
  return {
    apply(obj) {
      const pruned = prunes ? pruning.apply(obj) : false;
      const defaulted = defaults ? defaults.apply(obj) : false;
      return pruned || defaulted;
    },
  };
}

/** The read of an object stored in a version the CRD no longer lists: upstream's converter refuses it (500, no reason). */
function unlistedRead(apiVersion: string): StorageRead {
  return {
    apply() {
      throw errors.storageFailure(`request to convert CR from an invalid group/version: ${apiVersion}`);
    },
  };
}

/**
 * The read of the version each stored object is in: a served version's
 * compiled schema, a listed but unserved version's own schema (compiled
 * here, for reads only), an unlisted version's refusal; the storage
 * version's when the versions are not known. Undefined when no version's
 * read changes anything (a schema that neither prunes nor defaults):
 * storage is then read as it is, its encoded fast paths untouched.
 */
function readsOf(storageDef: ResourceDef, state: CustomResourceState | undefined, versions: Map<string, OpenAPISchema | undefined> | undefined): ReadOf | undefined {
  if (!state?.defaults) return undefined;
  const storage = storageRead(state, storageDef.schema);
  const byVersion = new Map<string, StorageRead | undefined>();
  const of = (apiVersion: string) => {
    const schema = state.schemaOf?.(storageDef.group, storageDef.resource, apiVersion);
    if (schema) return storageRead(state, schema);
    if (!versions) return storage;
    if (!versions.has(apiVersion)) return unlistedRead(apiVersion);
    const own = versions.get(apiVersion);
    return own ? readWith(compileStructuralPruning(own), compileStructuralDefaults(own)) : storage;
  };
  for (const v of state.versionsOf?.(storageDef.group, storageDef.resource) ?? []) byVersion.set(v, of(v));
  for (const v of versions?.keys() ?? []) if (!byVersion.has(v)) byVersion.set(v, of(v));
  if (!storage && ![...byVersion.values()].some((r) => r)) return undefined;
  return (apiVersion) => {
    if (typeof apiVersion !== 'string' || apiVersion === '') return storage;
    if (byVersion.has(apiVersion)) return byVersion.get(apiVersion);
    const r = of(apiVersion);
    byVersion.set(apiVersion, r);
    return r;
  };
}

/**
 * What an object converted into a served version goes through there: the
 * pruning and the nulls of that version's schema (upstream coerces what its
 * converter of custom resources hands out, and applies no defaults then);
 * undefined when every served version has the same schema (nothing a
 * conversion between them could leave for the pruning).
 */
function coercionOf(storageDef: ResourceDef, state: CustomResourceState | undefined): ((obj: Obj, apiVersion: string) => boolean) | undefined {
  if (!state?.pruning || !state.schemaOf) return undefined;
  const { group, resource } = storageDef;
  const schemas = (state.versionsOf?.(group, resource) ?? []).map((v) => state.schemaOf!(group, resource, v));
  const prints = new Set(schemas.map((sc) => (sc === undefined ? '' : (state.pruning!(sc)?.fingerprint ?? ''))));
  if (prints.size <= 1) return undefined;
  return (obj, apiVersion) => {
    const schema = state.schemaOf!(group, resource, apiVersion);
    if (schema === undefined) return false;
    const pruning = state.pruning!(schema);
    const pruned = pruning?.canPrune ? pruning.apply(obj) : false;
    const dropped = state.defaults?.(schema)?.dropNulls(obj) ?? false;
    return pruned || dropped;
  };
}
