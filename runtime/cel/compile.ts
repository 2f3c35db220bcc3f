// Compiles a CEL rule against variables typed by OpenAPI schemas: parse,
// type-check (unknown fields and type errors are rejected with a message
// and position), estimate the worst-case cost (rejecting rules over the
// per-expression limit), and plan the evaluation. Programs are cached by
// (expression, variable declarations). Boundary: compile and evaluate; no
// knowledge of CRDs or admission beyond the options passed in.
import { plan, isCelError, type CelValue } from '@bufbuild/cel';
import { parseCelWithInfo, positionOf, CelSyntaxError } from './syntax/parse.ts';
import { schemaToType, type JSONSchema, type CelT, type RefResolver, typeName, T } from './schema/types.ts';
import { Checker } from './check/checker.ts';
import { estimateCost } from './cost/estimate.ts';
import { CostTracker, CostLimitError, withTracker } from './cost/runtime.ts';
import { defaultEnv } from './env.ts';
import { toCel, celToJSON } from './values/convert.ts';
import { Optional, NONE } from './libs/optional.ts';
import { PER_EXPRESSION_ESTIMATE_LIMIT, PER_CALL_RUNTIME_LIMIT, estimateTooHighMessage } from './limits.ts';

/** A variable: an OpenAPI schema, a native type described by a schema (field names not escaped), an optional of a schema's type (CRD rules' `oldSelf` with optionalOldSelf), or a CEL type by name (`string`, `map(string, dyn)`, `kubernetes.authorization.Authorizer`). */
export type VarDecl = JSONSchema | { celType: string } | { nativeType: JSONSchema } | { optionalOf: JSONSchema };

export interface CompileOptions {
  /** The declarations (with the schemas in them, not changed after a compile saw them: the cache keys them by identity). */
  vars: Record<string, VarDecl>;
  resolveRef?: RefResolver;
  /** Per-expression estimate limit (default: kube-apiserver's 10,000,000). */
  costLimit?: number;
  /** How many times the rule may run for one object (product of enclosing maxItems / maxProperties); multiplies the estimate. */
  cardinality?: number;
  /** The result type the rule must have (CRD rules: `bool`). */
  resultType?: 'bool' | 'string' | 'any';
  /** Field path reported with errors (e.g. `spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule`). */
  fieldPath?: string;
}

export interface CompileError {
  /** `compilation failed: ERROR: <input>:1:6: undefined field 'foo'` or the cost message. */
  message: string;
  kind: 'syntax' | 'type' | 'cost';
  field?: string;
}

export interface EvalOptions {
  /** Runtime cost allowed for this evaluation (default: the per-call limit, 1,000,000). */
  budget?: number;
}

export type EvalResult = { ok: true; value: CelValue; json: unknown; cost: number } | { ok: false; error: string; cost: number; costExceeded: boolean };

export interface Program {
  readonly expression: string;
  readonly resultType: string;
  readonly costEstimate: number;
  /** Evaluates with JSON values (converted by the declared types) or ready CEL values for the variables. */
  evaluate(activation: Record<string, unknown>, opts?: EvalOptions): EvalResult;
}

export type CompileResult = { ok: true; program: Program; costEstimate: number } | { ok: false; errors: CompileError[] };

export function parseTypeName(s: string): CelT {
  const t = s.trim();
  const m = /^(\w[\w.]*)(?:\((.*)\))?$/.exec(t);
  if (!m) return T.dyn;
  const [, name, inner] = m;
  const parts: string[] = [];
  if (inner !== undefined) {
    let d = 0,
      cur = '';
    for (const c of inner) {
      if (c === '(') d++;
      if (c === ')') d--;
      if (c === ',' && d === 0) {
        parts.push(cur);
        cur = '';
      } else cur += c;
    }
    if (cur.trim()) parts.push(cur);
  }
  switch (name) {
    case 'list':
      return T.list(parseTypeName(parts[0] ?? 'dyn'));
    case 'map':
      return T.map(parseTypeName(parts[0] ?? 'dyn'), parseTypeName(parts[1] ?? 'dyn'));
    case 'int':
    case 'uint':
    case 'double':
    case 'bool':
    case 'string':
    case 'bytes':
    case 'timestamp':
    case 'duration':
    case 'dyn':
    case 'type':
      return T[name];
    default:
      return T.opaque(name);
  }
}

function declType(name: string, d: VarDecl, resolveRef?: RefResolver): CelT {
  if ('celType' in d && typeof d.celType === 'string') return parseTypeName(d.celType);
  if ('optionalOf' in d && d.optionalOf && typeof d.optionalOf === 'object') return T.optional(schemaToType(d.optionalOf as JSONSchema, { resolveRef, name }));
  if ('nativeType' in d && d.nativeType && typeof d.nativeType === 'object') return schemaToType(d.nativeType as JSONSchema, { resolveRef, name, native: true });
  return schemaToType(d as JSONSchema, { resolveRef, name });
}

const schemaKeys = new WeakMap<object, string>();
// the key of a declarations object reused by many compiles (an admission environment's)
const varsKeys = new WeakMap<object, string>();
function declKey(vars: Record<string, VarDecl>): string {
  const known = varsKeys.get(vars);
  if (known !== undefined) return known;
  const key = declKeyOf(vars);
  varsKeys.set(vars, key);
  return key;
}
function declKeyOf(vars: Record<string, VarDecl>): string {
  let key = '';
  for (const name of Object.keys(vars).sort()) {
    const d = vars[name] as object;
    let k = schemaKeys.get(d);
    if (k === undefined) {
      k = JSON.stringify(d);
      schemaKeys.set(d, k);
    }
    key += `${name}=${k};`;
  }
  return key;
}

