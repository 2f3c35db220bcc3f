// Static type checker over the cel.expr AST: declared variables typed from
// OpenAPI schemas, field access resolved through the escaping rules (the
// select node is rewritten to the real property name), operators and the
// function signatures of signatures.ts. Collects errors with their position;
// dyn-typed values are accepted everywhere, as CEL's gradual typing does.
// Boundary: types only; cost is estimated in ../cost/estimate.ts.
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { T, typeName, type CelT } from '../schema/types.ts';
import { escapeName, unescapeName } from '../schema/escape.ts';
import { SIGNATURES } from './signatures.ts';

export interface CheckError {
  message: string;
  exprId: bigint;
}

type Bindings = Map<string, CelT>;

const NUMERIC = new Set(['int', 'uint', 'double']);
const ORDERED = new Set(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'timestamp', 'duration']);
const TYPE_IDENTS = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn', 'optional_type', 'google.protobuf.Timestamp', 'google.protobuf.Duration']);

export function isDyn(t: CelT): boolean {
  return t.k === 'dyn' || t.k === 'param';
}

function substitute(t: CelT, b: Bindings): CelT {
  switch (t.k) {
    case 'param':
      return b.get(t.name) ?? T.dyn;
    case 'list':
      return { ...t, elem: substitute(t.elem, b) };
    case 'map':
      return { ...t, key: substitute(t.key, b), value: substitute(t.value, b) };
    case 'opaque':
      return t.param ? { ...t, param: substitute(t.param, b) } : t;
    default:
      return t;
  }
}

/** Can a value of type `arg` be passed where `param` is expected? Binds type parameters. */
export function assignable(param: CelT, arg: CelT, b: Bindings): boolean {
  if (param.k === 'param') {
    const bound = b.get(param.name);
    if (!bound || isDyn(bound)) {
      b.set(param.name, arg);
      return true;
    }
    if (isDyn(arg)) return true;
    if (assignable(bound, arg, new Map())) return true;
    if (assignable(arg, bound, new Map())) {
      b.set(param.name, arg);
      return true;
    }
    return false;
  }
  if (isDyn(param) || isDyn(arg)) return true;
  if (arg.k === 'null') return ['null', 'object', 'opaque', 'timestamp', 'duration', 'map', 'list'].includes(param.k);
  switch (param.k) {
    case 'list':
      return arg.k === 'list' && assignable(param.elem, arg.elem, b);
    case 'map':
      if (arg.k === 'object') return assignable(param.key, T.string, b) && [...arg.fields.values()].every((f) => assignable(param.value, f, new Map(b)));
      return arg.k === 'map' && assignable(param.key, arg.key, b) && assignable(param.value, arg.value, b);
    case 'object':
      return (arg.k === 'object' && (arg.name === param.name || sameFields(param, arg))) || arg.k === 'map';
    case 'opaque':
      return arg.k === 'opaque' && arg.name === param.name && (!param.param || !arg.param || assignable(param.param, arg.param, b));
    default:
      return param.k === arg.k;
  }
}
function sameFields(a: CelT & { k: 'object' }, b: CelT & { k: 'object' }): boolean {
  if (a.fields.size !== b.fields.size) return false;
  for (const [k, v] of a.fields) {
    const w = b.fields.get(k);
    if (!w || !assignable(v, w, new Map())) return false;
  }
  return true;
}

function join(a: CelT, b: CelT): CelT {
  if (isDyn(a)) return b.k === 'null' ? a : isDyn(b) ? T.dyn : b;
  if (isDyn(b) || a.k === 'null') return b.k === 'null' ? a : b;
  if (b.k === 'null') return a;
  return assignable(a, b, new Map()) ? a : T.dyn;
}

export class Checker {
  readonly errors: CheckError[] = [];
  /** The type of every checked node, by expression id. */
  readonly types = new Map<bigint, CelT>();
  private scopes: Map<string, CelT>[] = [];

  constructor(private readonly vars: Map<string, CelT>) {}

