// The generic registry store: one implementation of create, get, list,
// update, patch, apply, delete, deletecollection and watch for every
// resource, over the Storage interface, with per-resource behaviour supplied
// by a Strategy. It owns the order of every write (the comment of each
// operation: decoding defaults, field ownership, admission, strategy and
// storage at their places, for requests and for in-process writers alike),
// server-set metadata (uid, creationTimestamp, generation, generateName,
// deletionTimestamp), preconditions, finalizer-based deletion and dry-run.
// It speaks objects and ApiErrors; HTTP is the handlers' job.

import { formatRFC3339 } from '../api/rfc3339.ts';
import { randomUUID } from 'node:crypto';
import type { ResourceDef } from '../../generated/api-types.ts';
import { isPromise, type Maybe } from '../api/maybe.ts';
import { ApiError, errors, type GroupResource } from '../api/errors.ts';
import { CommitFailedError, ListOptionsInvalidError, ResourceExpiredError, TooLargeResourceVersionError } from '../storage/errors.ts';
import { RequestTooLargeError } from '../storage/kvstore/request-size.ts';
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  InvalidRequestError,
  KeyExistsError,
  NotFoundError,
  PreconditionError,
  type EncodedListResult,
  type EncodedObject,
  type ListOptions,
  type Obj,
  type ObjectAttrs,
  type Preconditions,
  type Storage,
  type WatchOptions,
  type WatchStream,
} from '../storage/interface.ts';
import { type FieldError, fieldErrors } from '../api/field-errors.ts';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../api/k8s-names.ts';
import { groupVersion, keyRoot, objectKey } from '../api/keys.ts';
import type { VersionConverter } from './conversion/converter.ts';
import { keptAnnotationError, type DeclaredVersions } from './conversion/declared.ts';
import { convertedWatch } from './conversion/watch.ts';
import { validateName } from '../api/validation.ts';
import { validateObjectMeta } from './metadata.ts';
import { matchesObject } from '../storage/semantics/predicate.ts';
import { type Allocation, type Strategy, type SubresourceStrategy } from './strategy.ts';
import { jsonEqual } from '../api/json-equal.ts';
import { checkObject, checkRequestObject, checkRequired } from './object-checks.ts';
import { type WriteHooks, type WriteServices, type Writer, pipelineHooks } from './write-services.ts';
import { applyPatch } from '../patch/index.ts';
import { type ApplyRequest, type PatchRequest, type PatchServices, patchErrorToApi, unconvertiblePatchResult } from './patching.ts';

export interface WriteOptions {
  dryRun?: boolean;
}

export interface DeleteOptions extends PipelineOptions {
  preconditions?: Preconditions;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  /** The deprecated orphanDependents option as sent (it only changes the response code). */
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
}

/**
 * Called inside the read-modify-write of an update or patch with the live
 * object; returns the object the client wants stored (before strategy).
 * Throwing aborts the write.
 */
export type Transform = (live: Obj | null) => Obj | Promise<Obj>;

/**
 * The stages of a write around the strategy: a request's handler passes its
 * hooks; an in-process writer passes who it is instead, and the store runs
 * the object checks (defaults, schema) and builds the hooks (its managed
 * fields, admission with its user) itself.
 */
export interface PipelineOptions extends WriteOptions {
  hooks?: WriteHooks;
  /**
   * The apiVersion of the request (group/version): with a converter, the
   * live object is converted to it before the transform, and what is
   * written back into the storage version. Unset: the storage version.
   */
  version?: string;
  writer?: Writer;
  warnings?: string[];
}

type CreateOptions = PipelineOptions;

/** Options of patch() and apply(): the pipeline's, the subresource written, and the services they need. */
export interface PatchOptions extends PipelineOptions {
  subresource?: string;
  services: PatchServices;
}

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
const GENERATE_NAME_RETRIES = 8;

function randomSuffix(n = 5): string {
  let s = '';
  for (let i = 0; i < n; i++) s += NAME_CHARS[Math.floor(Math.random() * NAME_CHARS.length)];
  return s;
}

/** Puts kind, apiVersion and metadata first, as kube-apiserver serializes objects. */
export function canonicalOrder(obj: Obj): Obj {
  const { kind, apiVersion, metadata, ...rest } = obj;
  return { kind, apiVersion, metadata, ...rest };
}

function nowRFC3339(): string {
  return formatRFC3339(Date.now());
}

/** The key prefix of a resource: `/registry/<group or core>/<resource>/`. */
export function keyRootOf(def: ResourceDef): string {
  return keyRoot(def.group, def.resource);
}

/**
 * Field-selector names that are not the path of the value they select
 * (upstream's field sets): core Event `source` is the reporting component,
 * Job `status.successful` the succeeded count (0 when unset).
 */
const FIELD_ALIASES: Record<string, Record<string, { path: string; zero?: string }>> = {
  '/Event': { source: { path: 'source.component' } },
  'batch/Job': { 'status.successful': { path: 'status.succeeded', zero: '0' } },
};

/** Labels and field-selector fields of an object of this resource. */
export function attrsOf(def: ResourceDef): (obj: Obj) => ObjectAttrs {
  const aliases = FIELD_ALIASES[`${def.group}/${def.kind}`] ?? {};
  const selectable = def.selectableFields.map((f) => ({ f, parts: (aliases[f]?.path ?? f).split('.'), zero: aliases[f]?.zero ?? '' }));
  return (obj: Obj): ObjectAttrs => {
    const md = obj.metadata ?? {};
    const fields: Record<string, string> = { 'metadata.name': md.name ?? '' };
    if (def.namespaced) fields['metadata.namespace'] = md.namespace ?? '';
    for (const { f, parts, zero } of selectable) {
      let v: unknown = obj;
      for (const p of parts) v = v !== null && typeof v === 'object' ? (v as Obj)[p] : undefined;
      fields[f] = v == null ? zero : String(v);
    }
    return { labels: md.labels ?? {}, fields };
  };
}

