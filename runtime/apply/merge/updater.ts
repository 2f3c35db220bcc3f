// The ownership engine (structured-merge-diff's merge.Updater): given the
// live object, the new object or applied configuration, and each manager's
// field set, computes the merged object and the new field sets.
// - update: the writer takes every field it changed; changed or removed
//   fields leave the other managers; never conflicts.
// - apply: merges the configuration, prunes fields this applier set last time
//   and no longer sets (unless someone else owns them), then takes ownership;
//   changing a field another manager owns is a conflict unless forced.
// Boundary: manager identities are opaque strings here; no metadata rules.
import type { TypeRef } from '../../../generated/api-types.ts';
import { FieldSet } from '../fieldpath/set.ts';
import type { SchemaView } from '../schema/resolve.ts';
import { compare, type Comparison } from '../typed/compare.ts';
import { restoreDefaults } from '../typed/defaults.ts';
import { merge } from '../typed/merge.ts';
import { ensureNamedFieldsAreMembers } from '../typed/named-fields.ts';
import { reconcileFieldSet } from '../typed/reconcile.ts';
import { removeItems } from '../typed/remove.ts';
import { toFieldSet } from '../typed/to-field-set.ts';
import type { JSONValue, Obj } from '../value/json.ts';
import { MergeConflicts, type Conflict } from './conflicts.ts';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

/** Field sets by manager identifier. */
export type ManagedSets = Map<string, VersionedSet>;

export interface UpdaterOptions {
  view: SchemaView;
  typeRef: TypeRef;
  /** Fields never owned through this endpoint (reset by the strategy, e.g. status on the main resource). */
  ignored?: FieldSet;
  /** Skip topology reconciliation (schemaless objects). */
  deduced?: boolean;
}

export class Updater {
  private readonly view: SchemaView;
  private readonly ref: TypeRef;
  private readonly ignored: FieldSet;
  private readonly deduced: boolean;

  constructor(o: UpdaterOptions) {
    this.view = o.view;
    this.ref = o.typeRef;
    this.ignored = o.ignored ?? new FieldSet();
    this.deduced = !!o.deduced;
  }

  filter(set: FieldSet): FieldSet {
    return set.recursiveDifference(this.ignored);
  }

  /** Collapses sets below fields that changed from granular to atomic. */
  reconcile(managers: ManagedSets): ManagedSets {
    if (this.deduced) return managers;
    const out: ManagedSets = new Map();
    for (const [m, vs] of managers) {
      const r = reconcileFieldSet(this.view, this.ref, vs.set);
      out.set(m, r ? { ...vs, set: r } : vs);
    }
    return out;
  }

  private takeOwnership(live: Obj, next: Obj, managers: ManagedSets, workflow: string, force: boolean): Comparison {
    const raw = compare(this.view, this.ref, live, next);
    const cmp: Comparison = {
      added: this.filter(raw.added),
      modified: this.filter(raw.modified),
      removed: this.filter(raw.removed),
    };
    const changed = cmp.modified.union(cmp.added);
    const conflicts = new Map<string, FieldSet>();
    for (const [m, vs] of managers) {
      if (m === workflow) continue;
      const c = vs.set.intersection(changed);
      if (!c.empty()) conflicts.set(m, c);
    }
    if (!force && conflicts.size > 0) {
      const list: Conflict[] = [];
      for (const [m, s] of conflicts) s.iterate((path) => list.push({ managerId: m, path }));
      throw new MergeConflicts(list);
    }
    for (const [m, vs] of [...managers]) {
      if (m === workflow) continue;
      let s = vs.set;
      const c = conflicts.get(m);
      if (c) s = s.difference(c);
      s = s.difference(cmp.removed);
      if (s.empty()) managers.delete(m);
      else if (s !== vs.set) managers.set(m, { ...vs, set: s });
    }
    return cmp;
  }

  /** A non-apply write by `manager`: returns the new field sets (managers is consumed). */
  update(live: Obj, next: Obj, apiVersion: string, managers: ManagedSets, manager: string): ManagedSets {
    const ms = this.reconcile(managers);
    const cmp = this.takeOwnership(live, next, ms, manager, true);
    const prev = ms.get(manager)?.set ?? new FieldSet();
    const set = this.filter(prev.difference(cmp.removed).union(cmp.modified).union(cmp.added));
    if (set.empty()) ms.delete(manager);
    else ms.set(manager, { set, apiVersion, applied: false });
    return ms;
  }

  /**
   * An apply of `config` by `manager`: returns the merged object and field sets.
   * Throws MergeConflicts when not forced and another manager owns a changed field.
   */
  apply(live: Obj, config: Obj, apiVersion: string, managers: ManagedSets, manager: string, force: boolean): { object: Obj; managers: ManagedSets } {
    const ms = this.reconcile(managers);
    const merged = (merge(this.view, this.ref, live, config) ?? {}) as Obj;
    const lastSet = ms.get(manager);
    const set = this.filter(toFieldSet(this.view, this.ref, config));
    ms.set(manager, { set, apiVersion, applied: true });
    const pruned = this.prune(merged, ms, manager, lastSet);
    this.takeOwnership(live, pruned, ms, manager, force);
    return { object: pruned, managers: ms };
  }

  /**
   * Drops what the applier owned last time and no longer applies, unless another
   * manager (or its new configuration) owns it, or nobody but it ever did.
   */
  private prune(merged: Obj, managers: ManagedSets, applier: string, lastSet: VersionedSet | undefined): Obj {
    if (!lastSet || lastSet.set.empty()) return merged;
    // Nothing can be pruned when the new configuration still sets every field of the last one.
    const current = managers.get(applier);
    if (current && lastSet.set.difference(current.set).empty()) return merged;
    const v = this.view;
    const named = (s: FieldSet) => ensureNamedFieldsAreMembers(v, this.ref, s);
    const last = named(lastSet.set);
    let pruned = (removeItems(v, this.ref, merged, last) ?? {}) as JSONValue;
    // Add back what any manager (including the new configuration) owns.
    let managed = new FieldSet();
    for (const vs of managers.values()) managed = managed.union(vs.set);
    const mergedSet = named(toFieldSet(v, this.ref, merged, { allowDuplicates: true }));
    let prunedSet = named(toFieldSet(v, this.ref, pruned, { allowDuplicates: true }));
    pruned = (removeItems(v, this.ref, merged, mergedSet.difference(prunedSet.union(named(managed)))) ?? {}) as JSONValue;
    // Only remove what the applier did own (dangling items stay).
    prunedSet = named(toFieldSet(v, this.ref, pruned, { allowDuplicates: true }));
    pruned = (removeItems(v, this.ref, merged, mergedSet.difference(prunedSet).intersection(last)) ?? {}) as JSONValue;
    return (restoreDefaults(v, this.ref, merged, pruned) ?? {}) as Obj;
  }
}

export { MergeConflicts };
export type { JSONValue };
