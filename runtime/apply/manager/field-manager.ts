// FieldManager: server-side apply and managedFields bookkeeping for one kind
// at one apiVersion, the way kube-apiserver's field manager stack does it.
// - update(): for create/update/non-apply patch; records the writer's changes
//   as an `Update` entry; honours the managedFields reset (`[{}]`) and user-
//   supplied managedFields; never fails (invalid input drops managedFields).
// - apply(): for application/apply-patch+yaml; merges the configuration,
//   prunes, detects conflicts (ApplyConflictError), records an `Apply` entry.
// - with `versions`, the managers of the object's other versions keep their
//   sets in their apiVersion and are compared in it (merge/versions.ts).
// Boundary: works on plain JSON objects; HTTP decoding, admission, defaulting
// beyond schema defaults and storage are the caller's.
import type { MergeSchema, TypeRef } from '../../../generated/api-types.ts';
import { fieldPath } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { ApplyConflictError, MergeConflicts } from '../merge/conflicts.ts';
import { Updater } from '../merge/updater.ts';
import type { ObjectVersions } from '../merge/versions.ts';
import { DEDUCED_REF, ListItemError, viewOf, type SchemaView } from '../schema/resolve.ts';
import { DuplicateItemError, toFieldSet } from '../typed/to-field-set.ts';
import { zeroObject } from '../typed/defaults.ts';
import { clone, isObj, type Obj } from '../value/json.ts';
import {
  BEFORE_FIRST_APPLY,
  allowedFromLastApplied,
  buildLastApplied,
  capUpdateManagers,
  keepTimestampsOnNoop,
  lastApplied,
  managedFieldsOf,
  setLastApplied,
  stripMeta,
  withManagedFields,
} from './layers.ts';
import { ManagedFieldsError, cloneManaged, decodeManagedFields, emptyManaged, encodeManagedFields, formatTime, isResetManagedFields, managerIdentifier, type Managed } from './managed-fields.ts';

export interface FieldManagerOptions {
  schema: MergeSchema;
  /** The kind's type in the merge schema, e.g. `io.k8s.api.apps.v1.Deployment`. */
  typeName: string;
  /** group/version of requests through this manager, e.g. `apps/v1` (`v1` for core). */
  apiVersion: string;
  /** Custom resources: a type missing from the schema is handled schemaless (lists atomic, maps granular). */
  unstructured?: boolean;
  /**
   * Fields a write through each endpoint never owns because the strategy resets
   * them, keyed by subresource ('' for the main resource), as dotted paths:
   * e.g. `{ '': ['status'], status: ['spec', 'metadata.labels'] }`.
   */
  resetFields?: Record<string, string[]>;
  /** Cap on Update entries before the oldest merge into `ancient-changes` (default 10). */
  maxUpdateManagers?: number;
  /** The kind served; when given, an apply configuration of another apiVersion/kind is a 400. */
  kind?: string;
  /**
   * The object's forms in its other versions (a resource served in several
   * versions of different shapes): a manager's set recorded in another
   * version is compared with the objects converted there. Absent: every set
   * is read in `apiVersion`'s terms.
   */
  versions?: ObjectVersions;
}

export interface WriteOptions {
  subresource?: string;
  now?: Date;
}

export interface ApplyOptions extends WriteOptions {
  force: boolean;
}

/** Invalid apply input (400) or undecodable stored managedFields (500). */
export class FieldManagerError extends Error {
  constructor(
    readonly code: 400 | 500,
    message: string,
  ) {
    super(message);
    this.name = 'FieldManagerError';
  }
}

const CURRENT_OPERATION = 'current-operation';

export class FieldManager {
  readonly apiVersion: string;
  /** The merge schema type the objects are of. */
  readonly typeName: string;
  private readonly view: SchemaView;
  private readonly ref: TypeRef;
  private readonly deduced: boolean;
  private readonly updaters = new Map<string, Updater>();
  private readonly resetFields: Record<string, string[]>;
  private readonly maxUpdateManagers: number | undefined;
  private readonly kind: string | undefined;
  private readonly versions: ObjectVersions | undefined;
  private zero: Obj | undefined;