/** Objects computed on request instead of stored (ComponentStatus): get and list only. */
export interface ComputedSource {
  get(namespace: string, name: string): Promise<Obj | null>;
  list(namespace: string): Promise<Obj[]>;
}

export class RegistryStore {
  readonly gr: GroupResource;
  readonly keyRoot: string;
  /** Set for read-only computed kinds: get and list answer from it, never from storage. */
  computed?: ComputedSource;
  /**
   * Converts objects between the served versions (a CRD's, see
   * conversion/): objects are written in the storage version and answered
   * in the request's. Unset: objects are stored as written, and answers
   * only get the request's apiVersion.
   */
  converter?: VersionConverter;
  /**
   * A built-in resource served in versions of different shapes (declared
   * conversions): its versions as the field manager compares ownership in
   * them. Unset: every manager's fields are read in the request's version.
   */
  fieldVersions?: DeclaredVersions;
  /**
   * The apiVersion objects are stored in: the storage def's, unless set for
   * a CRD whose storage version is not served.
   */
  storageVersion: string;
  /**
   * What an object converted into another version goes through in that
   * version (a CRD's: pruning and nulls of the version's schema, as
   * upstream's converter of custom resources coerces its output; no
   * defaults). Set only when the versions' schemas differ: answers in
   * another version then leave the served-JSON fast paths.
   */
  coercion?: (obj: Obj, apiVersion: string) => boolean;
  private readonly coerced = new WeakMap<Obj, Map<string, Obj>>();

  constructor(
    readonly def: ResourceDef,
    readonly storage: Storage,
    readonly strategy: Strategy,
    readonly subresources: Record<string, SubresourceStrategy> = {},
    /** Needed for writes by an in-process writer (opts.writer). */
    readonly services?: WriteServices,
  ) {
    this.gr = { group: def.group, resource: def.resource };
    this.keyRoot = keyRootOf(def);
    this.storageVersion = groupVersion(def.group, def.version);
    this.attrs = attrsOf(def);
    const reset: Record<string, string[]> = {};
    if (strategy.resetFields.length) reset[''] = strategy.resetFields;
    for (const [name, sub] of Object.entries(subresources)) if (sub.resetFields.length) reset[name] = sub.resetFields;
    this.resetFields = reset;
  }

  /** The fields each endpoint's strategy resets, by subresource ('' for the main resource): never owned through it. */
  readonly resetFields: Record<string, string[]>;

  key(namespace: string, name: string): string {
    return objectKey(this.keyRoot, this.def.namespaced ? namespace : undefined, name);
  }

  prefix(namespace: string): string {
    return this.def.namespaced && namespace ? `${this.keyRoot}${namespace}/` : this.keyRoot;
  }

  attrs: (obj: Obj) => ObjectAttrs;

  /** Whether answers need the converter (not just a new apiVersion) or a coercion: the served-JSON fast paths are then left out. */
  get converts(): boolean {
    return (!!this.converter && !this.converter.nop) || !!this.coercion;
  }

  /** An object converted from `source` into `apiVersion`, coerced there (once per source and version; a changed one is a copy). */
  private coerce(source: Obj, converted: Obj, apiVersion: string): Obj {
    if (!this.coercion || source.apiVersion === apiVersion) return converted;
    let byVersion = this.coerced.get(source);
    let out = byVersion?.get(apiVersion);
    if (out) return out;
    const copy = structuredClone(converted);
    out = this.coercion(copy, apiVersion) ? copy : converted;
    if (!byVersion) this.coerced.set(source, (byVersion = new Map()));
    byVersion.set(apiVersion, out);
    return out;
  }

  /**
   * What a Table's cells are read from: a built-in resource whose versions
   * convert by declared rules prints every version from its storage-version
   * form, as upstream prints the internal object (one set of columns for all
   * versions); undefined: the object as answered. A resource stored in
   * another group's form (events.k8s.io Events as core Events) prints from
   * its own form: its columns are declared for its own fields.
   */
  tableSource(printed: ResourceDef): ((obj: Obj) => Obj) | undefined {
    const c = this.converter;
    if (this.def.custom || !c?.convertNow || c.nop) return undefined;
    const slash = this.storageVersion.lastIndexOf('/');
    if ((slash < 0 ? '' : this.storageVersion.slice(0, slash)) !== printed.group) return undefined;
    return (obj) => c.convertNow!(obj, this.storageVersion);
  }

  /** The object in `apiVersion`: at once unless the converter is a webhook's. */
  inVersion(obj: Obj, apiVersion: string): Maybe<Obj> {
    if (obj.apiVersion === apiVersion) return obj;
    if (!this.converter || this.converter.nop) return this.coerce(obj, { ...obj, apiVersion }, apiVersion);
    return this.converter.convert([obj], apiVersion).then((o) => this.coerce(obj, o[0], apiVersion));
  }

