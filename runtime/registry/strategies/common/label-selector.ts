// metav1.LabelSelector: validation (keys, values, operators) with upstream
// paths and texts, and matching against a label map (does a workload's
// selector select its own template?).

import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { labelValueErrors, qualifiedNameErrors } from '../../metadata.ts';


export function labelSelectorErrors(path: string, sel: Obj | undefined): FieldError[] {
  if (!sel || typeof sel !== 'object') return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    for (const m of qualifiedNameErrors(k)) errs.push(fieldErrors.invalid(`${path}.matchLabels`, k, m));
    if (typeof v === 'string') for (const m of labelValueErrors(v)) errs.push(fieldErrors.invalid(`${path}.matchLabels`, v, m));
  }
  (Array.isArray(sel.matchExpressions) ? sel.matchExpressions : []).forEach((e: Obj, i: number) => {
    const p = `${path}.matchExpressions[${i}]`;
    for (const m of qualifiedNameErrors(String(e?.key ?? ''))) errs.push(fieldErrors.invalid(`${p}.key`, e?.key ?? '', m));
    const values: unknown[] = Array.isArray(e?.values) ? e.values : [];
    switch (e?.operator) {
      case 'In': case 'NotIn':
        if (values.length === 0) errs.push(fieldErrors.required(`${p}.values`, 'must be specified when `operator` is \'In\' or \'NotIn\''));
        break;
      case 'Exists': case 'DoesNotExist':
        if (values.length > 0) errs.push(fieldErrors.forbidden(`${p}.values`, 'may not be specified when `operator` is \'Exists\' or \'DoesNotExist\''));
        break;
      default:
        errs.push(fieldErrors.invalid(`${p}.operator`, e?.operator ?? '', 'not a valid selector operator'));
    }
    values.forEach((v, j) => {
      if (typeof v === 'string') for (const m of labelValueErrors(v)) errs.push(fieldErrors.invalid(`${p}.values[${j}]`, v, m));
    });
  });
  return errs;
}

export function isEmptySelector(sel: Obj | undefined): boolean {
  return !sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0);
}

/** Whether a label map satisfies a selector (an empty selector matches everything). */
export function selectorMatches(sel: Obj | undefined, labels: Record<string, string> = {}): boolean {
  if (!sel) return false;
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of (sel.matchExpressions ?? []) as Obj[]) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const vals: string[] = e.values ?? [];
    switch (e.operator) {
      case 'In': if (!has || !vals.includes(labels[e.key])) return false; break;
      case 'NotIn': if (has && vals.includes(labels[e.key])) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
      default: return false;
    }
  }
  return true;
}

