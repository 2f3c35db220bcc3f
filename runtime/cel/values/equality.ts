// CEL equality and list concatenation with Kubernetes list semantics: lists of
// list type `set` or `map` compare without regard to order; `set + list`
// unions, `map + list` merges by the list-map keys with the right side
// winning. Replaces the evaluator's `==`, `!=` and list `+` overloads.
// Boundary: equality and concatenation only.
import { celEnv, celFunc, CelScalar, isCelList, isCelMap, isCelUint, listType, celListConcat, type CelValue, type CelList, type CelFunc } from '@bufbuild/cel';
import { isOpaque } from '../opaque.ts';
import { TypedList, computedList } from './convert.ts';
import { EQUALS } from '../libs/optional.ts';

const std = celEnv().funcs;
const stdEq = std.find('_==_')!;

function num(v: CelValue): number | bigint | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (isCelUint(v)) return v.value;
  return undefined;
}

function listTypeOf(l: CelList): 'atomic' | 'set' | 'map' {
  return l instanceof TypedList ? l.listType : 'atomic';
}

function mapKeyOf(e: CelValue, keys: string[]): string | undefined {
  if (!isCelMap(e)) return undefined;
  const parts: unknown[] = [];
  for (const k of keys) {
    const v = e.get(k);
    parts.push(v === undefined ? null : typeof v === 'bigint' ? `i${v}` : v);
  }
  return JSON.stringify(parts);
}

function unorderedEquals(a: CelList, b: CelList): boolean {
  if (a.size !== b.size) return false;
  const used = new Array<boolean>(b.size).fill(false);
  outer: for (const x of a) {
    for (let j = 0; j < b.size; j++) {
      if (!used[j] && celEquals(x, b.get(j)!)) {
        used[j] = true;
        continue outer;
      }
    }
    return false;
  }
  return true;
}

export function celEquals(a: CelValue, b: CelValue): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  const na = num(a),
    nb = num(b);
  if (na !== undefined || nb !== undefined) {
    if (na === undefined || nb === undefined) return false;
    // loose on purpose: compares numbers of different kinds (bigint, number) by value
    return na == nb;
  }
  if (a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (isOpaque(a) || isOpaque(b)) return isOpaque(a) && isOpaque(b) && a.equals(b);
  if (isCelList(a)) {
    if (!isCelList(b) || a.size !== b.size) return false;
    if (listTypeOf(a) !== 'atomic' || listTypeOf(b) !== 'atomic') return unorderedEquals(a, b);
    for (let i = 0; i < a.size; i++) if (!celEquals(a.get(i)!, b.get(i)!)) return false;
    return true;
  }
  if (isCelMap(a)) {
    if (!isCelMap(b) || a.size !== b.size) return false;
    for (const [k, v] of a) {
      const w = b.get(k);
      if (w === undefined || !celEquals(v, w)) return false;
    }
    return true;
  }
  if (isCelList(b) || isCelMap(b)) return false;
  const r = stdEq.call(0, undefined, [a, b]);
  return r === true;
}
EQUALS.fn = celEquals;

export function celConcat(a: CelList, b: CelList): CelValue {
  const lt = listTypeOf(a);
  if (lt === 'set') {
    const out = [...a];
    for (const x of b) if (!out.some((y) => celEquals(x, y))) out.push(x);
    return computedList(out, a as unknown as TypedList);
  }
  if (lt === 'map') {
    const keys = (a as unknown as TypedList).type?.keys ?? [];
    const out = [...a];
    const index = new Map<string, number>();
    out.forEach((e, i) => {
      const k = mapKeyOf(e, keys);
      if (k !== undefined) index.set(k, i);
    });
    for (const x of b) {
      const k = mapKeyOf(x, keys);
      const at = k === undefined ? undefined : index.get(k);
      if (at !== undefined) out[at] = x;
      else {
        if (k !== undefined) index.set(k, out.length);
        out.push(x);
      }
    }
    return computedList(out, a as unknown as TypedList);
  }
  if (a.size === 0) return b;
  if (b.size === 0) return a;
  return celListConcat(a, b);
}

const LIST = listType(CelScalar.DYN);
export const equalityFuncs: CelFunc[] = [
  celFunc('_==_', [CelScalar.DYN, CelScalar.DYN], CelScalar.BOOL, (a, b) => celEquals(a, b)),
  celFunc('_!=_', [CelScalar.DYN, CelScalar.DYN], CelScalar.BOOL, (a, b) => !celEquals(a, b)),
  celFunc('_+_', [LIST, LIST], LIST, (a, b) => celConcat(a, b) as never),
];