  private err(e: Expr, message: string): CelT {
    this.errors.push({ message, exprId: e.id });
    return T.dyn;
  }

  private lookup(name: string): CelT | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i].get(name);
      if (t) return t;
    }
    return this.vars.get(name);
  }

  check(e: Expr): CelT {
    const t = this.checkNode(e);
    this.types.set(e.id, t);
    return t;
  }

  private qualifiedName(e: Expr): string | undefined {
    if (e.exprKind.case === 'identExpr') return e.exprKind.value.name;
    if (e.exprKind.case === 'selectExpr' && !e.exprKind.value.testOnly && e.exprKind.value.operand) {
      const p = this.qualifiedName(e.exprKind.value.operand);
      return p === undefined ? undefined : `${p}.${e.exprKind.value.field}`;
    }
    return undefined;
  }

  private checkNode(e: Expr): CelT {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': {
        const c = k.value.constantKind;
        switch (c.case) {
          case 'boolValue':
            return T.bool;
          case 'int64Value':
            return T.int;
          case 'uint64Value':
            return T.uint;
          case 'doubleValue':
            return T.double;
          case 'stringValue':
            return { k: 'string', max: c.value.length };
          case 'bytesValue':
            return { k: 'bytes', max: c.value.length };
          case 'nullValue':
            return T.null;
          default:
            return T.dyn;
        }
      }
      case 'identExpr': {
        const name = k.value.name;
        const t = this.lookup(name);
        if (t) return t;
        if (TYPE_IDENTS.has(name)) return T.type;
        return this.err(e, `undeclared reference to '${name}'`);
      }
      case 'selectExpr': {
        const v = k.value;
        // A qualified name may be a type identifier (google.protobuf.Timestamp).
        const q = this.qualifiedName(e);
        if (q && TYPE_IDENTS.has(q) && !this.lookup(q.split('.')[0])) return T.type;
        // A variable declared with a qualified name (`authorizer.requestResource`) is resolved before field selection, as cel-go does.
        const qt = q && q.includes('.') ? this.vars.get(q) : undefined;
        if (qt) return qt;
        const ot = this.check(v.operand!);
        const ft = this.fieldType(e, ot, v.field, (real) => {
          v.field = real;
        });
        return v.testOnly ? T.bool : ft;
      }
      case 'listExpr': {
        let elem: CelT | undefined;
        for (const x of k.value.elements) {
          const t = this.check(x);
          elem = elem ? join(elem, t) : t;
        }
        return { k: 'list', elem: elem ?? T.dyn, max: k.value.elements.length };
      }
      case 'structExpr': {
        if (k.value.messageName) return this.err(e, `unknown type '${k.value.messageName}'`);
        let kt: CelT | undefined, vt: CelT | undefined;
        for (const en of k.value.entries) {
          if (en.keyKind.case !== 'mapKey') continue;
          const a = this.check(en.keyKind.value);
          if (!isDyn(a) && !['string', 'int', 'uint', 'bool'].includes(a.k)) this.err(en.keyKind.value, `unsupported map key type: ${typeName(a)}`);
          kt = kt ? join(kt, a) : a;
          const b = this.check(en.value!);
          vt = vt ? join(vt, b) : b;
        }
        return { k: 'map', key: kt ?? T.dyn, value: vt ?? T.dyn, max: k.value.entries.length };
      }
      case 'comprehensionExpr': {
        const v = k.value;
        const rt = this.check(v.iterRange!);
        let it: CelT;
        if (rt.k === 'list') it = rt.elem;
        else if (rt.k === 'map') it = rt.key;
        else if (rt.k === 'object') it = T.string;
        else if (isDyn(rt)) it = T.dyn;
        else {
          this.err(v.iterRange!, `expression of type '${typeName(rt)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
          it = T.dyn;
        }
        const at = this.check(v.accuInit!);
        this.scopes.push(new Map([[v.accuVar, at]]));
        this.scopes.push(new Map([[v.iterVar, it]]));
        this.check(v.loopCondition!);
        const st = this.check(v.loopStep!);
        this.scopes.pop();
        // A step that refines the accumulator's type (e.g. `[] + [x]`) becomes the accumulator's type.
        this.scopes[this.scopes.length - 1].set(v.accuVar, join(at, st));
        const res = this.check(v.result!);
        this.scopes.pop();
        if ((res.k === 'list' && rt.k === 'list') || (res.k === 'list' && rt.k === 'map')) return { ...res, max: (rt as { max?: number }).max };
        return res;
      }
      case 'callExpr':
        return this.checkCall(e, k.value.function, k.value.target, k.value.args);
      default:
        return this.err(e, 'unsupported expression');
    }
  }

  private fieldType(e: Expr, ot: CelT, field: string, rename: (real: string) => void): CelT {
    if (isDyn(ot)) return T.dyn;
    if (ot.k === 'object') {
      if (ot.native) return ot.fields.get(field) ?? this.err(e, `undefined field '${field}'`);
      const real = unescapeName(field);
      const ft = ot.fields.get(real);
      if (!ft || escapeName(real) !== field) return this.err(e, `undefined field '${field}'`);
      if (real !== field) rename(real);
      return ft;
    }
    if (ot.k === 'map') {
      if (!isDyn(ot.key) && ot.key.k !== 'string') return this.err(e, `type '${typeName(ot)}' does not support field selection`);
      return ot.value;
    }
    return this.err(e, `type '${typeName(ot)}' does not support field selection`);
  }

  private checkCall(e: Expr, fn: string, target: Expr | undefined, args: Expr[]): CelT {
    // Qualified function names (`optional.none()`, `sets.contains(...)`) parse as method calls on an identifier.
    if (target) {
      const q = this.qualifiedName(target);
      if (q && !this.lookup(q.split('.')[0]) && SIGNATURES.has(`${q}.${fn}`)) {
        return this.resolve(
          e,
          `${q}.${fn}`,
          undefined,
          args.map((a) => this.check(a)),
        );
      }
    }
    const tt = target ? this.check(target) : undefined;
    const at = args.map((a) => this.check(a));
    switch (fn) {
      case '_&&_':
      case '_||_':
        at.forEach((t, i) => {
          if (!isDyn(t) && t.k !== 'bool') this.err(args[i], `found no matching overload for '${fn}' applied to '(${at.map(typeName).join(', ')})'`);
        });
        return T.bool;
      case '!_':
      case '@not_strictly_false':
      case '__not_strictly_false__':
        if (!isDyn(at[0]) && at[0].k !== 'bool') return this.err(e, `found no matching overload for '!_' applied to '(${typeName(at[0])})'`);
        return T.bool;
      case '_?_:_':
        if (!isDyn(at[0]) && at[0].k !== 'bool') this.err(args[0], `found no matching overload for '_?_:_' applied to '(${at.map(typeName).join(', ')})'`);
        return join(at[1], at[2]);
      case '-_':
        if (!isDyn(at[0]) && !['int', 'double', 'duration'].includes(at[0].k)) return this.err(e, `found no matching overload for '-_' applied to '(${typeName(at[0])})'`);
        return at[0];
      case '_==_':
      case '_!=_':
        if (!this.comparable(at[0], at[1])) this.err(e, `found no matching overload for '${fn}' applied to '(${at.map(typeName).join(', ')})'`);
        return T.bool;
      case '_<_':
      case '_<=_':
      case '_>_':
      case '_>=_': {
        const [a, b] = at;
        const ok = (isDyn(a) || ORDERED.has(a.k)) && (isDyn(b) || ORDERED.has(b.k)) && (isDyn(a) || isDyn(b) || a.k === b.k || (NUMERIC.has(a.k) && NUMERIC.has(b.k)));
        if (!ok) this.err(e, `found no matching overload for '${fn}' applied to '(${at.map(typeName).join(', ')})'`);
        return T.bool;
      }
      case '_+_':
      case '_-_':
      case '_*_':
      case '_/_':
      case '_%_':
        return this.arith(e, fn, at[0], at[1]);
      case '_[_]':
        return this.index(e, at[0], at[1]);
      case '@in': {
        const [x, c] = at;
        if (c.k === 'list' && !assignable(c.elem, x, new Map()) && !(NUMERIC.has(x.k) && NUMERIC.has(c.elem.k)))
          this.err(e, `found no matching overload for '@in' applied to '(${at.map(typeName).join(', ')})'`);
        else if (c.k === 'map' && !assignable(c.key, x, new Map())) this.err(e, `found no matching overload for '@in' applied to '(${at.map(typeName).join(', ')})'`);
        else if (c.k === 'object' && !isDyn(x) && x.k !== 'string') this.err(e, `found no matching overload for '@in' applied to '(${at.map(typeName).join(', ')})'`);
        else if (!isDyn(c) && !['list', 'map', 'object'].includes(c.k)) this.err(e, `found no matching overload for '@in' applied to '(${at.map(typeName).join(', ')})'`);
        return T.bool;
      }
      case '@optsel': {
        const base = at[0].k === 'opaque' && at[0].name === 'optional_type' ? (at[0].param ?? T.dyn) : at[0];
        const f = args[1].exprKind.case === 'constExpr' && args[1].exprKind.value.constantKind.case === 'stringValue' ? args[1].exprKind.value.constantKind : undefined;
        const ft = f
          ? this.fieldType(e, base, f.value as string, (real) => {
              f.value = real;
            })
          : T.dyn;
        return T.optional(ft);
      }
      case '@opthas': {
        const base = at[0].k === 'opaque' && at[0].name === 'optional_type' ? (at[0].param ?? T.dyn) : at[0];
        const f = args[1].exprKind.case === 'constExpr' && args[1].exprKind.value.constantKind.case === 'stringValue' ? args[1].exprKind.value.constantKind : undefined;
        if (f)
          this.fieldType(e, base, f.value as string, (real) => {
            f.value = real;
          });
        return T.bool;
      }
      case '@optidx': {
        const base = at[0].k === 'opaque' && at[0].name === 'optional_type' ? (at[0].param ?? T.dyn) : at[0];
        return T.optional(this.index(e, base, at[1]));
      }
      case '@optelem':
        return at[0].k === 'opaque' && at[0].name === 'optional_type' ? (at[0].param ?? T.dyn) : this.err(e, `expected an optional value, got '${typeName(at[0])}'`);
      case '@optlist':
      case '@optmap':
      case '@iter':
        return at[0];
      case 'dyn':
        return T.dyn;
    }
    return this.resolve(e, fn, tt, at);
  }

  private comparable(a: CelT, b: CelT): boolean {
    if (isDyn(a) || isDyn(b) || a.k === 'null' || b.k === 'null') return true;
    if (a.k === 'object' || b.k === 'object') return a.k === 'map' || b.k === 'map' || assignable(a, b, new Map());
    return assignable(a, b, new Map()) || assignable(b, a, new Map());
  }

  private arith(e: Expr, fn: string, a: CelT, b: CelT): CelT {
    if (isDyn(a) && isDyn(b)) return T.dyn;
    const bad = () => this.err(e, `found no matching overload for '${fn}' applied to '(${typeName(a)}, ${typeName(b)})'`);
    if (fn === '_+_') {
      if (a.k === 'string' && (b.k === 'string' || isDyn(b))) return { k: 'string', max: (a.max ?? 0) + ((b as { max?: number }).max ?? 0) };
      if (a.k === 'bytes' && (b.k === 'bytes' || isDyn(b))) return { k: 'bytes', max: (a.max ?? 0) + ((b as { max?: number }).max ?? 0) };
      if (a.k === 'list' && (b.k === 'list' || isDyn(b))) {
        const elem = b.k === 'list' ? (assignable(a.elem, b.elem, new Map()) ? join(a.elem, b.elem) : undefined) : a.elem;
        if (!elem) return bad();
        return { ...a, elem, max: (a.max ?? 0) + ((b as { max?: number }).max ?? 0) };
      }
      if (isDyn(a) && b.k === 'list') return b;
      if ((a.k === 'timestamp' && b.k === 'duration') || (a.k === 'duration' && b.k === 'timestamp')) return T.timestamp;
      if (a.k === 'duration' && b.k === 'duration') return T.duration;
    }
    if (fn === '_-_') {
      if (a.k === 'timestamp' && b.k === 'timestamp') return T.duration;
      if (a.k === 'timestamp' && b.k === 'duration') return T.timestamp;
      if (a.k === 'duration' && b.k === 'duration') return T.duration;
    }
    const na = isDyn(a) || NUMERIC.has(a.k),
      nb = isDyn(b) || NUMERIC.has(b.k);
    if (na && nb && (isDyn(a) || isDyn(b) || a.k === b.k) && !(fn === '_%_' && (a.k === 'double' || b.k === 'double'))) return isDyn(a) ? b : a;
    if (isDyn(a) && (b.k === 'string' || b.k === 'bytes' || b.k === 'duration' || b.k === 'timestamp')) return T.dyn;
    if (isDyn(b) && (a.k === 'timestamp' || a.k === 'duration')) return T.dyn;
    return bad();
  }

  private index(e: Expr, c: CelT, i: CelT): CelT {
    if (isDyn(c)) return T.dyn;
    if (c.k === 'list') {
      if (!isDyn(i) && !['int', 'uint'].includes(i.k)) return this.err(e, `found no matching overload for '_[_]' applied to '(${typeName(c)}, ${typeName(i)})'`);
      return c.elem;
    }
    if (c.k === 'map') {
      if (!assignable(c.key, i, new Map()) && !(NUMERIC.has(i.k) && NUMERIC.has(c.key.k))) return this.err(e, `found no matching overload for '_[_]' applied to '(${typeName(c)}, ${typeName(i)})'`);
      return c.value;
    }
    if (c.k === 'object') {
      if (!isDyn(i) && i.k !== 'string') return this.err(e, `found no matching overload for '_[_]' applied to '(${typeName(c)}, ${typeName(i)})'`);
      return T.dyn;
    }
    return this.err(e, `found no matching overload for '_[_]' applied to '(${typeName(c)}, ${typeName(i)})'`);
  }

  private resolve(e: Expr, fn: string, tt: CelT | undefined, at: CelT[]): CelT {
    const sigs = SIGNATURES.get(fn);
    if (!sigs) return this.err(e, `undeclared reference to '${fn}'`);
    const matches: CelT[] = [];
    for (const s of sigs) {
      if (!!s.target !== !!tt || s.args.length !== at.length) continue;
      const b: Bindings = new Map();
      if (s.target && tt && !this.accepts(s.target, tt, b)) continue;
      if (!s.args.every((p, i) => this.accepts(p, at[i], b))) continue;
      matches.push(substitute(s.result, b));
      // Exact (non-dyn) match wins immediately.
      if (!(tt && isDyn(tt)) && !at.some(isDyn)) break;
    }
    if (matches.length === 0) {
      const recv = tt ? `${typeName(tt)}.` : '';
      return this.err(e, `found no matching overload for '${fn}' applied to '${recv}(${at.map(typeName).join(', ')})'`);
    }
    if (matches.length === 1) return matches[0];
    return matches.every((m) => m.k === matches[0].k && !['list', 'map', 'opaque', 'object'].includes(m.k)) ? matches[0] : T.dyn;
  }

  /** Like assignable, with the Kubernetes int-or-string union passing as int or string. */
  private accepts(p: CelT, a: CelT, b: Bindings): boolean {
    if (a.k === 'dyn' && a.union && p.k !== 'param' && p.k !== 'dyn') return a.union.includes(p.k as 'int' | 'string');
    return assignable(p, a, b);
  }
}
