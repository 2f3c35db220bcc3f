// The ownership engine (structured-merge-diff's merge.Updater): given the
// live object, the new object or applied configuration, and each manager's
// field set, computes the merged object and the new field sets.
// - update: the writer takes every field it changed; changed or removed
//   fields leave the other managers; never conflicts.
// - apply: merges the configuration, prunes fields this applier set last time
//   and no longer sets (unless someone else owns them), then takes ownership;
//   changing a field another manager owns is a conflict unless forced.
// - versions: a manager's set is in the apiVersion it wrote through; the
//   objects are compared in that version (converted, typed by its schema)
//   for its conflicts and removals, and a last applied set is pruned in its
//   version (merge/versions.ts), as structured-merge-diff's converter does.
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
import { VersionForms, type ObjectVersions, type VersionForm } from './versions.ts';

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
  /** The apiVersion of writes through this updater (typeRef's version); with `versions`, sets of other versions are read in theirs. */
  apiVersion?: string;
  /** The object's other versions: each manager's set compared in the version it was recorded in. */
  versions?: ObjectVersions;
}

export class Updater {
  private readonly view: SchemaView;
  private readonly ref: TypeRef;
  private readonly ignored: FieldSet;
  private readonly deduced: boolean;
  private readonly forms: VersionForms;

  constructor(o: UpdaterOptions) {
    this.view = o.view;
    this.ref = o.typeRef;
    this.ignored = o.ignored ?? new FieldSet();
    this.deduced = !!o.deduced;
    this.forms = new VersionForms(o.view, { version: o.apiVersion ?? '', ref: o.typeRef }, o.deduced ? undefined : o.versions);
  }

  filter(set: FieldSet): FieldSet {
    return set.recursiveDifference(this.ignored);
  }

  /** Collapses sets below fields that changed from granular to atomic. */
  reconcile(managers: ManagedSets): ManagedSets {
    if (this.deduced) return managers;
    const out: ManagedSets = new Map();
    for (const [m, vs] of managers) {
      const r = reconcileFieldSet(this.view, this.forms.of(vs.apiVersion).ref, vs.set);
      out.set(m, r ? { ...vs, set: r } : vs);
    }
    return out;
  }

  /** What changed from `live` to `next` (both of the writer's form) in `form`, without the ignored fields. */
  private comparison(live: Obj, next: Obj, form: VersionForm): Comparison {
    const own = this.forms.own;
    const raw = compare(this.view, form.ref, this.forms.convert(live, own, form), this.forms.convert(next, own, form));
    return { added: this.filter(raw.added), modified: this.filter(raw.modified), removed: this.filter(raw.removed) };
  }

  /**
   * Takes what `workflow` changed from the other managers, each compared in
   * its own version: a changed field another owns is a conflict (unless
   * forced), a removed one leaves its owner. Returns the comparison in the
   * writer's version.
   */
  private takeOwnership(live: Obj, next: Obj, managers: ManagedSets, workflow: string, force: boolean): Comparison {
    const own = this.forms.own;
    const cmp = this.comparison(live, next, own);
    const mine = { changed: cmp.modified.union(cmp.added), removed: cmp.removed };
    // the comparisons in the other managers' versions, worked out when one of them is met
    let others: Map<VersionForm, typeof mine> | undefined;
    const inVersion = (apiVersion: string): typeof mine => {
      const form = this.forms.of(apiVersion);
      if (form === own) return mine;
      let c = (others ??= new Map()).get(form);
      if (!c) {
        const other = this.comparison(live, next, form);
        others.set(form, (c = { changed: other.modified.union(other.added), removed: other.removed }));
      }
      return c;
    };
    const conflicts = new Map<string, FieldSet>();
    for (const [m, vs] of managers) {
      if (m === workflow) continue;
      const c = vs.set.intersection(inVersion(vs.apiVersion).changed);
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
      s = s.difference(inVersion(vs.apiVersion).removed);
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
   * Worked out in the version the last set was recorded in, each manager's
   * ownership in its own version; the result is in the writer's version.
   */
  private prune(merged: Obj, managers: ManagedSets, applier: string, lastSet: VersionedSet | undefined): Obj {
    if (!lastSet || lastSet.set.empty()) return merged;
    const own = this.forms.own;
    const lastForm = this.forms.of(lastSet.apiVersion);
    // Nothing can be pruned when the new configuration still sets every field of the last one.
    const current = managers.get(applier);
    if (lastForm === own && current && lastSet.set.difference(current.set).empty()) return merged;
    const v = this.view;
    const named = (form: VersionForm, s: FieldSet) => ensureNamedFieldsAreMembers(v, form.ref, s);
    const fieldSet = (form: VersionForm, o: JSONValue) => named(form, toFieldSet(v, form.ref, o, { allowDuplicates: true }));
    const inLast = this.forms.convert(merged, own, lastForm);
    const last = named(lastForm, lastSet.set);
    const mergedSet = fieldSet(lastForm, inLast);
    let pruned = (removeItems(v, lastForm.ref, inLast, last) ?? {}) as Obj;
    let prunedForm = lastForm;
    // Add back what any manager (including the new configuration) owns, in each one's version, the last set's first.
    const owned = new Map<VersionForm, FieldSet>([[lastForm, new FieldSet()]]);
    for (const vs of managers.values()) {
      const form = this.forms.of(vs.apiVersion);
      owned.set(form, (owned.get(form) ?? new FieldSet()).union(vs.set));
    }
    for (const [form, set] of owned) {
      const m = this.forms.convert(inLast, lastForm, form);
      const p = this.forms.convert(pruned, prunedForm, form);
      const ms = form === lastForm ? mergedSet : fieldSet(form, m);
      pruned = (removeItems(v, form.ref, m, ms.difference(fieldSet(form, p).union(named(form, set)))) ?? {}) as Obj;
      prunedForm = form;
    }
    // Only remove what the applier did own (dangling items stay).
    const prunedSet = fieldSet(lastForm, this.forms.convert(pruned, prunedForm, lastForm));
    pruned = (removeItems(v, lastForm.ref, inLast, mergedSet.difference(prunedSet).intersection(last)) ?? {}) as Obj;
    const restored = (restoreDefaults(v, lastForm.ref, inLast, pruned) ?? {}) as Obj;
    return this.forms.convert(restored, lastForm, own);
  }
}

export { MergeConflicts };
export type { JSONValue };
