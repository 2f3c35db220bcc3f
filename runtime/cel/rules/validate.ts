// Evaluates the compiled x-kubernetes-validations rules of a schema against
// an object (and, on update, the old object), as kube-apiserver validates
// custom resources: rules run at every present, non-null value; transition
// rules (those reading oldSelf) only where an old value correlates (object
// properties and map keys by name, list-map items by their keys, set items
// by value, atomic lists never) unless optionalOldSelf; a value unchanged
// from its correlated old value skips its other rules (validation
// ratcheting). Failures become field errors in upstream's words, and all
// rules of one object share one runtime cost budget.
// Boundary: evaluation; compilation is in compile-schema.ts.
import type { RuleNode, CompiledRule } from './compile-schema.ts';
import { joinPath } from './field-path.ts';
import { fieldErrors, FieldError } from '../../api/field-errors.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import { PER_CALL_RUNTIME_LIMIT, RUNTIME_BUDGET_PER_OBJECT, RUNTIME_BUDGET_EXCEEDED, PER_CALL_EXCEEDED } from '../limits.ts';

export interface ValidateOptions {
  /** Runtime cost allowed for all rules of this object (default 10,000,000). */
  budget?: number;
  /** Runtime cost allowed for one rule (default 1,000,000). */
  perCallLimit?: number;
}

const MESSAGE_EXPRESSION_MAX_LENGTH = 5000;

class OutOfBudget extends Error {}

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

function childPath(base: string, seg: string | number, key: boolean): string {
  if (typeof seg === 'number' || key) return `${base}[${seg}]`;
  return base ? `${base}.${seg}` : seg;
}

function ruleText(r: CompiledRule): string {
  const m = typeof r.rule.message === 'string' ? r.rule.message.trim() : '';
  return m || (r.rule.rule ?? '').trim();
}
function messageOrDefault(r: CompiledRule): string {
  const m = typeof r.rule.message === 'string' ? r.rule.message.trim() : '';
  return m || `failed rule: ${ruleText(r)}`;
}

function errorForReason(field: string, type: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldErrors.forbidden(field, detail);
    case 'FieldValueRequired':
      return fieldErrors.required(field, detail);
    case 'FieldValueDuplicate':
      return fieldErrors.duplicate(field, type);
    default:
      return fieldErrors.invalid(field, type, detail);
  }
}

export class RuleEvaluator {
  private remaining: number;
  private readonly perCall: number;
  readonly errors: FieldError[] = [];

  constructor(opts: ValidateOptions = {}) {
    this.remaining = opts.budget ?? RUNTIME_BUDGET_PER_OBJECT;
    this.perCall = opts.perCallLimit ?? PER_CALL_RUNTIME_LIMIT;
  }

  run(root: RuleNode, obj: Json, old: Json | undefined, hasOld: boolean): FieldError[] {
    try {
      this.node(root, obj, old, hasOld, '');
    } catch (e) {
      if (!(e instanceof OutOfBudget)) throw e;
    }
    return this.errors;
  }

  private node(n: RuleNode, v: Json, old: Json | undefined, hasOld: boolean, path: string): void {
    if (v === undefined || v === null) return;
    const unchanged = hasOld && jsonEqual(v, old);
    for (const r of n.rules) this.rule(n, r, v, old, hasOld, unchanged, path);
    if (isObject(v)) {
      const oldObj = hasOld && isObject(old) ? old : undefined;
      for (const [k, cv] of Object.entries(v)) {
        const child = n.properties?.get(k) ?? (n.properties?.has(k) ? undefined : n.additionalProperties);
        if (!child) continue;
        const isKey = !n.properties?.has(k);
        const hasChildOld = oldObj !== undefined && Object.hasOwn(oldObj, k);
        this.node(child, cv, hasChildOld ? oldObj[k] : undefined, hasChildOld, childPath(path, k, isKey));
      }
    } else if (Array.isArray(v) && n.items) {
      const lt = n.schema['x-kubernetes-list-type'];
      const keys = n.schema['x-kubernetes-list-map-keys'] ?? [];
      const oldList = hasOld && Array.isArray(old) ? old : undefined;
      v.forEach((item, i) => {
        let corr: { found: boolean; value?: Json } = { found: false };
        if (oldList && lt === 'map' && isObject(item)) {
          const match = oldList.find((o) => isObject(o) && keys.every((key) => jsonEqual(o[key], item[key])));
          if (match !== undefined) corr = { found: true, value: match };
        } else if (oldList && lt === 'set') {
          const match = oldList.find((o) => jsonEqual(o, item));
          if (match !== undefined) corr = { found: true, value: match };
        }
        this.node(n.items!, item, corr.value, corr.found, childPath(path, i, true));
      });
    }
  }

  private eval(p: { evaluate: CompiledRule['program']['evaluate'] }, activation: Record<string, unknown>) {
    const r = p.evaluate(activation, { budget: Math.min(this.perCall, Math.max(this.remaining, 0) + 1) });
    this.remaining -= r.cost;
    return r;
  }

  private rule(n: RuleNode, r: CompiledRule, v: Json, old: Json | undefined, hasOld: boolean, unchanged: boolean, path: string): void {
    if (r.transition && !hasOld && !r.rule.optionalOldSelf) return;
    if (!r.transition && unchanged) return;
    const activation: Record<string, unknown> = { self: v };
    if (r.transition) activation.oldSelf = hasOld ? old : undefined;
    const field = joinPath(path, r.fieldPath) || '<nil>';
    const type = n.type;
    const res = this.eval(r.program, activation);
    if (!res.ok) {
      if (res.costExceeded && this.remaining >= 0) {
        this.errors.push(fieldErrors.invalid(field, type, `'${PER_CALL_EXCEEDED}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText(r)}`));
        throw new OutOfBudget();
      }
      if (res.costExceeded || this.remaining < 0) {
        this.errors.push(fieldErrors.invalid(field, type, RUNTIME_BUDGET_EXCEEDED));
        throw new OutOfBudget();
      }
      if (res.error.startsWith('no such overload') || res.error.startsWith('no matching overload')) {
        this.errors.push(fieldErrors.invalid(field, type, `'${res.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(r)}`));
      } else {
        this.errors.push(fieldErrors.invalid(field, type, `${res.error} evaluating rule: ${ruleText(r)}`));
      }
      return;
    }
    if (this.remaining < 0) {
      this.errors.push(fieldErrors.invalid(field, type, RUNTIME_BUDGET_EXCEEDED));
      throw new OutOfBudget();
    }
    if (res.value === true) return;
    let detail = messageOrDefault(r);
    if (r.messageProgram) {
      const m = this.eval(r.messageProgram, { self: v, oldSelf: hasOld ? old : undefined });
      if (!m.ok && (m.costExceeded || this.remaining < 0)) {
        this.errors.push(fieldErrors.invalid(field, type, 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'));
        throw new OutOfBudget();
      }
      if (m.ok && typeof m.json === 'string') {
        const text = m.json;
        if (text.trim() !== '' && text.length <= MESSAGE_EXPRESSION_MAX_LENGTH && !/[\r\n]/.test(text)) detail = text;
      }
    }
    this.errors.push(errorForReason(field, type, detail, r.rule.reason));
  }
}