/** cel-go's default limit on an expression's length in code points. */
const EXPRESSION_SIZE_LIMIT = 100_000;

const cache = new Map<string, CompileResult>();
const CACHE_MAX = 5000;
let compiled = 0;

/**
 * How many compiles missed the process's cache so far: an expression is
 * compiled once per declarations and options, whoever asks (a strategy's
 * write-time check and the admission plugin share the result).
 */
export function compileCount(): number {
  return compiled;
}

export function compileRule(expression: string, opts: CompileOptions): CompileResult {
  const key = `${expression}\u0000${declKey(opts.vars)}\u0000${opts.costLimit ?? ''}\u0000${opts.cardinality ?? ''}\u0000${opts.resultType ?? ''}\u0000${opts.fieldPath ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const r = compileUncached(expression, opts);
  compiled++;
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, r);
  return r;
}

function compileUncached(expression: string, opts: CompileOptions): CompileResult {
  const field = opts.fieldPath;
  let parsed;
  const size = [...expression].length;
  if (size > EXPRESSION_SIZE_LIMIT) {
    return {
      ok: false,
      errors: [{ kind: 'syntax', field, message: `compilation failed: ERROR: <input>:-1:0: expression code point size exceeds limit: size: ${size}, limit ${EXPRESSION_SIZE_LIMIT}` }],
    };
  }
  try {
    parsed = parseCelWithInfo(expression);
  } catch (e) {
    if (e instanceof RangeError) return { ok: false, errors: [{ kind: 'syntax', field, message: 'compilation failed: ERROR: <input>:-1:0: max recursion depth exceeded' }] };
    const msg = e instanceof CelSyntaxError ? e.message : String(e);
    return { ok: false, errors: [{ kind: 'syntax', field, message: `compilation failed: ERROR: <input>:${msg.replace(/^<input>:/, '')}` }] };
  }
  const vars = new Map<string, CelT>();
  const types: Record<string, CelT> = {};
  for (const [name, d] of Object.entries(opts.vars)) {
    const t = declType(name, d, opts.resolveRef);
    vars.set(name, t);
    types[name] = t;
  }
  const checker = new Checker(vars);
  const resultT = checker.check(parsed.expr);
  const errors: CompileError[] = checker.errors.map((er) => ({
    kind: 'type' as const,
    field,
    message: `compilation failed: ERROR: <input>:${positionOf(parsed, er.exprId, expression)}: ${er.message}`,
  }));
  const want = opts.resultType ?? 'bool';
  if (errors.length === 0 && want !== 'any' && resultT.k !== want && resultT.k !== 'dyn') {
    errors.push({ kind: 'type', field, message: `compilation failed: cel expression must evaluate to a ${want}, got ${typeName(resultT)}` });
  }
  if (errors.length) return { ok: false, errors };
  const estimate = estimateCost(parsed.expr, checker.types) * (opts.cardinality ?? 1);
  const limit = opts.costLimit ?? PER_EXPRESSION_ESTIMATE_LIMIT;
  if (estimate > limit) return { ok: false, errors: [{ kind: 'cost', field, message: estimateTooHighMessage(estimate, limit) }] };
  const run = plan(defaultEnv(), parsed.expr);
  const program: Program = {
    expression,
    resultType: typeName(resultT),
    costEstimate: estimate,
    evaluate(activation, eopts = {}) {
      const bindings: Record<string, unknown> = {};
      for (const name in activation) bindings[name] = convertVar(activation[name], types[name]);
      const tracker = new CostTracker(eopts.budget ?? PER_CALL_RUNTIME_LIMIT);
      let out: unknown;
      try {
        out = withTracker(tracker, () => run(bindings as never));
      } catch (e) {
        if (e instanceof CostLimitError) return { ok: false, error: e.message, cost: tracker.cost, costExceeded: true };
        return { ok: false, error: (e as Error).message, cost: tracker.cost, costExceeded: false };
      }
      if (isCelError(out)) {
        const cause = findCostError(out);
        if (cause) return { ok: false, error: cause.message, cost: tracker.cost, costExceeded: true };
        return { ok: false, error: out.message, cost: tracker.cost, costExceeded: false };
      }
      return { ok: true, value: out as CelValue, json: celToJSON(out), cost: tracker.cost };
    },
  };
  return { ok: true, program, costEstimate: estimate };
}

function findCostError(e: unknown, depth = 0): CostLimitError | undefined {
  if (depth > 8 || !e || typeof e !== 'object') return undefined;
  if (e instanceof CostLimitError) return e;
  const c = (e as { cause?: unknown }).cause;
  if (Array.isArray(c)) {
    for (const x of c) {
      const f = findCostError(x, depth + 1);
      if (f) return f;
    }
    return undefined;
  }
  return findCostError(c, depth + 1);
}

function convertVar(v: unknown, t: CelT | undefined): unknown {
  // An optional-typed variable takes the plain JSON value (absent: undefined) or a ready optional.
  if (t && t.k === 'opaque' && t.name === 'optional_type' && !(v instanceof Optional)) return v === undefined ? NONE : new Optional(toCel(v, t.param));
  if (t && t.k === 'opaque') return v;
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype) return v;
  return toCel(v, t);
}
