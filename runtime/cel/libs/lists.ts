// Kubernetes list library: `isSorted`, `sum`, `min`, `max`, `indexOf`,
// `lastIndexOf` on lists. Ordering and equality reuse the evaluator's `<`
// and our CEL equality. Boundary: these functions.
import { celEnv, CelScalar, listType, isCelError, type CelFunc, type CelValue, type CelList } from '@bufbuild/cel';
import { celEquals } from '../values/equality.ts';
import { fail, defMethod } from '../opaque.ts';

const std = celEnv().funcs;
const stdLess = std.find('_<_')!;
const stdAdd = std.find('_+_')!;
const LIST = listType(CelScalar.DYN);

function less(a: CelValue, b: CelValue): boolean {
  const r = stdLess.call(0, undefined, [a, b]);
  if (r === undefined || isCelError(r)) return fail(`no such overload: ${typeof a} < ${typeof b}`);
  return r === true;
}

function extreme(list: CelList, name: string, pick: (a: CelValue, b: CelValue) => boolean): unknown {
  if (list.size === 0) return fail(`${name} called on empty list`);
  let best: CelValue = list.get(0)!;
  for (const v of list) if (pick(v, best)) best = v;
  return best;
}

export const listFuncs: CelFunc[] = [
  defMethod('isSorted', LIST, [], CelScalar.BOOL, function () {
    let prev: CelValue | undefined;
    for (const v of this) {
      if (prev !== undefined && less(v, prev)) return false;
      prev = v;
    }
    return true;
  }),
  defMethod('sum', LIST, [], CelScalar.DYN, function () {
    let acc: CelValue | undefined;
    for (const v of this) {
      if (acc === undefined) {
        acc = v;
        continue;
      }
      const r = stdAdd.call(0, undefined, [acc, v]);
      if (r === undefined || isCelError(r)) return fail('sum: elements cannot be added');
      acc = r;
    }
    return acc ?? 0n;
  }),
  defMethod('min', LIST, [], CelScalar.DYN, function () {
    return extreme(this, 'min', (a, b) => less(a, b));
  }),
  defMethod('max', LIST, [], CelScalar.DYN, function () {
    return extreme(this, 'max', (a, b) => less(b, a));
  }),
  defMethod('indexOf', LIST, [CelScalar.DYN], CelScalar.INT, function (x) {
    let i = 0;
    for (const v of this) {
      if (celEquals(v, x)) return BigInt(i);
      i++;
    }
    return -1n;
  }),
  defMethod('lastIndexOf', LIST, [CelScalar.DYN], CelScalar.INT, function (x) {
    for (let i = this.size - 1; i >= 0; i--) if (celEquals(this.get(i)!, x)) return BigInt(i);
    return -1n;
  }),
];
