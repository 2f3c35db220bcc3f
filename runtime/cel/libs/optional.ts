// The CEL optional type (`optional.of`, `optional.none`, `?.`, `[?]`,
// `hasValue`, `value`, `or`, `orValue`, optional list and map entries).
// The parser front end (../syntax/) rewrites the optional syntax into calls
// to the `@opt*` functions defined here. Boundary: runtime behaviour only.
import { CelScalar, isCelList, isCelMap, celList, celMap, isCelUint, type CelFunc, type CelValue, type CelInput } from '@bufbuild/cel';
import { Opaque, fail, defFunc, defMethod } from '../opaque.ts';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { isZeroValue, selectField, indexValue } from '../values/access.ts';

const DYN = CelScalar.DYN;

export class Optional extends Opaque {
  readonly name = 'optional_type';
  constructor(readonly value: CelValue | undefined) {
    super();
  }
  hasValue(): boolean {
    return this.value !== undefined;
  }
  equals(o: Opaque): boolean {
    if (!(o instanceof Optional)) return false;
    if (this.value === undefined || o.value === undefined) return this.value === o.value;
    return EQUALS.fn(this.value, o.value);
  }
}
/** Set by the equality module to avoid an import cycle. */
export const EQUALS: { fn: (a: CelValue, b: CelValue) => boolean } = { fn: (a, b) => a === b };

export const NONE = new Optional(undefined);
/** Marks an element of a list or map literal written with a leading `?`. */
class OptElem extends Opaque {
  readonly name = 'optional_element';
  constructor(readonly opt: Optional) {
    super();
  }
  equals(): boolean {
    return false;
  }
}

function asOptional(v: unknown): Optional {
  if (v instanceof Optional) return v;
  return fail(`expected an optional value, got ${typeof v}`);
}

function optSelect(target: CelValue, field: CelValue): unknown {
  if (target instanceof Optional) {
    if (target.value === undefined) return NONE;
    target = target.value;
  }
  if (!isCelMap(target) && !isReflectMessage(target)) return fail(`type '${typeof target}' does not support field selection`);
  const v = typeof field === 'string' ? selectField(target, field) : undefined;
  return v === undefined ? NONE : new Optional(v);
}
function optHas(target: CelValue, field: CelValue): boolean {
  if (target instanceof Optional) {
    if (target.value === undefined) return false;
    target = target.value;
  }
  if (!isCelMap(target) && !isReflectMessage(target)) return fail(`type '${typeof target}' does not support field selection`);
  return typeof field === 'string' && selectField(target, field) !== undefined;
}
function optIndex(target: CelValue, key: CelValue): unknown {
  if (target instanceof Optional) {
    if (target.value === undefined) return NONE;
    target = target.value;
  }
  const v = indexValue(target, key);
  return v === undefined ? NONE : new Optional(v);
}

export const optionalFuncs: CelFunc[] = [
  defFunc('optional.of', [DYN], DYN, (v) => new Optional(v)),
  defFunc('optional.ofNonZeroValue', [DYN], DYN, (v) => (isZeroValue(v) ? NONE : new Optional(v))),
  defFunc('optional.none', [], DYN, () => NONE),
  defMethod('hasValue', DYN, [], CelScalar.BOOL, function () {
    return asOptional(this).hasValue();
  }),
  defMethod('value', DYN, [], DYN, function () {
    const o = asOptional(this);
    return o.value === undefined ? fail('optional.none() dereference') : (o.value as CelInput);
  }),
  defMethod('or', DYN, [DYN], DYN, function (other) {
    const o = asOptional(this);
    return o.hasValue() ? o : asOptional(other);
  }),
  defMethod('orValue', DYN, [DYN], DYN, function (other) {
    const o = asOptional(this);
    return (o.value ?? other) as CelInput;
  }),
  defFunc('@optsel', [DYN, DYN], DYN, optSelect),
  defFunc('@optidx', [DYN, DYN], DYN, optIndex),
  defFunc('@opthas', [DYN, DYN], CelScalar.BOOL, optHas),
  defFunc('@optelem', [DYN], DYN, (v) => new OptElem(asOptional(v))),
  defFunc('@optlist', [DYN], DYN, (l) => {
    if (!isCelList(l)) return fail('expected a list');
    const out: CelValue[] = [];
    for (const e of l) {
      if (e instanceof OptElem) {
        if (e.opt.value !== undefined) out.push(e.opt.value);
      } else out.push(e);
    }
    return celList(out);
  }),
  defFunc('@optmap', [DYN], DYN, (m) => {
    if (!isCelMap(m)) return fail('expected a map');
    const out = new Map<bigint | string | boolean, CelValue>();
    for (const [k, e] of m) {
      const key = (isCelUint(k) ? k.value : k) as bigint | string | boolean;
      if (e instanceof OptElem) {
        if (e.opt.value !== undefined) out.set(key, e.opt.value);
      } else out.set(key, e);
    }
    return celMap(out);
  }),
];
