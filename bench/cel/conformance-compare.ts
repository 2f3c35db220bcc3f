// Measures candidate CEL libraries on the CEL conformance data
// (@bufbuild/cel-spec): passed / failed / skipped per library, and simple
// evaluations per second. Reproduces the figures in docs/decisions/cel.md.
// Candidates not installed are reported as missing. Usage:
//   npx tsx bench/cel/conformance-compare.ts
import { conformanceCases, valueToCel, sameValue, judge, conformanceRegistry, type EvalAnswer, type ConformanceCase } from '../../runtime/cel/conformance/harness.ts';
import { isCelList, isCelMap, isCelUint, isCelError, celList, celMap } from '@bufbuild/cel';
import type { ExprValue } from '@bufbuild/cel-spec/cel/expr/eval_pb.js';

type Candidate = { name: string; prepare(): Promise<((c: ConformanceCase) => EvalAnswer) | undefined>; bench(): Promise<number | undefined> };

function bindingsOf(c: ConformanceCase, plain: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c.test.bindings as Record<string, ExprValue>)) {
    if (v.kind.case !== 'value') continue;
    const cv = valueToCel(v.kind.value);
    out[k] = plain ? toPlain(cv) : cv;
  }
  return out;
}
function toPlain(v: unknown): unknown {
  if (isCelUint(v)) return v.value;
  if (isCelList(v)) return [...v].map(toPlain);
  if (isCelMap(v)) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[String(isCelUint(k) ? k.value : k)] = toPlain(x);
    return o;
  }
  return v;
}
function fromPlain(v: unknown): unknown {
  if (Array.isArray(v)) return celList(v.map(fromPlain) as never);
  if (v instanceof Map) return celMap(new Map([...v].map(([k, x]) => [k, fromPlain(x)])) as never);
  if (v && typeof v === 'object' && !(v instanceof Uint8Array) && Object.getPrototypeOf(v) === Object.prototype) return celMap(new Map(Object.entries(v).map(([k, x]) => [k, fromPlain(x)])) as never);
  return v;
}
// Foreign libraries have no uint type and may use numbers for ints: compare numerically.
const looseSame = (a: unknown, b: unknown): boolean => {
  const num = (x: unknown) => (isCelUint(x) ? Number(x.value) : typeof x === 'bigint' ? Number(x) : x);
  const na = num(a),
    nb = num(b);
  if (typeof na === 'number' && typeof nb === 'number') return na === nb || (Number.isNaN(na) && Number.isNaN(nb));
  return sameValue(fromPlain(a), b, () => false);
};

// Messages and type values compare inside an evaluation (the evaluator needs its context).
let eqPlan: ((b: Record<string, unknown>) => unknown) | undefined;
async function initEq() {
  const m = await import('@bufbuild/cel');
  eqPlan = m.plan(m.celEnv({ registry: conformanceRegistry() }), m.parse('a == b')) as never;
}
function messageEquals(a: unknown, b: unknown): boolean {
  const bt = (b as { __typeName?: string } | null)?.__typeName;
  if (bt !== undefined) return typeof a === 'object' && a !== null && ((a as { name?: string }).name === bt || String(a) === bt);
  return eqPlan?.({ a, b }) === true;
}
await initEq();

const EXPR = "self.replicas <= self.maxReplicas && self.name.startsWith('a')";
const OBJ = { replicas: 2n, maxReplicas: 5n, name: 'abc' };
function rate(fn: () => unknown): number {
  for (let i = 0; i < 20000; i++) fn();
  const n = 300000;
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Math.round(n / (Number(process.hrtime.bigint() - t) / 1e9));
}

