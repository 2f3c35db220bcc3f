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
  toString(): string { return this.name; }
}

export function isOpaque(v: unknown): v is Opaque {
  return v instanceof Opaque;
}

/** Throws a CEL evaluation error (the evaluator turns thrown errors into CEL errors). */
export function fail(msg: string): never {
  throw new Error(msg);
}