  /** The objects in `apiVersion` (one conversion call for all): at once unless the converter is a webhook's. */
  allInVersion(objs: Obj[], apiVersion: string): Maybe<Obj[]> {
    if (!this.converter || this.converter.nop) return objs.map((o) => (o.apiVersion === apiVersion ? o : this.coerce(o, { ...o, apiVersion }, apiVersion)));
    return this.converter.convert(objs, apiVersion).then((out) => out.map((o, i) => this.coerce(objs[i], o, apiVersion)));
  }

  /** The object as it is written: in the storage version when the store converts. */
  private toStorage(obj: Obj): Maybe<Obj> {
    if (!this.converter || !obj.apiVersion || obj.apiVersion === this.storageVersion) return obj;
    if (this.converter.nop) return this.coerce(obj, { ...obj, apiVersion: this.storageVersion }, this.storageVersion);
    return this.converter.convert([obj], this.storageVersion).then((out) => this.coerce(obj, out[0], this.storageVersion));
  }

  private mapStorageError(err: unknown, name: string): never {
    if (err instanceof KeyExistsError) throw errors.alreadyExists(this.gr, name);
    if (err instanceof NotFoundError) throw errors.notFound(this.gr, name);
    if (err instanceof ConflictError) throw errors.staleUpdate(this.gr, name);
    if (err instanceof PreconditionError) throw errors.conflict(this.gr, name, err.message);
    if (err instanceof ResourceExpiredError) {
      const e = errors.resourceExpired(err.message);
      if (err.continueToken) e.metadata.continue = err.continueToken;
      throw e;
    }
    if (err instanceof CompactedError) throw errors.resourceExpired(`too old resource version: ${err.requested} (${err.compacted})`);
    if (err instanceof TooLargeResourceVersionError) {
      throw new ApiError(
        504,
        'Timeout',
        err.statusMessage,
        { causes: [{ reason: err.causeType, message: err.causeMessage }], retryAfterSeconds: err.retryAfterSeconds },
        { 'Retry-After': String(err.retryAfterSeconds) },
      );
    }
    if (err instanceof FutureRevisionError) {
      throw errors.timeout(`Timeout: Too large resource version: ${err.requested}, current: ${err.current}`, 1);
    }
    if (err instanceof ListOptionsInvalidError) {
      throw new ApiError(422, 'Invalid', err.message, { group: 'meta.k8s.io', kind: 'ListOptions', causes: err.causes });
    }
    // over the storage's size limit (etcd's 1.5 MiB): 413, not a server error
    if (err instanceof RequestTooLargeError) throw errors.storageTooLarge(err.message);
    if (err instanceof InvalidRequestError) throw errors.badRequest(err.message);
    // a write storage could not commit (full disk): passed through as upstream does
    if (err instanceof CommitFailedError) throw errors.storageFailure(err.message);
    throw err;
  }

  private invalid(name: string, errs: FieldError[]): never {
    throw errors.invalid({ group: this.def.group, kind: this.def.kind }, name, errs);
  }

  async get(namespace: string, name: string, resourceVersion?: string): Promise<Obj> {
    if (this.computed) {
      const found = await this.computed.get(namespace, name);
      if (!found) throw errors.notFound(this.gr, name);
      return found;
    }
    let obj: Obj | null;
    try {
      obj = await this.storage.get(this.key(namespace, name), { resourceVersion });
    } catch (err) {
      this.mapStorageError(err, name);
    }
    if (!obj) throw errors.notFound(this.gr, name);
    return obj;
  }

  /**
   * get() as the object's served JSON when storage keeps it that way
   * (undefined: storage cannot, ask get()). Same errors as get(). At once
   * (thrown or returned, no promise) when storage answers at once.
   */
  getEncoded(namespace: string, name: string, resourceVersion?: string): Maybe<EncodedObject | undefined> {
    if (this.computed || !this.storage.getEncoded || this.converts) return undefined;
    let enc: Maybe<EncodedObject | null>;
    try {
      enc = this.storage.getEncoded(this.key(namespace, name), { resourceVersion });
    } catch (err) {
      this.mapStorageError(err, name);
    }
    if (isPromise(enc)) {
      return enc.then(
        (e) => this.foundEncoded(e, name),
        (err: unknown) => this.mapStorageError(err, name),
      );
    }
    return this.foundEncoded(enc, name);
  }

  private foundEncoded(enc: EncodedObject | null, name: string): EncodedObject {
    if (!enc) throw errors.notFound(this.gr, name);
    return enc;
  }

  /** list() as the items' served JSON when storage keeps it that way (undefined: ask list()). Same errors as list(). */
  async listEncoded(namespace: string, opts: ListOptions): Promise<EncodedListResult | undefined> {
    if (this.computed || !this.storage.listEncoded || this.converts) return undefined;
    try {
      return await this.storage.listEncoded(this.prefix(namespace), opts);
    } catch (err) {
      this.mapStorageError(err, '');
    }
  }

  async list(namespace: string, opts: ListOptions): Promise<{ items: Obj[]; resourceVersion: string; continue?: string; remainingItemCount?: number }> {
    if (this.computed) {
      const items = (await this.computed.list(namespace)).filter((o) => matchesObject(opts.predicate, o));
      return { items, resourceVersion: '' };
    }
    try {
      return await this.storage.list(this.prefix(namespace), { ...opts, predicate: opts.predicate });
    } catch (err) {
      this.mapStorageError(err, '');
    }
  }

