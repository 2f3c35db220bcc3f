// Opaque CEL values (Quantity, URL, optional, authorizer objects) carried by
// the @bufbuild/cel evaluator. The evaluator accepts only its own value kinds;
// it treats any object tagged with its type marker as a pass-through value,
// so our opaque values wear that marker and carry their own type name and
// equality. Boundary: value representation only; functions live in libs/.
const EVALUATOR_TYPE_MARKER = Symbol.for('@bufbuild/cel/type');

export abstract class Opaque {
  readonly [EVALUATOR_TYPE_MARKER] = {};
  /** CEL type name, e.g. `kubernetes.Quantity`. */
  abstract readonly name: string;
  readonly kind = 'opaque' as const;
  abstract equals(other: Opaque): boolean;
  toString(): string {
    return this.name;
  }
}

export function isOpaque(v: unknown): v is Opaque {
  return v instanceof Opaque;
}

/** Throws a CEL evaluation error (the evaluator turns thrown errors into CEL errors). */
export function fail(msg: string): never {
  throw new Error(msg);
}

import { celFunc, celMethod, type CelFunc, type CelType, type CelValue } from '@bufbuild/cel';

type Args<P extends readonly CelType[]> = { [K in keyof P]: P[K] extends CelType ? CelValue<P[K]> : never };

/**
 * celFunc / celMethod whose implementation may also return opaque values
 * (the evaluator's input type does not know them, its runtime passes them through).
 */
export function defFunc<const P extends readonly CelType[]>(name: string, args: P, result: CelType, impl: (...a: Args<P>) => unknown): CelFunc {
  return celFunc(name, args, result, impl as never);
}
export function defMethod<const T extends CelType, const P extends readonly CelType[]>(
  name: string,
  target: T,
  args: P,
  result: CelType,
  impl: (this: CelValue<T>, ...a: Args<P>) => unknown,
): CelFunc {
  return celMethod(name, target, args, result, impl as never);
}