const candidates: Candidate[] = [
  {
    name: 'runtime/cel (our module: @bufbuild/cel + gap filling; no skips applied here)',
    async prepare() {
      const { parseCelWithInfo } = await import('../../runtime/cel/syntax/parse.ts');
      const { makeEnv } = await import('../../runtime/cel/env.ts');
      const m = await import('@bufbuild/cel');
      return (c) => {
        try {
          const r = m.plan(makeEnv({ namespace: c.test.container, registry: conformanceRegistry() }), parseCelWithInfo(c.test.expr).expr)(bindingsOf(c, false) as never);
          return isCelError(r) ? { kind: 'error', message: r.message } : { kind: 'value', value: r };
        } catch (e) {
          return { kind: 'error', message: String(e) };
        }
      };
    },
    async bench() {
      const { compileRule } = await import('../../runtime/cel/index.ts');
      const c = compileRule(EXPR, { vars: { self: { type: 'object', properties: { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' }, name: { type: 'string' } } } } });
      if (!c.ok) return undefined;
      const plain = { replicas: 2, maxReplicas: 5, name: 'abc' };
      return rate(() => c.program.evaluate({ self: plain }));
    },
  },
  {
    name: '@bufbuild/cel (plain, no our gap-filling)',
    async prepare() {
      const m = await import('@bufbuild/cel').catch(() => undefined);
      const ext = await import('@bufbuild/cel/ext').catch(() => undefined);
      if (!m || !ext) return undefined;
      return (c) => {
        try {
          const env = m.celEnv({ namespace: c.test.container, registry: conformanceRegistry(), funcs: ext.strings });
          const r = m.plan(env, m.parse(c.test.expr))(bindingsOf(c, false) as never);
          return isCelError(r) ? { kind: 'error', message: r.message } : { kind: 'value', value: r };
        } catch (e) {
          return { kind: 'error', message: String(e) };
        }
      };
    },
    async bench() {
      const m = await import('@bufbuild/cel');
      const env = m.celEnv();
      const p = m.plan(env, m.parse(EXPR));
      return rate(() => p({ self: OBJ } as never));
    },
  },
  {
    name: '@marcbachmann/cel-js',
    async prepare() {
      const m: any = await import('@marcbachmann/cel-js' as string).catch(() => undefined);
      if (!m) return undefined;
      return (c) => {
        try {
          const env = new m.Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true });
          return { kind: 'value', value: env.evaluate(c.test.expr, bindingsOf(c, true)) };
        } catch (e) {
          return { kind: 'error', message: String(e) };
        }
      };
    },
    async bench() {
      const m: any = await import('@marcbachmann/cel-js' as string).catch(() => undefined);
      if (!m) return undefined;
      const env = new m.Environment({ unlistedVariablesAreDyn: true });
      const p = env.parse(EXPR);
      return rate(() => p({ self: OBJ }));
    },
  },
  {
    name: 'cel-js',
    async prepare() {
      const m: any = await import('cel-js' as string).catch(() => undefined);
      if (!m) return undefined;
      return (c) => {
        try {
          return { kind: 'value', value: m.evaluate(c.test.expr, bindingsOf(c, true)) };
        } catch (e) {
          return { kind: 'error', message: String(e) };
        }
      };
    },
    async bench() {
      const m: any = await import('cel-js' as string).catch(() => undefined);
      if (!m) return undefined;
      const ast = m.parse(EXPR);
      if (!ast.isSuccess) return undefined;
      const plainObj = { replicas: 2, maxReplicas: 5, name: 'abc' };
      return rate(() => m.evaluate(ast.cst, { self: plainObj }));
    },
  },
];

const only = process.argv[2];
const cases = conformanceCases();
for (const cand of candidates) {
  if (only && !cand.name.includes(only)) continue;
  const run = await cand.prepare();
  if (!run) {
    console.log(`${cand.name}: not installed`);
    continue;
  }
  let passed = 0,
    failed = 0;
  const t = Date.now();
  for (const c of cases) {
    const { outcome } = judge(c, run(c), cand.name.startsWith('@bufbuild') || cand.name.startsWith('runtime/cel') ? (a, b) => sameValue(a, b, messageEquals) : looseSame);
    if (outcome === 'passed') passed++;
    else failed++;
  }
  const evals = await cand.bench().catch(() => undefined);
  console.log(`${cand.name}: passed ${passed} / ${cases.length}, failed ${failed}, ${Date.now() - t} ms; ${evals ?? '?'} evaluations/s of ${EXPR}`);
}
