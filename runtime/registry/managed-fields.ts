// The seam between the registry's write pipeline and server-side apply's
// field manager (runtime/apply): every create, update and non-apply patch,
// from a request or from an in-process writer, records ownership as an
// Update; apply patches go through apply().

import type { MergeSchema, ResourceDef } from '../../generated/api-types.ts';
import { ApplyConflictError, FieldManager, FieldManagerError } from '../apply/index.ts';
import { ApiError, errors, type StatusDetails } from '../api/errors.ts';
import type { Obj } from '../storage/interface.ts';
import { groupVersion } from '../api/keys.ts';
import type { DeclaredVersions } from './conversion/declared.ts';

/**
 * The resource a write is for: its version's schema and apiVersion, what its
 * strategies reset, and, for a resource served in versions of different
 * shapes, those versions (ownership recorded through one is compared in it).
 */
export interface ManagedResource {
  def: ResourceDef;
  store: { resetFields: Record<string, string[]>; fieldVersions?: DeclaredVersions };
}

export interface ManagedFieldsHook {
  /** Records the writer's ownership on `obj` (operation Update); returns the object to store. */
  update(res: ManagedResource, live: Obj | null, obj: Obj, manager: string, subresource?: string): Obj;
  /** Merges an apply configuration into `live`; throws a 409 ApiError on conflicts unless force. */
  apply(res: ManagedResource, live: Obj | null, config: Obj, manager: string, force: boolean, subresource?: string): Obj;
}

function mapError(err: unknown): unknown {
  if (err instanceof FieldManagerError) {
    return err.code === 400 ? errors.badRequest(err.message) : errors.internal(err);
  }
  return err;
}

/**
 * FieldManagers by merge schema, resource version and reset fields, shared
 * by every hook of the process (they keep what they work out per type, which
 * a server started after another then does not work out again).
 */
const managersBySchema = new WeakMap<MergeSchema, Map<string, FieldManager>>();

/** The process's FieldManagers by merge schema, as the CRD serving code tidies them. */
export const sharedFieldManagers = {
  /**
   * Forgets the FieldManagers of types that left the merge schema (a custom
   * resource version's previous schema, whose tagged name is never used again).
   */
  forget(schema: MergeSchema, names: readonly string[]): void {
    const shared = managersBySchema.get(schema);
    if (!shared) return;
    const gone = new Set(names);
    for (const [key, fm] of shared) if (gone.has(fm.typeName)) shared.delete(key);
  },
  /** The type names of the FieldManagers kept for this merge schema. */
  types(schema: MergeSchema): string[] {
    return [...(managersBySchema.get(schema)?.values() ?? [])].map((fm) => fm.typeName);
  },
};

/** The field-manager hook backed by server-side apply (runtime/apply), one FieldManager per resource version. */
export function createManagedFieldsHook(schema: MergeSchema): ManagedFieldsHook {
  let shared = managersBySchema.get(schema);
  if (!shared) managersBySchema.set(schema, (shared = new Map()));
  const inProcess = shared;
  const managers = new Map<string, FieldManager>();
  const managerFor = (res: ManagedResource): FieldManager => {
    const d = res.def;
    const key = `${d.group}/${d.version}/${d.resource}`;
    let fm = managers.get(key);
    // a custom resource's version is served with a new schema name after its CRD changed
    if (!fm || fm.typeName !== d.schema) {
      const versions = res.store.fieldVersions;
      const processKey = `${key}/${d.schema}/${d.custom}:${JSON.stringify(res.store.resetFields)}:${versions?.key ?? ''}`;
      fm =
        inProcess.get(processKey) ??
        new FieldManager({
          schema,
          typeName: d.schema,
          apiVersion: groupVersion(d.group, d.version),
          unstructured: d.custom,
          kind: d.kind,
          // what each endpoint's strategy resets is never owned through it
          resetFields: res.store.resetFields,
          versions,
        });
      inProcess.set(processKey, fm);
      managers.set(key, fm);
    }
    return fm;
  };
  return {
    update(res, live, obj, manager, subresource) {
      try {
        return managerFor(res).update(live, obj, manager, { subresource });
      } catch (err) {
        throw mapError(err);
      }
    },
    apply(res, live, config, manager, force, subresource) {
      try {
        return managerFor(res).apply(live, config, manager, { force, subresource });
      } catch (err) {
        if (err instanceof ApplyConflictError) {
          const details: StatusDetails = { name: live?.metadata?.name ?? config.metadata?.name };
          if (res.def.group) details.group = res.def.group;
          details.kind = res.def.resource;
          details.causes = err.causes;
          throw new ApiError(409, 'Conflict', err.message, details);
        }
        throw mapError(err);
      }
    },
  };
}
