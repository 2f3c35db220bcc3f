// The declared conversion rules over lists (x-specserver-conversions,
// docs/spec-format.md), beside declared.ts which runs every rule in order:
// - itemField: a scalar of a version that mirrors one item of a hub list
//   (autoscaling/v1 targetCPUUtilizationPercentage is the v2 metric item
//   `Resource cpu Utilization`);
// - a kept value's form in its annotation: each item of a kept list
//   converted by the item rules (rename inside the item, derive a field the
//   item's other fields say), keys spelled as Go writes a struct without
//   json tags (goFieldNames), and back.
// Each direction gives back what the other took: what a rule cannot say
// in the version stays where it is, so a round trip through the hub loses
// nothing.

import { isDeepStrictEqual } from 'node:util';
import type { ItemFieldRule, ItemRule, JSONValue } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { get, isObj, put, take } from './paths.ts';

/** The item holds every field of `match` (objects compared field by field, anything else equal). */
function contains(item: unknown, match: unknown): boolean {
  if (!isObj(match)) return isDeepStrictEqual(item, match);
  if (!isObj(item)) return false;
  return Object.entries(match).every(([k, v]) => contains(item[k], v));
}

/** The item `match` plus the value: what the scalar rebuilds. */
function rebuilt(rule: ItemFieldRule, value: unknown): Obj {
  const item = structuredClone(rule.match) as Obj;
  put(item, rule.value, value);
  return item;
}

const mirrors = (rule: ItemFieldRule) => (item: unknown) => contains(item, rule.match) && isObj(item) && get(item, rule.value) !== undefined;

/** itemField, from the version to the hub: the scalar becomes its item, appended unless the list already holds one. */
export function itemFieldToHub(obj: Obj, rule: ItemFieldRule): void {
  const value = take(obj, rule.field);
  if (value === undefined) return;
  const list = get(obj, rule.list);
  if (Array.isArray(list)) {
    if (!list.some(mirrors(rule))) list.push(rebuilt(rule, value));
    return;
  }
  put(obj, rule.list, [rebuilt(rule, value)]);
}

/** itemField, from the hub to the version: the first matching item gives the scalar; an item the scalar says whole leaves the list. */
export function itemFieldFromHub(obj: Obj, rule: ItemFieldRule): void {
  const list = get(obj, rule.list);
  if (!Array.isArray(list)) return;
  const i = list.findIndex(mirrors(rule));
  if (i < 0) return;
  const value = get(list[i] as Obj, rule.value);
  put(obj, rule.field, value);
  if (!isDeepStrictEqual(list[i], rebuilt(rule, value))) return;
  list.splice(i, 1);
  if (list.length === 0) take(obj, rule.list);
}

/** What derive sets in an item (undefined: the item lacks `when`). */
function derived(item: Obj, rule: Extract<ItemRule, { op: 'derive' }>): JSONValue | undefined {
  if (get(item, rule.when) === undefined) return undefined;
  for (const c of rule.cases) if (get(item, c.ifPresent) !== undefined) return c.value;
  return rule.otherwise;
}

function itemToHub(item: Obj, rule: ItemRule): void {
  if (rule.op === 'rename') {
    if (get(item, rule.to) === undefined) put(item, rule.to, take(item, rule.from));
    return;
  }
  if (get(item, rule.field) !== undefined) return;
  const value = derived(item, rule);
  if (value !== undefined) put(item, rule.field, structuredClone(value));
}

function itemFromHub(item: Obj, rule: ItemRule): void {
  if (rule.op === 'rename') {
    if (get(item, rule.from) === undefined) put(item, rule.from, take(item, rule.to));
    return;
  }
  const value = derived(item, rule);
  if (value !== undefined && isDeepStrictEqual(get(item, rule.field), value)) take(item, rule.field);
}

/** Keys with the first letter changed, at every depth; nulls dropped when reading Go's (a nil pointer is absent). */
function recased(v: unknown, upper: boolean): unknown {
  if (Array.isArray(v)) return v.map((x) => recased(x, upper));
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (!upper && x === null) continue;
    out[(upper ? k.charAt(0).toUpperCase() : k.charAt(0).toLowerCase()) + k.slice(1)] = recased(x, upper);
  }
  return out;
}

/** How a kept value is written in its annotation. */
export interface KeptForm {
  items?: ItemRule[];
  goFieldNames?: boolean;
}

/** The hub's value (taken out of the object) as the annotation holds it. */
export function keptForAnnotation(value: unknown, form: KeptForm): unknown {
  let out = value;
  const { items } = form;
  if (items?.length && Array.isArray(out)) {
    out = out.map((item) => {
      if (!isObj(item)) return item;
      for (let i = items.length - 1; i >= 0; i--) itemFromHub(item, items[i]);
      return item;
    });
  }
  return form.goFieldNames ? recased(out, true) : out;
}

/** The annotation's parsed JSON as the hub's value. */
export function keptFromAnnotation(parsed: unknown, form: KeptForm): unknown {
  let out = form.goFieldNames ? recased(parsed, false) : parsed;
  if (form.items?.length && Array.isArray(out)) {
    out = out.map((item) => {
      if (isObj(item)) for (const rule of form.items!) itemToHub(item, rule);
      return item;
    });
  }
  return out;
}