  /** A watch; with `version` (group/version) and a converter that is not an apiVersion rewrite, events come converted to it. */
  async watch(namespace: string, opts: Omit<WatchOptions, 'recursive'>, version?: string): Promise<WatchStream> {
    let stream: WatchStream;
    try {
      stream = await this.storage.watch(this.prefix(namespace), { ...opts, recursive: true });
    } catch (err) {
      this.mapStorageError(err, '');
    }
    if (!version || !this.converts) return stream;
    return convertedWatch(stream, async (obj) => this.inVersion(obj, version));
  }

  /** The request's checks of an object to create: its namespace is the request's, it has no resourceVersion. */
  private checkCreateRequest(namespace: string, obj: Obj): void {
    const md = (obj.metadata ??= {});
    if (this.def.namespaced) {
      if (md.namespace && namespace && md.namespace !== namespace) {
        throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      md.namespace = md.namespace || namespace;
      if (!md.namespace) throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    } else {
      delete md.namespace;
    }
    if (md.resourceVersion) throw errors.badRequest('resourceVersion should not be set on objects to be created');
  }

  /** Server-set metadata of a new object: identity and timestamps; generateName is resolved by create(). */
  private fillSystemFields(obj: Obj): void {
    const md = obj.metadata;
    md.uid = randomUUID();
    md.creationTimestamp = nowRFC3339();
    delete md.deletionTimestamp;
    delete md.deletionGracePeriodSeconds;
    delete md.selfLink;
  }

  /** The services for an in-process writer's write; a store built without them refuses such writes. */
  private writeServices(): WriteServices {
    if (!this.services) throw errors.internal(new Error(`no write services for ${this.gr.resource}: in-process writes need them`));
    return this.services;
  }

  /**
   * For an in-process writer, what a handler does for a request body: spec
   * defaults and the schema check (an unknown field is a bug of the writer:
   * refused, as fieldValidation=Strict).
   */
  private checkWriterObject(obj: Obj, opts: PipelineOptions): Promise<void> | undefined {
    if (!opts.writer) return undefined;
    return checkObject(this.writeServices(), this.def, obj, { fieldValidation: 'Strict', warnings: opts.warnings, reportsRequired: this.strategy.reportsRequired });
  }

  /**
   * The decode step of a write, on the object the writer sent (a request's
   * body was decoded, defaulted from the spec and schema-checked by its
   * handler; an in-process writer's object is checked here): then the
   * strategy's defaults, what upstream's Go defaulters set when decoding.
   * At once when there is nothing to wait for (a request's object, a
   * strategy with nothing to load).
   */
  private decode(obj: Obj, opts: PipelineOptions): Maybe<void> {
    const checked = this.checkWriterObject(obj, opts);
    return checked ? checked.then(() => this.strategyDefaults(obj)) : this.strategyDefaults(obj);
  }

  /** The strategy's defaults, once what it needs is loaded. */
  private strategyDefaults(obj: Obj): Maybe<void> {
    const loaded = this.strategy.load?.();
    if (loaded) return loaded.then(() => this.strategy.defaults?.(obj));
    this.strategy.defaults?.(obj);
  }

  /** The hooks of this write: the handler's, or those the store builds for an in-process writer. */
  private hooksOf(opts: PipelineOptions, namespace: string, name: string, subresource?: string): WriteHooks | undefined {
    if (!opts.writer) return opts.hooks;
    const { user, manager } = opts.writer;
    return pipelineHooks(this.writeServices(), { def: this.def, store: this }, { user, manager, namespace, name, subresource, dryRun: !!opts.dryRun });
  }

  /**
   * Runs a strategy's prepare keeping the object's managedFields: they are
   * the field manager's, recorded before admission, whatever prepare copies
   * from the stored object.
   */
  private keepManagedFields(obj: Obj, prepare: () => void): void {
    const managed = obj.metadata?.managedFields;
    prepare();
    if (managed === undefined) delete obj.metadata.managedFields;
    else obj.metadata.managedFields = managed;
  }

  private validateCreate(obj: Obj): void {
    const md = obj.metadata;
    const errs: FieldError[] = [];
    if (!md.name) {
      errs.push(fieldErrors.required('metadata.name', 'name or generateName is required'));
    }
    errs.push(...validateObjectMeta(md));
    errs.push(...this.strategy.validate(obj));
    if (errs.length) this.invalid(md.name ?? md.generateName ?? '', errs);
  }

  /**
   * The first half of a create, up to the strategy (steps 2-5 of create()):
   * request checks, field ownership, mutating admission and the write
   * policy, strategy prepare.
   * Returns whether the name is to be generated.
   */
  private async admitAndPrepareCreate(namespace: string, obj: Obj, opts: CreateOptions): Promise<boolean> {
    this.checkCreateRequest(namespace, obj);
    opts.hooks?.manageFields?.(obj, null);
    const admitted = opts.hooks?.admit?.(obj, null);
    if (admitted) await admitted;
    const allowed = opts.hooks?.checkPolicy?.(obj, null);
    if (allowed) await allowed;
    const md = (obj.metadata ??= {});
    this.fillSystemFields(obj);
    const generate = !md.name && typeof md.generateName === 'string' && md.generateName !== '';
    if (generate) {
      for (const m of validateName(this.def.nameRule, md.generateName, true)) {
        this.invalid(md.generateName, [fieldErrors.invalid('metadata.generateName', md.generateName, m)]);
      }
    }
    this.keepManagedFields(obj, () => this.strategy.prepareForCreate(obj));
    return generate;
  }

  /**
   * The second half of a create, once the name is known (steps 6-8 of
   * create()): validation, allocation, canonical form and warnings,
   * validating admission. Returns the allocation to commit or roll back.
   */
  private async validateAndAdmitCreate(obj: Obj, opts: CreateOptions): Promise<Allocation | undefined> {
    this.validateCreate(obj);
    const allocating = this.strategy.allocate?.(obj, null, { dryRun: !!opts.dryRun });
    const alloc = isPromise(allocating) ? await allocating : allocating;
    try {
      this.strategy.canonicalize(obj);
      opts.warnings?.push(...this.strategy.warningsOnCreate(obj));
      const validated = opts.hooks?.validate?.(obj, null);
      if (validated) await validated;
    } catch (err) {
      if (alloc) await alloc.rollback();
      throw err;
    }
    return alloc;
  }

  /**
   * Create, in kube-apiserver's order (PUT and apply that create run the
   * same steps from update()):
   *  1. decode: a request's handler decodes the body, applies the spec's
   *     defaults and checks it against the schema; for an in-process writer
   *     the store does; then the strategy's defaults (the Go defaulters)
   *  2. request checks: namespace matches the request, no resourceVersion
   *  3. field ownership (hooks.manageFields), on the decoded and defaulted
   *     object, so the writer owns its defaults but not what admission or
   *     the strategy set
   *  4. mutating admission (hooks.admit), then the resource's write policy
   *     (hooks.checkPolicy: RBAC's escalation prevention, where upstream's
   *     RBAC storages check before the generic store: after mutating and
   *     before validating admission)
   *  5. strategy prepare (BeforeCreate): server-set metadata (uid,
   *     creationTimestamp), generateName checked, PrepareForCreate
   *  6. validation: name or generated name, object metadata, strategy rules
   *  7. allocation (cluster IPs, node ports), canonical form, warnings
   *  8. validating admission (hooks.validate), on the object as it will be stored
   *  9. storage; a generated name that is taken is drawn again from step 6
   */
  async create(namespace: string, input: Obj, given: CreateOptions = {}): Promise<Obj> {
    const obj = input;
    const decoded = this.decode(obj, given);
    if (decoded) await decoded;
    const opts = { ...given, hooks: this.hooksOf(given, namespace, obj.metadata?.name ?? '') };
    const generate = await this.admitAndPrepareCreate(namespace, obj, opts);
    const md = obj.metadata;
    for (let attempt = 0; ; attempt++) {
      if (generate) md.name = md.generateName + randomSuffix();
      const alloc = await this.validateAndAdmitCreate(obj, opts);
      const key = this.key(md.namespace ?? '', md.name);
      let stored: Obj;
      try {
        if (opts.dryRun) {
          if (await this.storage.get(key)) throw new KeyExistsError(key);
          if (alloc) await alloc.rollback();
          return obj;
        }
        const converted = this.toStorage(obj);
        stored = await this.storage.create(key, canonicalOrder(isPromise(converted) ? await converted : converted));
      } catch (err) {
        if (alloc) await alloc.rollback();
        if (err instanceof KeyExistsError && generate && attempt < GENERATE_NAME_RETRIES) continue;
        this.mapStorageError(err, md.name);
      }
      if (alloc) await alloc.commit(stored);
      return stored;
    }
  }

  /**
   * An object that earlier versions of the server stored under another key
   * (see builtins/event-key-migration.ts) moved in: converted to the storage
   * version and created with its identity (uid, creationTimestamp,
   * managedFields) as it was stored. Not a client's write: it was decoded,
   * admitted and validated when first written, so the pipeline's steps are
   * not run again. Returns false when the key holds an object already
   * (moved by another replica, or written since).
   */
  async createMoved(obj: Obj): Promise<boolean> {
    const moved = structuredClone(await this.toStorage(obj));
    const md = (moved.metadata ??= {});
    delete md.resourceVersion;
    try {
      await this.storage.create(this.key(md.namespace ?? '', md.name), canonicalOrder(moved));
      return true;
    } catch (err) {
      if (err instanceof KeyExistsError) return false;
      this.mapStorageError(err, md.name ?? '');
    }
  }

  /**
   * Update (PUT), patch, apply, or a subresource write: transform gives the
   * wanted object from the live one. Returns the stored object and whether
   * it was created (PUT or apply on a missing object, where allowed: then
   * the steps of create() run on the transformed object instead of these,
   * and admission is told CREATE, as upstream's create-on-update).
   * Inside storage's read-modify-write, so a conflict runs all of them again,
   * in kube-apiserver's order:
   *  1. transform and decode: the client's object (PUT body, patched or
   *     applied live object); for an in-process writer, the spec's defaults
   *     and the schema check; then the strategy's defaults (the Go
   *     defaulters); its name and namespace must be the request's
   *  2. field ownership (hooks.manageFields; apply records its own in step
   *     1), on the decoded and defaulted object
   *  3. mutating admission (hooks.admit), then the resource's write policy
   *     (hooks.checkPolicy, on the object and the live one)
   *  4. strategy prepare (BeforeUpdate): resourceVersion precondition, identity
   *     carried over from the live object, PrepareForUpdate of the resource or
   *     of the subresource (which keeps the managed fields of step 2)
   *  5. validation: strategy rules and update rules (the subresource's own)
   *  6. allocation, canonical form, warnings
   *  7. validating admission (hooks.validate), on the object as it will be stored
   *  8. storage; an object being deleted whose last finalizer went is deleted
   */
  async update(
    namespace: string,
    name: string,
    transform: Transform,
    given: PipelineOptions & {
      subresource?: string;
      /** Allow creating when missing (PUT and server-side apply); refused unless the strategy allows it or force is set. */
      createIfMissing?: boolean;
      forceAllowCreate?: boolean;
    } = {},
  ): Promise<{ obj: Obj; created: boolean }> {
    const opts = { ...given, hooks: this.hooksOf(given, namespace, name, given.subresource) };
    const key = this.key(namespace, name);
    const sub = opts.subresource ? this.subresources[opts.subresource] : undefined;
    if (opts.subresource && !sub) throw errors.notFoundPath();
    let created = false;
    let result: Obj | undefined;
    let deleteAfter = false;
    let alloc: Allocation | undefined;
    const checkName = (wanted: Obj, emptyAllowed: boolean): void => {
      const given = wanted.metadata.name;
      if ((emptyAllowed ? !!given : given !== undefined) && given !== name) {
        throw errors.badRequest(`the name of the object (${given}) does not match the name on the URL (${name})`);
      }
    };

    const tryUpdate = async (stored: Obj | null): Promise<Obj> => {
      // the request's version is what the transform, admission and the strategy see
      const live = stored && this.converter && opts.version ? await this.inVersion(stored, opts.version) : stored;
      created = false;
      deleteAfter = false;
      if (alloc) await alloc.rollback();
      alloc = undefined;
      if (!live) {
        const allowed = opts.createIfMissing && !opts.subresource && (this.strategy.allowCreateOnUpdate || opts.forceAllowCreate);
        if (!allowed) throw errors.notFound(this.gr, name);
        const wanted = await transform(null);
        await this.decode(wanted, opts);
        wanted.metadata ??= {};
        checkName(wanted, true);
        wanted.metadata.name = name;
        await this.admitAndPrepareCreate(namespace, wanted, opts);
        alloc = await this.validateAndAdmitCreate(wanted, opts);
        created = true;
        return canonicalOrder(await this.toStorage(wanted));
      }
      // 1. transform and decode
      const wanted = await transform(structuredClone(live));
      await this.decode(wanted, opts);
      const md = (wanted.metadata ??= {});
      checkName(wanted, false);
      if (this.def.namespaced && md.namespace && md.namespace !== namespace) {
        throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      // 2. field ownership, 3. mutating admission and the write policy
      opts.hooks?.manageFields?.(wanted, live);
      const admitted = opts.hooks?.admit?.(wanted, live);
      if (admitted) await admitted;
      await opts.hooks?.checkPolicy?.(wanted, live);
      // 4. prepare
      const rv = wanted.metadata.resourceVersion;
      if (rv !== undefined && rv !== '' && rv !== live.metadata.resourceVersion) {
        throw errors.staleUpdate(this.gr, name);
      }
      if ((rv === undefined || rv === '') && !this.strategy.allowUnconditionalUpdate) {
        this.invalid(name, [fieldErrors.invalid('metadata.resourceVersion', '', 'must be specified for an update')]);
      }
      // identity fields the client may omit are carried over
      wanted.metadata.name = name;
      if (this.def.namespaced) wanted.metadata.namespace = namespace;
      for (const f of ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const) {
        if (wanted.metadata[f] === undefined && live.metadata[f] !== undefined) wanted.metadata[f] = live.metadata[f];
      }
      if (live.metadata.deletionTimestamp) {
        wanted.metadata.deletionTimestamp = live.metadata.deletionTimestamp;
        wanted.metadata.deletionGracePeriodSeconds = live.metadata.deletionGracePeriodSeconds;
      }
      // 4, 5. prepare and validate, as the resource or as the subresource
      const errs: FieldError[] = [];
      if (sub) {
        this.keepManagedFields(wanted, () => sub.prepareForUpdate(wanted, live));
        errs.push(...sub.validateUpdate(wanted, live));
      } else {
        this.keepManagedFields(wanted, () => this.strategy.prepareForUpdate(wanted, live));
        if (!this.strategy.updateRulesOnly) errs.push(...this.strategy.validate(wanted));
        // a kind whose update rules repeat its create rules reports each error once (upstream runs only the update's)
        const seen = new Set(errs.map(String));
        for (const e of this.strategy.validateUpdate(wanted, live)) if (!seen.has(String(e))) errs.push(e);
      }
      if (errs.length) this.invalid(name, errs);
      // 6. allocation, canonical form, warnings
      if (!sub) alloc = await this.strategy.allocate?.(wanted, live, { dryRun: !!opts.dryRun });
      this.strategy.canonicalize(wanted);
      opts.warnings?.push(...this.strategy.warningsOnUpdate(wanted, live));
      wanted.metadata.resourceVersion = live.metadata.resourceVersion;
      // 7. validating admission
      const validated = opts.hooks?.validate?.(wanted, live);
      if (validated) await validated;
      if (wanted.metadata.deletionTimestamp && !wanted.metadata.finalizers?.length && !this.strategy.hasPendingFinalizers?.(wanted)) deleteAfter = true;
      return canonicalOrder(await this.toStorage(wanted));
    };

    try {
      if (opts.dryRun) {
        const live = await this.storage.get(key);
        try {
          result = await tryUpdate(live ? structuredClone(live) : null);
        } finally {
          if (alloc) await alloc.rollback();
          alloc = undefined;
        }
        if (live && jsonEqual(result, live)) result = live;
        return { obj: result, created };
      }
      result = await this.storage.guaranteedUpdate(key, {
        ignoreNotFound: !!opts.createIfMissing,
        tryUpdate: (live) => tryUpdate(live),
      });
    } catch (err) {
      if (alloc) await alloc.rollback();
      this.mapStorageError(err, name);
    }
    if (alloc) await alloc.commit(result!);
    if (deleteAfter && result) {
      // the last finalizer is gone from an object being deleted: it goes now
      try {
        result = await this.storage.delete(key, { preconditions: { resourceVersion: result.metadata.resourceVersion } });
        await this.strategy.afterDelete?.(result);
      } catch (err) {
        if (!(err instanceof NotFoundError)) this.mapStorageError(err, name);
      }
    }
    return { obj: result!, created };
  }

  /**
   * Patch (JSON, merge or strategic merge patch), in kube-apiserver's order.
   * Steps 1-3 run inside update()'s read-modify-write, so a write that
   * conflicts runs them all again on the new live object:
   *  1. read the live object (404 when missing: a patch never creates)
   *  2. apply the patch to it; the result is checked as a request body of
   *     the client's version: apiVersion and kind, nulls dropped, spec
   *     defaults, schema with the request's fieldValidation (a JSON patch
   *     has no duplicate fields to report, being a list of operations);
   *     first, a round-trip annotation that is not JSON fails the result's
   *     conversion to the hub (unconvertiblePatchResult)
   *  3. the update pipeline (update() steps 2-7: mutating admission, the
   *     write policy, prepare, validation, allocation, managed fields,
   *     validating admission)
   *  4. storage (update() step 8)
   * A resourceVersion the patch sets is a precondition (409 when stale), as
   * for a PUT.
   */
  async patch(namespace: string, name: string, req: PatchRequest, opts: PatchOptions): Promise<Obj> {
    const { services, ...given } = opts;
    const pipeline = { ...given, version: given.version ?? groupVersion(req.def.group, req.def.version) };
    const context = { schema: services.mergeSchema, typeName: req.def.schema, custom: this.def.custom };
    const duplicates = req.type === 'json' ? [] : req.duplicates;
    const transform = async (live: Obj | null): Promise<Obj> => {
      if (!live) throw errors.notFound(this.gr, name);
      let patched: Obj;
      try {
        patched = applyPatch(req.type, live as never, req.patch, context) as Obj;
      } catch (err) {
        throw patchErrorToApi(err);
      }
      const notJSON = this.def.custom ? undefined : keptAnnotationError(patched, req.def.conversion);
      if (notJSON !== undefined) throw unconvertiblePatchResult(patched, notJSON);
      await checkRequestObject(services, req.def, patched, { fieldValidation: req.fieldValidation, duplicates, warnings: opts.warnings, reportsRequired: this.strategy.reportsRequired });
      return patched;
    };
    const { obj } = await this.update(namespace, name, transform, pipeline);
    return obj;
  }

  /**
   * Server-side apply, in kube-apiserver's order. Steps 1-3 run inside
   * update()'s read-modify-write, so a write that conflicts runs them all
   * again on the new live object:
   *  1. read the live object; a missing one is created (on the main
   *     resource only; apply may create whatever the strategy says)
   *  2. the configuration: metadata.managedFields must be absent, then it is
   *     checked as a request body of the client's version without defaults
   *     (it is merged as sent: defaults would make the applier own them)
   *     nor required fields (it may say only the fields its manager owns);
   *     it is merged into the live object by the field manager, which
   *     records the applier's ownership (409 on conflicts with other
   *     managers unless force); then spec defaults fill the merged object,
   *     which must hold what the schema requires
   *  3. the update pipeline (update() steps 2-7, without its own managed
   *     fields step: step 2 recorded them), or create()'s steps when the
   *     object is new (admission is told CREATE, as upstream)
   *  4. storage (update() step 8)
   */
  async apply(namespace: string, name: string, req: ApplyRequest, opts: PatchOptions): Promise<{ obj: Obj; created: boolean }> {
    const { services, ...given } = opts;
    const pipeline = { ...given, version: given.version ?? groupVersion(req.def.group, req.def.version) };
    const res = { def: req.def, store: this };
    const sub = opts.subresource;
    const transform = async (live: Obj | null): Promise<Obj> => {
      const config = req.config;
      if (config.metadata?.managedFields !== undefined) throw errors.badRequest('metadata.managedFields must be nil');
      await checkRequestObject(services, req.def, config, {
        fieldValidation: req.fieldValidation,
        duplicates: req.duplicates,
        defaults: false,
        required: false,
        warnings: opts.warnings,
        reportsRequired: this.strategy.reportsRequired,
      });
      let merged: Obj;
      try {
        merged = services.managedFields.apply(res, live, config, req.manager, req.force, sub);
      } catch (err) {
        throw patchErrorToApi(err);
      }
      services.defaulter.apply(req.def.schema, merged);
      await checkRequired(services, req.def, merged, this.strategy.reportsRequired);
      return merged;
    };
    // the field manager recorded ownership in the transform: the pipeline's own step is left out
    const hooks = { ...this.hooksOf(pipeline, namespace, name, sub) };
    delete hooks.manageFields;
    return this.update(namespace, name, transform, {
      ...pipeline,
      writer: undefined,
      hooks,
      createIfMissing: !sub,
      forceAllowCreate: true,
    });
  }

  /**
   * Delete, in kube-apiserver's order; an object with finalizers (or a
   * propagation policy that adds one) gets deletionTimestamp and stays until
   * its last finalizer is removed, otherwise it goes now. Returns the last
   * state and whether it is gone.
   *  1. read the live object (404 when missing); preconditions (uid,
   *     resourceVersion: 409); the strategy's delete check (validateDelete)
   *  2. admission of the delete (hooks.admitDelete, or the in-process
   *     writer's: both halves, the live object as oldObject), run again on
   *     the object storage re-reads in step 3 (upstream's deleteValidation)
   *  3. storage: with finalizers pending, a read-modify-write that adds the
   *     propagation policy's finalizer, prepares the graceful delete and sets
   *     deletionTimestamp (the object is deleted at once if no finalizer is
   *     left); otherwise a delete with the preconditions, refused when
   *     finalizers appeared concurrently. A dry run stops before storage,
   *     after admission.
   *  4. afterDelete of the strategy (release what the object held), once gone
   */
  async delete(namespace: string, name: string, given: DeleteOptions = {}): Promise<{ obj: Obj; deleted: boolean }> {
    const opts = { ...given, hooks: this.hooksOf(given, namespace, name, undefined) };
    const admit = async (live: Obj): Promise<void> => {
      await opts.hooks?.admitDelete?.(live);
    };
    const key = this.key(namespace, name);
    const checkPreconditions = (live: Obj) => {
      const p = opts.preconditions;
      if (p?.uid && p.uid !== live.metadata.uid) {
        throw errors.conflict(this.gr, name, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${live.metadata.uid}`);
      }
      if (p?.resourceVersion && p.resourceVersion !== live.metadata.resourceVersion) {
        throw errors.conflict(this.gr, name, `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${live.metadata.resourceVersion}`);
      }
    };
    const wantFinalizer = opts.propagationPolicy === 'Orphan' ? FINALIZER_ORPHAN : opts.propagationPolicy === 'Foreground' ? FINALIZER_FOREGROUND : undefined;
    let graceful = false;
    let result: Obj;
    try {
      // 1. read, preconditions, the strategy's check
      const live = await this.storage.get(key);
      if (!live) throw errors.notFound(this.gr, name);
      checkPreconditions(live);
      this.strategy.validateDelete?.(live);
      const finalizers: string[] = [...(live.metadata.finalizers ?? [])];
      if (wantFinalizer && !finalizers.includes(wantFinalizer)) finalizers.push(wantFinalizer);
      const pending = (o: Obj) => !!this.strategy.hasPendingFinalizers?.(o);
      if (finalizers.length > 0 || pending(live)) {
        graceful = true;
        if (opts.dryRun) {
          // 2. admission; a dry run stops before storage
          await admit(live);
          const copy = structuredClone(live);
          if (finalizers.length) copy.metadata.finalizers = finalizers;
          this.strategy.prepareForGracefulDelete?.(copy, !!live.metadata.deletionTimestamp);
          copy.metadata.deletionTimestamp ??= nowRFC3339();
          copy.metadata.deletionGracePeriodSeconds ??= 0;
          return { obj: copy, deleted: false };
        }
        // 2, 3. admission of what storage read, then the graceful update
        result = await this.storage.guaranteedUpdate(key, {
          tryUpdate: async (cur) => {
            if (!cur) throw new NotFoundError(key);
            checkPreconditions(cur);
            await admit(cur);
            const next = structuredClone(cur);
            const f: string[] = [...(next.metadata.finalizers ?? [])];
            if (wantFinalizer && !f.includes(wantFinalizer)) f.push(wantFinalizer);
            if (f.length || next.metadata.finalizers) next.metadata.finalizers = f;
            this.strategy.prepareForGracefulDelete?.(next, !!cur.metadata.deletionTimestamp);
            if (!next.metadata.deletionTimestamp) {
              next.metadata.deletionTimestamp = nowRFC3339();
              next.metadata.deletionGracePeriodSeconds = 0;
            }
            return next;
          },
        });
        if (!result.metadata.finalizers?.length && !pending(result)) {
          result = await this.storage.delete(key, { preconditions: { resourceVersion: result.metadata.resourceVersion } });
          graceful = false;
        }
      } else {
        if (opts.dryRun) {
          await admit(live);
          return { obj: live, deleted: true };
        }
        // 2, 3. admission of what storage read, then the delete
        result = await this.storage.delete(key, {
          preconditions: { uid: opts.preconditions?.uid, resourceVersion: opts.preconditions?.resourceVersion },
          validateDeletion: async (cur) => {
            checkPreconditions(cur);
            if (cur.metadata.finalizers?.length) throw new ConflictError(key, 'finalizers added concurrently');
            await admit(cur);
          },
        });
      }
    } catch (err) {
      this.mapStorageError(err, name);
    }
    // 4. release what the object held
    if (!graceful) await this.strategy.afterDelete?.(result!);
    return { obj: result!, deleted: !graceful };
  }

  /**
   * Deletecollection: lists what the predicate selects in the namespace,
   * then runs delete() on each object with the same options (admission per
   * object, named '' as upstream's collection attributes are); an object
   * already gone is skipped, any other error ends the collection (what was
   * deleted before it stays deleted). Returns the last state of each object
   * and the list's resourceVersion.
   */
  async deleteCollection(namespace: string, predicate: ListOptions['predicate'], opts: DeleteOptions = {}): Promise<{ items: Obj[]; resourceVersion: string }> {
    const list = await this.list(namespace, { predicate });
    const hooks = this.hooksOf(opts, namespace, '', undefined);
    const items: Obj[] = [];
    for (const item of list.items) {
      try {
        const { obj } = await this.delete(item.metadata.namespace ?? '', item.metadata.name, { ...opts, writer: undefined, hooks });
        items.push(obj);
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) continue;
        throw err;
      }
    }
    return { items, resourceVersion: list.resourceVersion };
  }
}
