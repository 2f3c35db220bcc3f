// Resource lists of quota accounting (upstream's corev1.ResourceList and the
// helpers of k8s.io/apiserver/pkg/quota/v1): a map from resource name to an
// exact quantity, with the add, subtract, mask and comparison rules the
// ResourceQuota admission plugin and the quota controller share, and the
// sorted `name=value,...` form the refusal messages print.

import { QuantityValue } from '../../../cel/libs/quantity-parse.ts';

export type ResourceList = Map<string, QuantityValue>;

export const ZERO = new QuantityValue(0n, 0, 'DecimalSI');
export const ONE = new QuantityValue(1n, 0, 'DecimalSI');

/** A count as a DecimalSI quantity (upstream's resource.NewQuantity(n, DecimalSI)). */
export const count = (n: number): QuantityValue => new QuantityValue(BigInt(n), 0, 'DecimalSI');

/** A quantity written in an object (string or number); undefined when it is not one. */
export function quantityOf(raw: unknown): QuantityValue | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  try {
    return QuantityValue.parse(String(raw));
  } catch {
    return undefined;
  }
}

/** A ResourceList field of an object (`spec.hard`, `resources.requests`); entries that are no quantity are left out. */
export function parseList(raw: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const q = quantityOf(v);
    if (q) out.set(k, q);
  }
  return out;
}

/** The list as an object of canonical quantity strings, keys sorted. */
export function formatList(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...list.keys()].sort()) out[k] = list.get(k)!.toString();
  return out;
}

/** a + b: keys of both, sums where both have one. */
export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) {
    const have = out.get(k);
    out.set(k, have ? have.add(v) : v);
  }
  return out;
}

/** a - b, never below zero per key; keys only in b are zero (upstream's SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const other = b.get(k);
    const diff = other ? v.add(other.neg()) : v;
    out.set(k, diff.sign() > 0 ? diff : ZERO);
  }
  for (const k of b.keys()) if (!out.has(k)) out.set(k, ZERO);
  return out;
}

/** The entries of list whose names are in names. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const n of names) {
    const v = list.get(n);
    if (v) out.set(n, v);
  }
  return out;
}

/** The names over their bound: those of b where a has a greater value (upstream's LessThanOrEqual). */
export function exceeding(a: ResourceList, b: ResourceList): string[] {
  const out: string[] = [];
  for (const [k, limit] of b) {
    const v = a.get(k);
    if (v && v.cmp(limit) > 0) out.push(k);
  }
  return out;
}

export const isZero = (list: ResourceList): boolean => [...list.values()].every((v) => v.sign() === 0);

export const negativeNames = (list: ResourceList): string[] => [...list].filter(([, v]) => v.sign() < 0).map(([k]) => k);

/** Same keys, equal values. */
export function equal(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const o = b.get(k);
    if (!o || o.cmp(v) !== 0) return false;
  }
  return true;
}

/** `a=1,b=2Gi`: sorted by name, as the refusal messages print a list. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${list.get(k)!.toString()}`)
    .join(',');
}