  constructor(o: FieldManagerOptions) {
    this.view = viewOf(o.schema);
    this.apiVersion = o.apiVersion;
    this.typeName = o.typeName;
    const known = this.view.hasType(o.typeName);
    if (!known && !o.unstructured) throw new Error(`merge schema has no type ${JSON.stringify(o.typeName)}`);
    this.ref = known ? { named: o.typeName } : DEDUCED_REF;
    this.deduced = !known;
    this.resetFields = o.resetFields ?? {};
    this.maxUpdateManagers = o.maxUpdateManagers;
    this.kind = o.kind;
    this.versions = o.versions;
  }

  /** A new empty object of the kind (what creates compare against). */
  private empty(): Obj {
    this.zero ??= zeroObject(this.view, this.ref);
    return clone(this.zero);
  }

  private updater(subresource: string): Updater {
    let u = this.updaters.get(subresource);
    if (!u) {
      const ignored = FieldSet.of(...(this.resetFields[subresource] ?? []).map(fieldPath));
      u = new Updater({ view: this.view, typeRef: this.ref, ignored, deduced: this.deduced, apiVersion: this.apiVersion, versions: this.versions });
      this.updaters.set(subresource, u);
    }
    return u;
  }

  /**
   * Records a create/update/patch by `manager`: returns `updated` with
   * metadata.managedFields maintained (a shallow copy: it shares `updated`'s
   * subtrees; neither argument is changed). `live` is null on create.
   */
  update(live: Obj | null, updated: Obj, manager: string, opts: WriteOptions = {}): Obj {
    const sub = opts.subresource ?? '';
    const now = formatTime(opts.now ?? new Date());
    const newObj = withManagedFields(updated, undefined);
    let managed: Managed;
    try {
      managed = this.decodeLiveOrNew(live, updated, sub !== '');
    } catch {
      return newObj;
    }
    const liveObj = live ? withManagedFields(live, undefined) : this.empty();
    try {
      managed = this.innerUpdate(liveObj, newObj, managed, manager, sub, now);
    } catch (e) {
      if (e instanceof ListItemError || e instanceof DuplicateItemError) return newObj;
      throw e;
    }
    capUpdateManagers(managed, this.maxUpdateManagers);
    return keepTimestampsOnNoop(live, withManagedFields(newObj, encodeManagedFields(managed)));
  }

  /**
   * Applies `config` for `manager`: returns the object to store (a fresh
   * object, sharing nothing with `live` or `config`), with metadata.managedFields. Throws ApplyConflictError (409) or
   * FieldManagerError (400 invalid configuration, 500 undecodable live entries).
   */
  apply(live: Obj | null, config: Obj, manager: string, opts: ApplyOptions): Obj {
    const md = config.metadata;
    if (isObj(md) && md.managedFields !== undefined && md.managedFields !== null) {
      throw new FieldManagerError(400, 'metadata.managedFields must be nil');
    }
    if (this.kind !== undefined && (config.apiVersion !== this.apiVersion || config.kind !== this.kind)) {
      throw new FieldManagerError(400, `invalid object type: ${gvkString(config.apiVersion, config.kind)}`);
    }
    try {
      toFieldSet(this.view, this.ref, config);
    } catch (e) {
      if (e instanceof ListItemError || e instanceof DuplicateItemError) {
        throw new FieldManagerError(400, `failed to create typed patch object (${objectGVKNN(config)}): ${e.message}`);
      }
      throw e;
    }
    const sub = opts.subresource ?? '';
    const now = formatTime(opts.now ?? new Date());
    let managed: Managed;
    try {
      managed = decodeManagedFields(managedFieldsOf(live));
    } catch (e) {
      throw new FieldManagerError(500, `failed to decode managed fields: ${(e as Error).message}`);
    }
    const liveObj = live ? withManagedFields(live, undefined) : this.empty();
    const attempt = (force: boolean) => {
      let m = cloneManaged(managed);
      if (live && m.sets.size === 0) {
        // Fields set before any manager was tracked belong to `before-first-apply`.
        m = this.innerUpdate(this.empty(), liveObj, m, BEFORE_FIRST_APPLY, sub, now);
      }
      return this.innerApply(liveObj, config, m, manager, force, sub, now);
    };
    let result: { object: Obj; managed: Managed };
    try {
      result = attempt(opts.force);
    } catch (e) {
      if (e instanceof ListItemError || e instanceof DuplicateItemError) {
        throw new FieldManagerError(500, `failed to create typed live object (${objectGVKNN(live ?? config)}): ${e.message}`);
      }
      if (!(e instanceof MergeConflicts)) throw e;
      // Client-side apply migration: `kubectl` may take fields its last-applied annotation describes.
      const allowed = manager === 'kubectl' && live ? allowedFromLastApplied(this.view, this.ref, liveObj, this.apiVersion) : undefined;
      if (!allowed) throw new ApplyConflictError(e.conflicts);
      const remaining = e.conflicts.filter((c) => !allowed.has(c.path));
      if (remaining.length > 0) throw new ApplyConflictError(remaining);
      result = attempt(true);
    }
    // The merge shares subtrees with live and config; hand back an object of its own.
    let object = clone(result.object);
    if (manager === 'kubectl' && lastApplied(object)) object = setLastApplied(object, buildLastApplied(config));
    capUpdateManagers(result.managed, this.maxUpdateManagers);
    return keepTimestampsOnNoop(live, withManagedFields(object, encodeManagedFields(result.managed)));
  }

