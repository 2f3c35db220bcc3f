// One ValidatingAdmissionPolicy compiled (once per generation) and
// evaluated for one request and one param, as upstream's validator:
// matchConditions first (false: no decisions; an error: the failure
// policy), then each validation (false: a denial with its message,
// messageExpression's result, or `failed expression: <expr>`, and its
// reason; an error: the failure policy), and the audit annotations. The
// `variables` are evaluated on first use and kept for the evaluation (a
// failing one fails only the expressions that use it). Validations,
// message expressions and the variables they use share the per-evaluation
// cost budget; the audit annotations have one of their own, and one that
// fails to evaluate denies the request under failurePolicy Fail.

import type { Program } from '../../cel/index.ts';
import type { CompiledConditions } from '../../cel/admission/compile.ts';
import type { ExpressionEnv, VariableType } from '../../cel/admission/env.ts';
import { RUNTIME_BUDGET_EXCEEDED, RUNTIME_BUDGET_PER_OBJECT, PER_CALL_RUNTIME_LIMIT } from '../../cel/limits.ts';
import type { Obj } from '../../storage/interface.ts';
import { admissionCel, admissionCompiler } from '../matching/cel.ts';
import { evaluateMatchConditions, type FailurePolicy } from '../matching/conditions.ts';

/** Upstream's MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

interface CompiledValidation {
  program: Program;
  expression: string;
  message: string;
  messageProgram?: Program;
  reason?: string;
}

export interface CompiledPolicy {
  name: string;
  failurePolicy: FailurePolicy;
  hasParams: boolean;
  conditions?: CompiledConditions;
  variables: { name: string; program: Program }[];
  validations: CompiledValidation[];
  audits: { key: string; expression: string; program: Program }[];
}

/** A policy that does not compile (stored before a rule changed): every match is a configuration error. */
export type PolicyCompilation = { ok: true; policy: CompiledPolicy } | { ok: false; error: string };

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v : []);

