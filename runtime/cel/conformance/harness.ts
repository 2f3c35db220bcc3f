// Conformance harness: walks the CEL conformance data of @bufbuild/cel-spec,
// turns expected `cel.expr.Value`s into CEL runtime values and compares a
// result with the expectation. It knows nothing about which evaluator runs the
// expression: callers pass an `Evaluator` (our module, or a candidate library
// in bench/cel/conformance-compare.ts).
import { getConformanceSuite, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { getTestRegistry } from '@bufbuild/cel-spec/testdata/registry.js';
import type { SimpleTest } from '@bufbuild/cel-spec/cel/expr/conformance/test/simple_pb.js';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import type { Registry } from '@bufbuild/protobuf';
import { plan, parse, celEnv, celUint, isCelUint, isCelList, isCelMap, celList, celMap, type CelValue, type CelInput } from '@bufbuild/cel';

export interface ConformanceCase {
  /** `file/section/name` */
  id: string;
  file: string;
  section: string;
  name: string;
  test: SimpleTest;
}

let registry: Registry | undefined;
let identity: ((b: Record<string, unknown>) => unknown) | undefined;
export function conformanceRegistry(): Registry {
  registry ??= getTestRegistry();
  return registry;
}

/** All conformance tests, flattened, in suite order. */
export function conformanceCases(): ConformanceCase[] {
  const out: ConformanceCase[] = [];
  const root = getConformanceSuite();
  const walk = (s: IncrementalTestSuite, path: string[]) => {
    for (const t of s.tests) {
      const [file = '', section = ''] = path;
      out.push({ id: `${file}/${section}/${t.name}`, file, section, name: t.name, test: t.original });
    }
    for (const c of s.suites) walk(c, [...path, c.name]);
  };
  for (const c of root.suites) walk(c, [c.name]);
  return out;
}

/** A conformance `Value` as a CEL input value (objects are unpacked from Any). */
export function valueToCel(v: Value, reg: Registry = conformanceRegistry()): CelInput {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
      return k.value;
    case 'int64Value':
      return k.value;
    case 'uint64Value':
      return celUint(k.value);
    case 'doubleValue':
      return k.value;
    case 'stringValue':
      return k.value;
    case 'bytesValue':
      return k.value;
    case 'enumValue':
      return BigInt(k.value.value);
    case 'objectValue': {
      const m = anyUnpack(k.value, reg);
      if (!m) throw new Error(`cannot unpack ${k.value.typeUrl}`);
      // Through an evaluation so the evaluator wraps the message the way it wraps its own results.
      const run = (identity ??= plan(celEnv({ registry: reg }), parse('v')) as unknown as (b: Record<string, unknown>) => unknown);
      return run({ v: m }) as CelInput;
    }
    case 'listValue':
      return celList(k.value.values.map((x) => valueToCel(x, reg)));
    case 'mapValue': {
      const m = new Map<bigint | string | boolean | ReturnType<typeof celUint>, CelInput>();
      for (const e of k.value.entries) {
        if (!e.key || !e.value) continue;
        m.set(valueToCel(e.key, reg) as bigint | string | boolean, valueToCel(e.value, reg));
      }
      return celMap(m);
    }
    case 'typeValue':
      return { __typeName: k.value } as unknown as CelInput;
    default:
      throw new Error(`unsupported expected value ${String(k.case)}`);
  }
}

/**
 * Strict sameness for test results: like CEL equality but int, uint and
 * double are distinct and NaN equals NaN. `equalsFallback` compares what this
 * function does not know (messages, types).
 */
export function sameValue(a: unknown, b: unknown, equalsFallback: (a: unknown, b: unknown) => boolean): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (typeof a !== typeof b) return false;
  if (typeof a !== 'object' || a === null || b === null) return a === b;
  if (isCelUint(a)) return isCelUint(b) && a.value === b.value;
  if (isCelUint(b)) return false;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  if (isCelList(a)) {
    if (!isCelList(b) || a.size !== b.size) return false;
    for (let i = 0; i < a.size; i++) if (!sameValue(a.get(i), b.get(i), equalsFallback)) return false;
    return true;
  }
  if (isCelMap(a)) {
    if (!isCelMap(b) || a.size !== b.size) return false;
    for (const [k, v] of a) {
      if (!b.has(k)) return false;
      if (!sameValue(v, b.get(k), equalsFallback)) return false;
    }
    return true;
  }
  return equalsFallback(a, b);
}

export type Outcome = 'passed' | 'failed' | 'skipped';

/** What an evaluator answers for one case. */
export type EvalAnswer = { kind: 'value'; value: CelValue | unknown } | { kind: 'error'; message: string } | { kind: 'skip'; reason: string };

/** Decides the outcome of a case given the evaluator's answer. */
export function judge(c: ConformanceCase, ans: EvalAnswer, same: (a: unknown, b: unknown) => boolean): { outcome: Outcome; detail?: string } {
  if (ans.kind === 'skip') return { outcome: 'skipped', detail: ans.reason };
  const m = c.test.resultMatcher;
  switch (m.case) {
    case undefined:
      // No matcher means the expression evaluates to true.
      return ans.kind === 'value' && ans.value === true ? { outcome: 'passed' } : { outcome: 'failed', detail: describe(ans) };
    case 'value':
    case 'typedResult': {
      const expectedV = m.case === 'value' ? m.value : m.value.result;
      if (ans.kind !== 'value') return { outcome: 'failed', detail: describe(ans) };
      if (!expectedV) return { outcome: 'passed' };
      let expected: unknown;
      try {
        expected = valueToCel(expectedV);
      } catch (e) {
        return { outcome: 'failed', detail: String(e) };
      }
      return same(ans.value, expected) ? { outcome: 'passed' } : { outcome: 'failed', detail: `got ${describe(ans)}` };
    }
    case 'evalError':
    case 'anyEvalErrors':
      return ans.kind === 'error' ? { outcome: 'passed' } : { outcome: 'failed', detail: `expected error, ${describe(ans)}` };
    default:
      return { outcome: 'skipped', detail: `result matcher ${m.case} (unknowns) is not part of Kubernetes CEL` };
  }
}

function describe(a: EvalAnswer): string {
  if (a.kind === 'error') return `error: ${a.message}`;
  if (a.kind === 'skip') return `skip: ${a.reason}`;
  try {
    return `value: ${String(a.value)}`;
  } catch {
    return 'value: <unprintable>';
  }
}
