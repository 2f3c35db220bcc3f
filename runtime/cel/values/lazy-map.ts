// A CEL map whose values are computed on first read and then kept: the
// `variables` of a ValidatingAdmissionPolicy, each evaluated when an
// expression first uses it (upstream's lazy.MapValue). A computation may
// give a CEL error value, which the expression that read it sees as its
// own error.

import type { CelError, CelValue } from '@bufbuild/cel';

const MAP_MARKER = Symbol.for('@bufbuild/cel/map');

type MapKey = bigint | string | boolean;

export class LazyMap implements ReadonlyMap<MapKey, CelValue> {
  readonly [MAP_MARKER] = {};
  private readonly cache = new Map<string, CelValue | CelError>();

  /** `names`: the keys, in order; `compute(name)`: the value of one, called at most once per key. */
  constructor(
    private readonly names: readonly string[],
    private readonly compute: (name: string) => CelValue | CelError,
  ) {}

  get size(): number {
    return this.names.length;
  }
  get(key: MapKey | number | { value: bigint }): CelValue | undefined {
    if (typeof key !== 'string' || !this.names.includes(key)) return undefined;
    let v = this.cache.get(key);
    if (v === undefined) this.cache.set(key, (v = this.compute(key)));
    // an error value is read like any value: the evaluator propagates it (and absorbs it where CEL does)
    return v as CelValue;
  }
  has(key: MapKey | number | { value: bigint }): boolean {
    return typeof key === 'string' && this.names.includes(key);
  }
  /** Whether the value of `key` was computed. */
  computed(key: string): boolean {
    return this.cache.has(key);
  }
  *keys(): MapIterator<MapKey> {
    yield* this.names;
  }
  *values(): MapIterator<CelValue> {
    for (const k of this.names) yield this.get(k)!;
  }
  *entries(): MapIterator<[MapKey, CelValue]> {
    for (const k of this.names) yield [k, this.get(k)!];
  }
  [Symbol.iterator](): MapIterator<[MapKey, CelValue]> {
    return this.entries();
  }
  forEach(cb: (v: CelValue, k: MapKey, m: ReadonlyMap<MapKey, CelValue>) => void): void {
    for (const [k, v] of this.entries()) cb(v, k, this);
  }
}
