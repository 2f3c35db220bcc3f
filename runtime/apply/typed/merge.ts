// Merges an applied configuration into a live value (structured-merge-diff's
// Merge with the "keep rhs" rule): leaves take the configuration's value;
// granular maps merge key by key; associative lists merge item by item, the
// configuration deciding the order of the items it names while items only the
// live value has keep their place among them.
// Boundary: pure; returns new containers and shares unchanged subtrees.
import type { TypeRef } from '../../../generated/api-types.ts';
import type { PathElement } from '../fieldpath/element.ts';
import type { SchemaView } from '../schema/resolve.ts';
import { isObj, type JSONValue, type Obj } from '../value/json.ts';
import { isEmptyValue, jointForm } from './compare.ts';
import { indexList, itemOrDups, type ListIndex } from './list-index.ts';

export function merge(view: SchemaView, ref: TypeRef, lhs: JSONValue | undefined, rhs: JSONValue | undefined): JSONValue | undefined {
  const form = jointForm(view, ref, lhs, rhs);
  if (form.kind === 'scalar' || form.atomic || (isEmptyValue(lhs) && isEmptyValue(rhs))) return rhs !== undefined ? rhs : lhs;
  if (form.kind === 'map') {
    const lm = isObj(lhs) ? lhs : undefined;
    const rm = isObj(rhs) ? rhs : undefined;
    const out: Obj = {};
    if (lm) {
      for (const k of Object.keys(lm)) {
        const rv = rm && Object.prototype.hasOwnProperty.call(rm, k) ? rm[k] : undefined;
        const v = merge(view, view.fieldType(form.map, k), lm[k], rv);
        if (v !== undefined) out[k] = v;
      }
    }
    if (rm) {
      for (const k of Object.keys(rm)) {
        if (lm && Object.prototype.hasOwnProperty.call(lm, k)) continue;
        const v = merge(view, view.fieldType(form.map, k), undefined, rm[k]);
        if (v !== undefined) out[k] = v;
      }
    }
    return out;
  }
  const li = indexList(view, form.list, lhs);
  const ri = indexList(view, form.list, rhs);
  const et = form.list.elementType;
  const out: JSONValue[] = [];
  // Items both sides name, in the configuration's order.
  const shared = ri.order.filter((pe) => li.items.has(pe.id));
  let nextShared = 0;
  const done = new Set<string>();
  const L = li.order.length;
  const R = ri.order.length;
  let l = 0;
  let r = 0;
  while (l < L || r < R) {
    if (l < L && r < R) {
      const lpe = li.order[l];
      if (lpe.id === ri.order[r].id) {
        emitItem(view, et, li, ri, lpe, true, out);
        done.add(lpe.id);
        l++;
        r++;
        if (nextShared < shared.length && shared[nextShared].id === lpe.id) nextShared++;
        continue;
      }
      // A shared item the configuration places later: it is emitted when reached there.
      if (ri.items.has(lpe.id) && nextShared < shared.length && shared[nextShared].id !== lpe.id) {
        l++;
        continue;
      }
    }
    if (l < L) {
      const lpe = li.order[l];
      if (!ri.items.has(lpe.id)) {
        emitItem(view, et, li, ri, lpe, false, out);
        l++;
        continue;
      }
      if (done.has(lpe.id)) {
        l++;
        continue;
      }
    }
    if (r < R) {
      const rpe = ri.order[r];
      emitItem(view, et, li, ri, rpe, true, out);
      done.add(rpe.id);
      r++;
      if (nextShared < shared.length && shared[nextShared].id === rpe.id) nextShared++;
    }
  }
  return out;
}

function emitItem(view: SchemaView, et: TypeRef, li: ListIndex, ri: ListIndex, pe: PathElement, withRhs: boolean, out: JSONValue[]): void {
  const a = itemOrDups(li, pe.id);
  const b = withRhs ? itemOrDups(ri, pe.id) : { value: undefined, dup: false };
  if (a.dup || b.dup) {
    // Duplicated keys are whole units: the configuration's items win.
    const src = b.value !== undefined ? b : a;
    if (src.dup) out.push(...(src.value as JSONValue[]));
    else if (src.value !== undefined) out.push(src.value);
    return;
  }
  const v = merge(view, et, a.value, b.value);
  if (v !== undefined) out.push(v);
}
