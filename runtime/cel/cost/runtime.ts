// Runtime cost accounting: every function call and comprehension iteration
// charges the active budget, in the units of Kubernetes' CEL cost model
// (a call costs 1; string, bytes and list work grows with size; a regex costs
// (1 + 0.1 x length(input)) x 0.25 x length(regex)). Evaluation is synchronous, so
// the active tracker is module state set for the duration of one evaluate().
// Boundary: runtime accounting only; the static estimate is in estimate.ts.
import { isCelList, isCelMap, type CelValue } from '@bufbuild/cel';
import { IPValue, CIDRValue } from '../libs/ip.ts';
import { FormatValue } from '../libs/format.ts';

export class CostLimitError extends Error {
  constructor(readonly limit: number) {
    super('operation cancelled: actual cost limit exceeded');
  }
}

export class CostTracker {
  cost = 0;
  constructor(readonly limit: number) {}
  charge(n: number): void {
    this.cost += n;
    if (this.cost > this.limit) throw new CostLimitError(this.limit);
  }
}

let active: CostTracker | undefined;
export function withTracker<T>(t: CostTracker | undefined, fn: () => T): T {
  const prev = active;
  active = t;
  try {
    return fn();
  } finally {
    active = prev;
  }
}
export function activeTracker(): CostTracker | undefined {
  return active;
}

function sizeOf(v: CelValue | undefined): number {
  if (typeof v === 'string') return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (isCelList(v) || isCelMap(v)) return v.size;
  return 0;
}

const STRING_TRAVERSAL = 0.1;
const REGEX_PATTERN = 0.25;
const REGEX_FUNCS = new Set(['matches', 'find', 'findAll']);
const LINEAR_FUNCS = new Set([
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
  '_+_',
  '_==_',
  '_!=_',
  '@in',
  'isSorted',
  'sum',
  'min',
  'max',
  'string',
  'bytes',
  'url',
  'isURL',
  'quantity',
  'isQuantity',
  'format',
  'quote',
]);

const NOMINAL = new Set(['masked', 'prefixLength', 'family', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast', 'format.named']);
const traverse = (n: number) => Math.ceil(n * STRING_TRAVERSAL);

/** Size of an opaque library value as upstream's Sizer reports it: bytes of an IP, prefix bytes of a CIDR. */
function netSize(v: unknown): number {
  if (v instanceof CIDRValue) return Math.ceil(v.prefix.bits / 8);
  if (v instanceof IPValue) return v.addr.bytes.length;
  return sizeOf(v as CelValue);
}

/** The IP, CIDR and format libraries' runtime costs (upstream's figures). */
function libraryCost(name: string, target: CelValue | undefined, args: CelValue[]): number | undefined {
  if (NOMINAL.has(name)) return 1;
  if (name === 'cidr' || name === 'isIP' || name === 'isCIDR') return traverse(sizeOf(args[0]));
  if (name === 'ip') return target !== undefined ? 1 : traverse(sizeOf(args[0]));
  if (name === 'ip.isCanonical') return Math.ceil(sizeOf(args[0]) * 2 * STRING_TRAVERSAL);
  if (name === 'containsIP' || name === 'containsCIDR') {
    const cs = netSize(target);
    let cost = traverse(cs + cs);
    if (name === 'containsCIDR') cost += traverse(cs) + 1;
    if (typeof args[0] === 'string') cost += traverse(args[0].length);
    return cost;
  }
  if (name === 'validate' && (target as unknown) instanceof FormatValue) {
    const f = target as unknown as FormatValue;
    return Math.ceil((1 + sizeOf(args[0])) * STRING_TRAVERSAL) * Math.ceil(f.maxRegexSize * REGEX_PATTERN);
  }
  return undefined;
}

/** Cost of one call, from its name and argument values. */
export function callCost(name: string, target: CelValue | undefined, args: CelValue[]): number {
  const lib = libraryCost(name, target, args);
  if (lib !== undefined) return lib;
  if (REGEX_FUNCS.has(name)) {
    const input = name === 'matches' && target === undefined ? args[0] : target;
    const pattern = name === 'matches' && target === undefined ? args[1] : args[0];
    return Math.ceil(1 + sizeOf(input) * STRING_TRAVERSAL) * Math.max(1, Math.ceil(REGEX_PATTERN * sizeOf(pattern)));
  }
  if (name === 'startsWith' || name === 'endsWith') return 1 + Math.ceil(sizeOf(args[0]) * STRING_TRAVERSAL);
  if (name === '_+_' && isCelList(args[0])) return 1;
  if (LINEAR_FUNCS.has(name)) {
    let n = sizeOf(target);
    for (const a of args) n += sizeOf(a);
    return 1 + Math.ceil(n * STRING_TRAVERSAL);
  }
  return 1;
}

/** Wraps the evaluator's function resolver so every call is charged. */
export function costingResolver<R extends { find(name: string): unknown }>(inner: R): R {
  const cache = new Map<string, unknown>();
  return {
    ...inner,
    [Symbol.iterator]: (inner as unknown as Iterable<unknown>)[Symbol.iterator]?.bind(inner),
    find(name: string) {
      if (cache.has(name)) return cache.get(name);
      const g = inner.find(name) as { name: string; call(id: number, t: CelValue | undefined, a: CelValue[]): unknown } | undefined;
      const wrapped = g && {
        name: g.name,
        [Symbol.iterator]: (g as unknown as Iterable<unknown>)[Symbol.iterator]?.bind(g),
        call(id: number, target: CelValue | undefined, args: CelValue[]) {
          const t = active;
          if (t) t.charge(callCost(name, target, args));
          return g.call(id, target, args);
        },
      };
      cache.set(name, wrapped);
      return wrapped;
    },
  } as R;
}
