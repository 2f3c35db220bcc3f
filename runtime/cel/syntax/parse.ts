// Parses a CEL expression into the cel.expr AST with @bufbuild/cel's parser,
// adding what that parser lacks: the optional syntax (via
// optional-syntax.ts markers) and the `cel.bind` macro. Also instruments
// comprehension loops so the runtime cost tracker sees every iteration.
// Boundary: syntax; types are checked in ../check/.
import { parse } from '@bufbuild/cel';
import type { Expr, ParsedExpr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { rewriteOptionalSyntax, OPT_SELECT_PREFIX, OPT_INDEX_MARK, OPT_ELEM_MARK } from './optional-syntax.ts';

export class CelSyntaxError extends Error {}

let nextId = 1_000_000n;
function newId(): bigint {
  return nextId++;
}

export function constString(s: string): Expr {
  return { id: newId(), exprKind: { case: 'constExpr', value: { constantKind: { case: 'stringValue', value: s } } } } as unknown as Expr;
}
export function call(fn: string, args: Expr[], target?: Expr, id: bigint = newId()): Expr {
  return { id, exprKind: { case: 'callExpr', value: { function: fn, args, target } } } as unknown as Expr;
}
function ident(name: string): Expr {
  return { id: newId(), exprKind: { case: 'identExpr', value: { name } } } as unknown as Expr;
}

/** Does this node produce an optional value, so that a plain `.f` or `[k]` on it chains optionally? */
function isOptChain(e: Expr | undefined): boolean {
  if (e?.exprKind.case !== 'callExpr') return false;
  const c = e.exprKind.value;
  if (c.function === '@optsel' || c.function === '@optidx') return true;
  if (c.target?.exprKind.case === 'identExpr' && c.target.exprKind.value.name === 'optional' && ['of', 'ofNonZeroValue', 'none'].includes(c.function)) return true;
  return c.function === 'or' && c.target !== undefined && c.args.length === 1 && isOptChain(c.target);
}

function comprehension(accuVar: string, accuInit: Expr, result: Expr): Expr {
  return {
    id: newId(),
    exprKind: {
      case: 'comprehensionExpr',
      value: {
        iterVar: '#unused',
        iterVar2: '',
        iterRange: { id: newId(), exprKind: { case: 'listExpr', value: { elements: [], optionalIndices: [] } } },
        accuVar,
        accuInit,
        loopCondition: { id: newId(), exprKind: { case: 'constExpr', value: { constantKind: { case: 'boolValue', value: false } } } },
        loopStep: ident(accuVar),
        result,
      },
    },
  } as unknown as Expr;
}

let macroVar = 0;
/** opt.optMap(x, e) and opt.optFlatMap(x, e): apply e to the value when there is one. */
function optMapMacro(id: bigint, target: Expr, varName: string, body: Expr, flat: boolean): Expr {
  const tmp = `#opt${macroVar++}`;
  const hasValue = call('hasValue', [], ident(tmp));
  const applied = comprehension(varName, call('value', [], ident(tmp)), body);
  const some = flat ? applied : call('of', [applied], ident('optional'));
  const none = call('none', [], ident('optional'));
  const cond = call('_?_:_', [hasValue, some, none]);
  const out = comprehension(tmp, target, cond);
  out.id = id;
  return out;
}
function markerArg(e: Expr | undefined, mark: string): Expr | undefined {
  if (e?.exprKind.case === 'callExpr' && e.exprKind.value.function === mark && !e.exprKind.value.target && e.exprKind.value.args.length === 1) return e.exprKind.value.args[0];
  return undefined;
}

/** Rewrites markers and macros in place; returns the (possibly replaced) node. */
function rewrite(e: Expr): Expr {
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr': {
      const v = k.value;
      if (v.operand) v.operand = rewrite(v.operand);
      if (!v.testOnly && v.field.startsWith(OPT_SELECT_PREFIX)) return call('@optsel', [v.operand!, constString(v.field.slice(OPT_SELECT_PREFIX.length))], undefined, e.id);
      if (isOptChain(v.operand)) return call(v.testOnly ? '@opthas' : '@optsel', [v.operand!, constString(v.field)], undefined, e.id);
      return e;
    }
    case 'callExpr': {
      const v = k.value;
      if (v.target) v.target = rewrite(v.target);
      v.args = v.args.map(rewrite);
      if (v.function === '_[_]' && v.args.length === 2) {
        const inner = markerArg(v.args[1], OPT_INDEX_MARK);
        if (inner) return call('@optidx', [v.args[0], inner], undefined, e.id);
        if (isOptChain(v.args[0])) return call('@optidx', v.args, undefined, e.id);
      }
      if ((v.function === 'optMap' || v.function === 'optFlatMap') && v.target && v.args.length === 2 && v.args[0].exprKind.case === 'identExpr') {
        return optMapMacro(e.id, v.target, v.args[0].exprKind.value.name, v.args[1], v.function === 'optFlatMap');
      }
      if (v.function === 'bind' && v.target?.exprKind.case === 'identExpr' && v.target.exprKind.value.name === 'cel' && v.args.length === 3 && v.args[0].exprKind.case === 'identExpr') {
        // cel.bind(x, init, body): a comprehension over nothing whose accumulator is x.
        const out = comprehension(v.args[0].exprKind.value.name, v.args[1], v.args[2]);
        out.id = e.id;
        return out;
      }
      return e;
    }
    case 'listExpr': {
      const v = k.value;
      let optional = false;
      v.elements = v.elements.map((x) => {
        const inner = markerArg(x, OPT_ELEM_MARK);
        if (inner) {
          optional = true;
          return call('@optelem', [rewrite(inner)]);
        }
        return rewrite(x);
      });
      v.optionalIndices = [];
      return optional ? call('@optlist', [e]) : e;
    }
    case 'structExpr': {
      const v = k.value;
      let optional = false;
      for (const entry of v.entries) {
        if (entry.keyKind.case === 'mapKey') {
          const inner = markerArg(entry.keyKind.value, OPT_ELEM_MARK);
          if (inner) {
            optional = true;
            entry.keyKind.value = rewrite(inner);
            if (entry.value) entry.value = call('@optelem', [rewrite(entry.value)]);
            continue;
          }
          entry.keyKind.value = rewrite(entry.keyKind.value);
        }
        if (entry.value) entry.value = rewrite(entry.value);
      }
      return optional && !v.messageName ? call('@optmap', [e]) : e;
    }
    case 'comprehensionExpr': {
      const v = k.value;
      for (const f of ['iterRange', 'accuInit', 'loopCondition', 'loopStep', 'result'] as const) if (v[f]) v[f] = rewrite(v[f]!);
      // Every iteration evaluates the loop condition: charge the runtime budget there.
      if (v.loopCondition) v.loopCondition = call('@iter', [v.loopCondition]);
      return e;
    }
    default:
      return e;
  }
}

