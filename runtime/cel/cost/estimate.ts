// Static worst-case cost estimate of a checked expression, in Kubernetes'
// CEL cost units: identifiers and selections cost 1, calls 1 plus size-based
// work (string traversal 0.1 per character, regex (1 + 0.1 x input) x 0.25 x
// pattern), list literals 40 (the unit our spec gives; cel-go charges 10), map literals 30, comprehensions the loop cost
// times the largest possible range (maxItems / maxProperties, or what a
// 3 MiB request can hold). Sizes come from the checker's types.
// Boundary: estimation only; limits are applied in ../compile.ts.
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import type { CelT } from '../schema/types.ts';
import { MAX_NAME_FORMAT_REGEX_SIZE } from '../libs/format.ts';

export const COST = {
  constant: 0,
  selectOrIdent: 1,
  call: 1,
  listCreate: 40,
  mapCreate: 30,
  stringTraversal: 0.1,
  regexPattern: 0.25,
};

const TRAVERSING = new Set([
  'contains',
  'startsWith',
  'endsWith',
  'indexOf',
  'lastIndexOf',
  'replace',
  'split',
  'join',
  'lowerAscii',
  'upperAscii',
  'trim',
  'substring',
  'charAt',
  'reverse',
  'string',
  'bytes',
  'url',
  'isURL',
  'quantity',
  'isQuantity',
  'format',
  'quote',
  '_==_',
  '_!=_',
  '_+_',
  '@in',
  'isSorted',
  'sum',
  'min',
  'max',
]);
const REGEX = new Set(['matches', 'find', 'findAll']);

function sizeOf(t: CelT | undefined): number {
  if (!t) return 0;
  if (t.k === 'string' || t.k === 'bytes' || t.k === 'list' || t.k === 'map') return t.max ?? 0;
  if (t.k === 'object') return t.fields.size;
  return 0;
}

const NOMINAL = new Set(['masked', 'prefixLength', 'family', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast', 'format.named']);
const traverse = (n: number) => Math.ceil(n * COST.stringTraversal);

/**
 * The estimates of the IP, CIDR and format libraries (upstream's figures; the
 * parse functions called without a receiver get the default cost of 1, as
 * upstream's estimator only prices them with a receiver).
 */
function libraryEstimate(fn: string, hasTarget: boolean, operands: (CelT | undefined)[]): number | undefined {
  if (NOMINAL.has(fn)) return 1;
  if (fn === 'ip' || fn === 'cidr' || fn === 'isIP' || fn === 'isCIDR' || fn === 'ip.isCanonical') return 1;
  if (fn === 'containsIP' && hasTarget) {
    const arg = operands[1];
    return traverse(16 + 16) + (arg?.k === 'string' ? traverse(sizeOf(arg)) : 0);
  }
  if (fn === 'containsCIDR' && hasTarget) {
    const arg = operands[1];
    return traverse(16 + 16) + traverse(16) + 1 + (arg?.k === 'string' ? traverse(sizeOf(arg)) : 0);
  }
  if (fn === 'validate' && hasTarget && operands[0]?.k === 'opaque' && operands[0].name === 'kubernetes.NamedFormat') {
    return Math.ceil(traverse(sizeOf(operands[1])) * MAX_NAME_FORMAT_REGEX_SIZE * COST.regexPattern);
  }
  return undefined;
}

export function estimateCost(e: Expr, types: Map<bigint, CelT>): number {
  const k = e.exprKind;
  switch (k.case) {
    case 'constExpr':
      return COST.constant;
    case 'identExpr':
      return COST.selectOrIdent;
    case 'selectExpr':
      return COST.selectOrIdent + estimateCost(k.value.operand!, types);
    case 'listExpr':
      return COST.listCreate + k.value.elements.reduce((s, x) => s + estimateCost(x, types), 0);
    case 'structExpr':
      return COST.mapCreate + k.value.entries.reduce((s, en) => s + (en.keyKind.case === 'mapKey' ? estimateCost(en.keyKind.value, types) : 0) + (en.value ? estimateCost(en.value, types) : 0), 0);
    case 'comprehensionExpr': {
      const v = k.value;
      const range = types.get(v.iterRange!.id);
      const n = sizeOf(range);
      const perIteration = estimateCost(v.loopCondition!, types) + estimateCost(v.loopStep!, types);
      return estimateCost(v.iterRange!, types) + estimateCost(v.accuInit!, types) + n * perIteration + estimateCost(v.result!, types);
    }
    case 'callExpr': {
      const v = k.value;
      // A qualified function name (`ip.isCanonical(s)`, `format.named(n)`) parses as a call on an
      // identifier the checker never typed: the identifier is part of the name, not a receiver.
      const qualifier = v.target?.exprKind.case === 'identExpr' && !types.has(v.target.id) ? v.target.exprKind.value.name : undefined;
      const target = qualifier === undefined ? v.target : undefined;
      const argsCost = v.args.reduce((s, x) => s + estimateCost(x, types), 0) + (target ? estimateCost(target, types) : 0);
      const fn = qualifier === undefined ? v.function : `${qualifier}.${v.function}`;
      if (fn === '_?_:_') {
        return estimateCost(v.args[0], types) + Math.max(estimateCost(v.args[1], types), estimateCost(v.args[2], types));
      }
      if (fn === '_&&_' || fn === '_||_') return argsCost;
      // Internal wrappers (iteration accounting, optional plumbing) cost what they wrap.
      if (fn === '@iter' || fn === '@optlist' || fn === '@optmap' || fn === '@optelem') return argsCost;
      const operands = [target, ...v.args].filter((x): x is Expr => x !== undefined).map((x) => types.get(x.id));
      const lib = libraryEstimate(fn, target !== undefined, operands);
      if (lib !== undefined) return argsCost + lib;
      if (REGEX.has(fn)) {
        const input = fn === 'matches' && !v.target ? operands[0] : operands[0];
        const pattern = operands[1];
        return argsCost + Math.ceil(1 + COST.stringTraversal * sizeOf(input)) * Math.max(1, Math.ceil(COST.regexPattern * sizeOf(pattern)));
      }
      if (fn === '_==_' || fn === '_!=_') {
        // Equality stops at the shorter operand.
        const sizes = operands.map((t) => (t && (t.k === 'string' || t.k === 'bytes') ? sizeOf(t) * COST.stringTraversal : t && (t.k === 'list' || t.k === 'map') ? sizeOf(t) : 0));
        return argsCost + COST.call + Math.ceil(Math.min(...sizes));
      }
      if (fn === 'startsWith' || fn === 'endsWith') {
        // Only the prefix or suffix is compared.
        return argsCost + COST.call + Math.ceil(sizeOf(operands[1]) * COST.stringTraversal);
      }
      if (fn === '_+_' && operands[0]?.k === 'list') return argsCost + COST.call;
      if (TRAVERSING.has(fn)) {
        const total = operands.reduce((s, t) => s + (t && (t.k === 'string' || t.k === 'bytes') ? sizeOf(t) * COST.stringTraversal : t && t.k === 'list' ? sizeOf(t) : 0), 0);
        return argsCost + COST.call + Math.ceil(total);
      }
      return argsCost + COST.call;
    }
    default:
      return 0;
  }
}