export function compilePolicy(p: Obj): PolicyCompilation {
  const c = admissionCompiler();
  const spec: Obj = p.spec ?? {};
  const name = String(p.metadata?.name ?? '');
  const hasParams = spec.paramKind != null;
  const variableTypes: VariableType[] = [];
  const env: ExpressionEnv = { params: hasParams, variables: true, variableTypes };
  const errors: string[] = [];
  const compile = (expr: string, field: string, returns: 'bool' | 'string' | 'string?' | 'any', at: ExpressionEnv = env): Program | undefined => {
    const r = c.compileExpression(expr, field, at, returns);
    if (r.error) errors.push(`${r.error.field}: ${r.error.detail}`);
    return r.program;
  };
  const mc = c.compileMatchConditions(spec.matchConditions, 'spec.matchConditions', { params: hasParams });
  for (const e of mc.errors) errors.push(`${e.field}: ${e.detail}`);
  // each variable sees the ones before it, typed as they compiled (as the strategy checked them)
  const variables = list(spec.variables).map((v, i) => {
    const program = compile(String(v.expression ?? ''), `spec.variables[${i}].expression`, 'any', { ...env, variableTypes: [...variableTypes] })!;
    variableTypes.push({ name: String(v.name), type: program?.resultType ?? 'dyn' });
    return { name: String(v.name), program };
  });
  const validations = list(spec.validations).map((v, i) => ({
    program: compile(String(v.expression ?? ''), `spec.validations[${i}].expression`, 'bool')!,
    expression: String(v.expression ?? ''),
    message: String(v.message ?? ''),
    messageProgram: v.messageExpression ? compile(String(v.messageExpression), `spec.validations[${i}].messageExpression`, 'string') : undefined,
    reason: v.reason,
  }));
  const audits = list(spec.auditAnnotations).map((a, i) => ({
    key: String(a.key ?? ''),
    expression: String(a.valueExpression ?? ''),
    program: compile(String(a.valueExpression ?? '').trim(), `spec.auditAnnotations[${i}].valueExpression`, 'string?')!,
  }));
  if (errors.length) return { ok: false, error: errors.join('; ') };
  return { ok: true, policy: { name, failurePolicy: spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail', hasParams, conditions: mc.conditions, variables, validations, audits } };
}

export interface Decision {
  action: 'deny' | 'admit';
  /** An evaluation error (the failure policy turned it into this action). */
  error?: boolean;
  message: string;
  reason?: string;
  /** Index of the validation (for the audit annotation). */
  index: number;
}

export interface EvaluationResult {
  decisions: Decision[];
  /** Audit annotation values by the policy's key (without the policy name), trimmed, empty ones left out. */
  audits: { key: string; value: string }[];
  /** Audit annotations that failed to evaluate under failurePolicy Fail: each denies the request, whatever the binding's actions. */
  auditErrors: string[];
}

const actionForError = (f: FailurePolicy): 'deny' | 'admit' => (f === 'Ignore' ? 'admit' : 'deny');

/** Evaluates the policy with the request's variables (matching/cel.ts activation()); `act` gains `variables`. */
export function evaluatePolicy(p: CompiledPolicy, act: Record<string, unknown>, budget = RUNTIME_BUDGET_PER_OBJECT): EvaluationResult {
  const out: EvaluationResult = { decisions: [], audits: [], auditErrors: [] };
  const m = evaluateMatchConditions(p.conditions, act, p.failurePolicy);
  if ('error' in m && m.error !== undefined) {
    out.decisions.push({ action: actionForError(p.failurePolicy), error: true, message: m.error, index: 0 });
    return out;
  }
  if (!m.matches) return out;
  let remaining = budget;
  const run = (prog: Program) => {
    const r = prog.evaluate(act, { budget: Math.min(PER_CALL_RUNTIME_LIMIT, Math.max(remaining, 0)) });
    remaining -= r.cost;
    return r;
  };
  const budgetError = (): EvaluationResult => ({ decisions: [{ action: actionForError(p.failurePolicy), error: true, message: RUNTIME_BUDGET_EXCEEDED, index: 0 }], audits: [], auditErrors: [] });
  // variables are evaluated on first use and kept for this evaluation (upstream's lazy composition):
  // one that fails is an error only for the expressions that use it
  const cel = admissionCel();
  const programs = new Map(p.variables.map((v) => [v.name, v.program]));
  let blown = false;
  act.variables = new cel.LazyMap([...programs.keys()], (name) => {
    const r = run(programs.get(name)!);
    if (remaining < 0 || (!r.ok && r.costExceeded)) blown = true;
    return r.ok ? r.value : cel.celError(`composited variable "${name}" fails to evaluate: ${r.error}`);
  });
  for (let i = 0; i < p.validations.length; i++) {
    const v = p.validations[i];
    const r = run(v.program);
    if (blown || remaining < 0 || (!r.ok && r.costExceeded && remaining <= 0)) return budgetError();
    if (!r.ok) {
      out.decisions.push({ action: actionForError(p.failurePolicy), error: true, message: `expression '${v.expression}' resulted in error: ${r.error}`, index: i });
      continue;
    }
    if (r.json === true) {
      out.decisions.push({ action: 'admit', message: '', index: i });
      continue;
    }
    let message = '';
    if (v.messageProgram) {
      const mr = run(v.messageProgram);
      if (blown || remaining < 0) return budgetError();
      if (mr.ok && typeof mr.json === 'string') {
        const text = mr.json.trim();
        if (Buffer.byteLength(text) <= MAX_MESSAGE_BYTES && !text.includes('\n')) message = text;
      }
    }
    if (!message && v.message.trim()) message = v.message.trim();
    if (!message) message = `failed expression: ${v.expression.trim()}`;
    out.decisions.push({ action: 'deny', message, reason: v.reason ?? 'Invalid', index: i });
  }
  // the audit annotations have a budget of their own (upstream evaluates them as a separate set)
  remaining = budget;
  for (const a of p.audits) {
    const r = run(a.program);
    if (blown || remaining < 0) return budgetError();
    if (!r.ok) {
      if (p.failurePolicy === 'Fail') out.auditErrors.push(`expression '${a.expression.trim()}' resulted in error: ${r.error}`);
      continue;
    }
    // a string is published trimmed, an empty one and null are left out
    if (typeof r.json === 'string' && r.json.trim()) out.audits.push({ key: a.key, value: r.json.trim() });
  }
  return out;
}