export interface Parsed {
  expr: Expr;
  /** Offset in the source of each node, by id. */ positions: Record<string, number>;
  lineOffsets: number[];
}

/** `line:column` (1-based line, 1-based column) of a node, as CEL messages show it. */
export function positionOf(p: Parsed, id: bigint, src: string): string {
  const off = p.positions[id.toString()];
  if (off === undefined) return '1:1';
  let line = 1,
    col = 1;
  for (let i = 0; i < off && i < src.length; i++) {
    if (src[i] === '\n') {
      line++;
      col = 1;
    } else col++;
  }
  return `${line}:${col}`;
}

export function parseCelWithInfo(src: string): Parsed {
  let parsed: ParsedExpr;
  try {
    parsed = parse(rewriteOptionalSyntax(src));
  } catch (e) {
    throw new CelSyntaxError((e as Error).message.replace(/__celopt(sel|idx|elem)__\(?/g, '?'));
  }
  if (!parsed.expr) throw new CelSyntaxError('empty expression');
  const positions: Record<string, number> = {};
  for (const [k, v] of Object.entries(parsed.sourceInfo?.positions ?? {})) positions[k] = v;
  return { expr: rewrite(parsed.expr), positions, lineOffsets: parsed.sourceInfo?.lineOffsets ?? [] };
}
