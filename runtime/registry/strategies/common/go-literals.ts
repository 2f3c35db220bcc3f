// Go literals of the structured values upstream prints in field errors
// (fmt's %#v of the internal types): a label selector
// (`v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}`)
// and an IntOrString (`intstr.IntOrString{Type:0, IntVal:1, StrVal:""}`).

import type { Obj } from '../../../storage/interface.ts';
import { GoValue } from '../../../api/field-errors.ts';

const q = (s: unknown) => JSON.stringify(String(s ?? ''));

function stringMap(m: Record<string, unknown> | undefined): string {
  if (!m || typeof m !== 'object') return 'map[string]string(nil)';
  const keys = Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]string{${keys.map((k) => `${q(k)}:${q(m[k])}`).join(', ')}}`;
}

function stringSlice(l: unknown): string {
  if (!Array.isArray(l)) return '[]string(nil)';
  return `[]string{${l.map(q).join(', ')}}`;
}

export function goLabelSelector(sel: Obj | undefined | null): GoValue {
  if (!sel || typeof sel !== 'object') return new GoValue('"null"');
  const exprs = Array.isArray(sel.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${sel.matchExpressions.map((e: Obj) => `v1.LabelSelectorRequirement{Key:${q(e?.key)}, Operator:${q(e?.operator)}, Values:${stringSlice(e?.values)}}`).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return new GoValue(`v1.LabelSelector{MatchLabels:${stringMap(sel.matchLabels)}, MatchExpressions:${exprs}}`);
}

/** An IntOrString (a missing one prints as the zero value). */
export function goIntOrString(v: unknown): GoValue {
  if (typeof v === 'string') return new GoValue(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${q(v)}}`);
  return new GoValue(`intstr.IntOrString{Type:0, IntVal:${typeof v === 'number' ? v : 0}, StrVal:""}`);
}
