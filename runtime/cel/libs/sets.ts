// The CEL sets extension Kubernetes enables: `sets.contains(a, b)`,
// `sets.equivalent(a, b)`, `sets.intersects(a, b)` over lists, using CEL
// equality. Boundary: these functions.
import { celFunc, CelScalar, listType, type CelFunc, type CelList } from '@bufbuild/cel';
import { celEquals } from '../values/equality.ts';

const L = listType(CelScalar.DYN);
const has = (l: CelList, x: unknown) => {
  for (const e of l) if (celEquals(e, x as never)) return true;
  return false;
};
const contains = (a: CelList, b: CelList) => {
  for (const x of b) if (!has(a, x)) return false;
  return true;
};

export const setsFuncs: CelFunc[] = [
  celFunc('sets.contains', [L, L], CelScalar.BOOL, contains),
  celFunc('sets.equivalent', [L, L], CelScalar.BOOL, (a, b) => contains(a, b) && contains(b, a)),
  celFunc('sets.intersects', [L, L], CelScalar.BOOL, (a, b) => {
    for (const x of b) if (has(a, x)) return true;
    return false;
  }),
];
