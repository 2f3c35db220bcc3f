// Kubernetes quantity library for CEL: `quantity(string)`, `isQuantity`,
// and on a quantity `isInteger`, `asInteger`, `asApproximateFloat`, `sign`,
// `add`, `sub` (quantity or int), `isLessThan`, `isGreaterThan`,
// `compareTo`. Boundary: the CEL surface over QuantityValue.
import { CelScalar, type CelFunc, type CelValue } from '@bufbuild/cel';
import { Opaque, fail, defFunc, defMethod } from '../opaque.ts';
import { QuantityValue } from './quantity-parse.ts';

export class Quantity extends Opaque {
  readonly name = 'kubernetes.Quantity';
  constructor(readonly q: QuantityValue) {
    super();
  }
  equals(o: Opaque): boolean {
    return o instanceof Quantity && this.q.cmp(o.q) === 0;
  }
  override toString(): string {
    return this.q.toString();
  }
}

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);

function q(v: unknown): QuantityValue {
  if (v instanceof Quantity) return v.q;
  return fail('expected a kubernetes.Quantity');
}
function operand(v: CelValue): QuantityValue {
  if (typeof v === 'bigint') return new QuantityValue(v, 0, 'DecimalSI');
  return q(v);
}
const DYN = CelScalar.DYN;

export const quantityFuncs: CelFunc[] = [
  defFunc('quantity', [CelScalar.STRING], DYN, (s) => {
    try {
      return new Quantity(QuantityValue.parse(s));
    } catch (e) {
      return fail((e as Error).message);
    }
  }),
  defFunc('isQuantity', [CelScalar.STRING], CelScalar.BOOL, (s) => {
    try {
      QuantityValue.parse(s);
      return true;
    } catch {
      return false;
    }
  }),
  defMethod('isInteger', DYN, [], CelScalar.BOOL, function () {
    const i = q(this).asBigInt();
    return i !== undefined && i <= MAX_INT64 && i >= MIN_INT64;
  }),
  defMethod('asInteger', DYN, [], CelScalar.INT, function () {
    const i = q(this).asBigInt();
    if (i === undefined || i > MAX_INT64 || i < MIN_INT64) return fail('cannot convert value to integer');
    return i;
  }),
  defMethod('asApproximateFloat', DYN, [], CelScalar.DOUBLE, function () {
    return q(this).asApproximateFloat();
  }),
  defMethod('sign', DYN, [], CelScalar.INT, function () {
    return BigInt(q(this).sign());
  }),
  defMethod('add', DYN, [DYN], DYN, function (o) {
    return new Quantity(q(this).add(operand(o)));
  }),
  defMethod('sub', DYN, [DYN], DYN, function (o) {
    return new Quantity(q(this).add(operand(o).neg()));
  }),
  defMethod('isLessThan', DYN, [DYN], CelScalar.BOOL, function (o) {
    return q(this).cmp(q(o)) < 0;
  }),
  defMethod('isGreaterThan', DYN, [DYN], CelScalar.BOOL, function (o) {
    return q(this).cmp(q(o)) > 0;
  }),
  defMethod('compareTo', DYN, [DYN], CelScalar.INT, function (o) {
    return BigInt(q(this).cmp(q(o)));
  }),
];