  private decodeLiveOrNew(live: Obj | null, updated: Obj, isSubresource: boolean): Managed {
    if (isSubresource) return decodeLive(live);
    const given = managedFieldsOf(updated);
    if (isResetManagedFields(given)) return emptyManaged();
    let m: Managed | undefined;
    try {
      m = decodeManagedFields(given);
    } catch {
      m = undefined;
    }
    if (!m || m.sets.size === 0) return decodeLive(live);
    return m;
  }

  private innerUpdate(liveObj: Obj, newObj: Obj, managed: Managed, manager: string, sub: string, now: string): Managed {
    const id = managerIdentifier(manager, 'Update', this.apiVersion, sub);
    const sets = this.updater(sub).update(liveObj, newObj, this.apiVersion, new Map(managed.sets), CURRENT_OPERATION);
    const out: Managed = { sets, times: new Map(managed.times) };
    stripMeta(out, CURRENT_OPERATION);
    const vs = sets.get(CURRENT_OPERATION);
    sets.delete(CURRENT_OPERATION);
    if (vs) {
      const prev = sets.get(id);
      sets.set(id, { set: prev ? vs.set.union(prev.set) : vs.set, apiVersion: this.apiVersion, applied: false });
      out.times.set(id, now);
    }
    return out;
  }

  private innerApply(liveObj: Obj, config: Obj, managed: Managed, manager: string, force: boolean, sub: string, now: string): { object: Obj; managed: Managed } {
    const id = managerIdentifier(manager, 'Apply', this.apiVersion, sub);
    const r = this.updater(sub).apply(liveObj, config, this.apiVersion, new Map(managed.sets), id, force);
    const out: Managed = { sets: r.managers, times: new Map(managed.times) };
    stripMeta(out, id);
    out.times.set(id, now);
    return { object: r.object, managed: out };
  }
}

/** The live object's managedFields (an undecodable entry: ManagedFieldsError). */
function decodeLive(live: Obj | null): Managed {
  try {
    return decodeManagedFields(managedFieldsOf(live));
  } catch (e) {
    throw new ManagedFieldsError((e as Error).message);
  }
}

/** A group/version/kind as upstream prints it: `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const k = typeof kind === 'string' ? kind : '';
  const parts = av.split('/');
  let group = '';
  let version = '';
  if (parts.length === 1) version = parts[0];
  else if (parts.length === 2) [group, version] = parts;
  return `${group}/${version}, Kind=${k}`;
}

/** `namespace/name; group/version, Kind=kind`, how upstream names the object in typed-conversion errors. */
function objectGVKNN(o: Obj): string {
  const md = isObj(o.metadata) ? o.metadata : {};
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return `${str(md.namespace)}/${str(md.name)}; ${gvkString(o.apiVersion, o.kind)}`;
}
