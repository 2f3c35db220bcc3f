// Compiles every x-kubernetes-validations rule of a structural schema at its
// node: `self` typed by the node, `oldSelf` for transition rules (optional
// with optionalOldSelf), messageExpression as a string expression, and the
// cost estimate multiplied by the node's cardinality (the product of the
// enclosing lists' and maps' maxItems / maxProperties, or the count a 3 MiB
// request can hold). Reports compile and cost errors with the field path
// into the schema, in upstream's words. Boundary: compilation; evaluation
// is in validate.ts.
import { compileRule, type Program } from '../compile.ts';
import type { JSONSchema } from '../schema/types.ts';
import { MAX_REQUEST_BYTES } from '../schema/types.ts';
import { PER_EXPRESSION_ESTIMATE_LIMIT, PER_CRD_ESTIMATE_LIMIT, factor } from '../limits.ts';
import { fieldErrors, type FieldError } from '../../api/field-errors.ts';
import { GoValue, goQuote } from '../../api/go-format.ts';
import { parseRuleFieldPath } from './field-path.ts';

export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface CompiledRule {
  index: number;
  rule: ValidationRule;
  program: Program;
  messageProgram?: Program;
  /** The rule reads oldSelf: it runs only on updates with a correlated old value (or optionalOldSelf). */
  transition: boolean;
  /** Path segments the rule's fieldPath appends to the node's path. */
  fieldPath: string[];
}

/** A schema node with its compiled rules and its children. */
export interface RuleNode {
  schema: JSONSchema;
  type: string;
  rules: CompiledRule[];
  properties?: Map<string, RuleNode>;
  additionalProperties?: RuleNode;
  items?: RuleNode;
}

export interface CompileSchemaOptions {
  /** Field path of the schema in the CRD, for errors (default `openAPIV3Schema`). */
  schemaPath?: string;
  /** The schema is the root of a resource: `self` also has apiVersion, kind and metadata.name/generateName. */
  resourceRoot?: boolean;
}

const SUPPORTED_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const NEWLINE = /[\n\r]+/;
/** How many of the most expensive rules are named when the schema's total is over the limit. */
const MOST_EXPENSIVE = 4;

export interface CompiledSchema {
  /** undefined when no node has rules. */
  root?: RuleNode;
  errors: FieldError[];
  /** Sum of every rule's estimate times its cardinality. */
  totalCost: number;
}

const MAX_DEPTH = 128;

function minSize(s: JSONSchema): number {
  switch (s.type) {
    case 'string':
      return 2;
    case 'boolean':
      return 4;
    default:
      return 1;
  }
}

/** How many values of `elem` a list or map can hold: its declared maximum or what a 3 MiB request can carry. */
function count(declared: number | undefined, elem: JSONSchema | undefined, overhead: number): number {
  if (declared !== undefined) return declared;
  return Math.floor((MAX_REQUEST_BYTES - 2) / ((elem ? minSize(elem) : 1) + overhead));
}

function goRule(r: ValidationRule): GoValue {
  const reason = r.reason === undefined ? '(*apiextensions.FieldValueErrorReason)(nil)' : `(*apiextensions.FieldValueErrorReason)(${goQuote(r.reason)})`;
  const oos = r.optionalOldSelf === undefined ? '(*bool)(nil)' : `(*bool)(${r.optionalOldSelf})`;
  return new GoValue(
    `apiextensions.ValidationRule{Rule:${goQuote(r.rule ?? '')}, Message:${goQuote(r.message ?? '')}, MessageExpression:${goQuote(r.messageExpression ?? '')}, Reason:${reason}, FieldPath:${goQuote(r.fieldPath ?? '')}, OptionalOldSelf:${oos}}`,
  );
}

/** Whether the expression names `oldSelf` outside string literals. */
export function usesOldSelf(expr: string): boolean {
  const stripped = expr.replace(/'''[\s\S]*?'''|"""[\s\S]*?"""|'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g, '""');
  return /(^|[^\w.])oldSelf\b/.test(stripped);
}

function costMessage(what: string, cost: number, limit: number): string {
  return `${what} exceeds budget by factor of ${factor(cost, limit)} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** The schema CEL sees at a resource root: apiVersion, kind and metadata (name and generateName only). */
function rootView(s: JSONSchema): JSONSchema {
  const props = { ...(s.properties ?? {}) };
  props.apiVersion = { type: 'string' };
  props.kind = { type: 'string' };
  props.metadata = { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } };
  return { ...s, properties: props };
}

export function compileSchemaRules(schema: JSONSchema, opts: CompileSchemaOptions = {}): CompiledSchema {
  const errors: FieldError[] = [];
  let totalCost = 0;
  const base = opts.schemaPath ?? 'openAPIV3Schema';

  const costs: { path: string; cost: number }[] = [];
  const observe = (path: string, cost: number) => {
    totalCost += cost;
    costs.push({ path, cost });
  };

  const walk = (s: JSONSchema, path: string, cardinality: number, depth: number, root: boolean, uncorrelatable: string | undefined): RuleNode | undefined => {
    if (depth > MAX_DEPTH || !s || typeof s !== 'object') return undefined;
    const node: RuleNode = { schema: s, type: typeof s.type === 'string' ? s.type : '', rules: [] };
    let any = false;
    const xv = s['x-kubernetes-validations'];
    if (Array.isArray(xv) && xv.length > 0 && ruleFieldsValid(xv as ValidationRule[], s, path)) {
      const view = root ? rootView(s) : s;
      xv.forEach((raw, i) => {
        const r = (raw ?? {}) as ValidationRule;
        const rulePath = `${path}.x-kubernetes-validations[${i}]`;
        const compiled = compileOne(r, i, view, cardinality, rulePath, uncorrelatable);
        if (compiled) {
          node.rules.push(compiled);
          any = true;
        }
      });
    }
    if (s.properties && typeof s.properties === 'object') {
      for (const [name, ps] of Object.entries(s.properties)) {
        if (root && name === 'metadata') continue;
        const mapType = s['x-kubernetes-map-type'];
        const corr = uncorrelatable ?? (mapType === undefined || mapType === 'granular' ? undefined : path);
        const child = walk(ps, `${path}.properties[${name}]`, cardinality, depth + 1, false, corr);
        if (child) {
          node.properties ??= new Map();
          node.properties.set(name, child);
          any = true;
        }
      }
    }
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      const ap = s.additionalProperties;
      const child = walk(ap, `${path}.additionalProperties`, cardinality * count(s.maxProperties, ap, 4), depth + 1, false, uncorrelatable);
      if (child) {
        node.additionalProperties = child;
        any = true;
      }
    }
    if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) {
      const corr = uncorrelatable ?? (s['x-kubernetes-list-type'] === 'map' ? undefined : path);
      const child = walk(s.items, `${path}.items`, cardinality * count(s.maxItems, s.items, 1), depth + 1, false, corr);
      if (child) {
        node.items = child;
        any = true;
      }
    }
    return any ? node : undefined;
  };

  /** The checks of the rules' fields that come before compiling (upstream's schema errors of the node). */
  const ruleFieldsValid = (rules: ValidationRule[], s: JSONSchema, path: string): boolean => {
    const before = errors.length;
    rules.forEach((raw, i) => {
      const r = (raw ?? {}) as ValidationRule;
      const p = `${path}.x-kubernetes-validations[${i}]`;
      const rule = typeof r.rule === 'string' ? r.rule.trim() : '';
      const msg = typeof r.message === 'string' ? r.message : '';
      if (rule === '') errors.push(fieldErrors.required(`${p}.rule`, 'rule is not specified'));
      else if (msg.length > 0 && msg.trim() === '') errors.push(fieldErrors.invalid(`${p}.message`, msg, 'message must be non-empty if specified'));
      else if (NEWLINE.test(msg.trim())) errors.push(fieldErrors.invalid(`${p}.message`, msg, 'message must not contain line breaks'));
      else if (NEWLINE.test(rule) && msg.trim() === '') errors.push(fieldErrors.required(`${p}.message`, 'message must be specified if rule contains line breaks'));
      if (typeof r.messageExpression === 'string' && r.messageExpression.length > 0 && r.messageExpression.trim() === '') {
        errors.push(fieldErrors.required(`${p}.messageExpression`, 'messageExpression must be non-empty if specified'));
      }
      if (r.reason !== undefined && !SUPPORTED_REASONS.includes(r.reason)) errors.push(fieldErrors.notSupported(`${p}.reason`, r.reason, SUPPORTED_REASONS));
      const fp = typeof r.fieldPath === 'string' ? r.fieldPath : '';
      if (fp.length > 0 && fp.trim() === '') errors.push(fieldErrors.invalid(`${p}.fieldPath`, fp, 'fieldPath must be non-empty if specified'));
      if (NEWLINE.test(fp)) errors.push(fieldErrors.invalid(`${p}.fieldPath`, fp, 'fieldPath must not contain line breaks'));
      if (fp.length > 0 && typeof parseRuleFieldPath(fp, s) === 'string') errors.push(fieldErrors.invalid(`${p}.fieldPath`, fp, 'fieldPath must be a valid path'));
    });
    return errors.length === before;
  };

  const compileOne = (r: ValidationRule, index: number, s: JSONSchema, cardinality: number, rulePath: string, uncorrelatable: string | undefined): CompiledRule | undefined => {
    const ruleField = `${rulePath}.rule`;
    const rule = typeof r.rule === 'string' ? r.rule : '';
    const transition = usesOldSelf(rule);
    if (transition && uncorrelatable !== undefined) {
      errors.push(fieldErrors.invalid(ruleField, rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
    } else if (!transition && r.optionalOldSelf !== undefined) {
      errors.push(fieldErrors.invalid(`${rulePath}.optionalOldSelf`, r.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
    const vars = transition && r.optionalOldSelf ? { self: s, oldSelf: { optionalOf: s } } : { self: s, oldSelf: s };
    const c = compileRule(rule, { vars, resultType: 'bool', costLimit: Infinity });
    let ok = true;
    if (!c.ok) {
      for (const e of c.errors) {
        const detail = /cel expression must evaluate to a bool/.test(e.message) ? 'cel expression must evaluate to a bool' : e.message;
        errors.push(fieldErrors.invalid(ruleField, goRule(r), detail));
      }
      ok = false;
    } else {
      const cost = c.costEstimate * cardinality;
      observe(ruleField, cost);
      if (cost > PER_EXPRESSION_ESTIMATE_LIMIT) {
        errors.push(fieldErrors.forbidden(ruleField, costMessage('estimated rule cost', cost, PER_EXPRESSION_ESTIMATE_LIMIT)));
        ok = false;
      }
    }
    let messageProgram: Program | undefined;
    if (typeof r.messageExpression === 'string' && r.messageExpression.trim() !== '') {
      const mc = compileRule(r.messageExpression, { vars: { self: s, oldSelf: s }, resultType: 'string', costLimit: Infinity });
      const mField = `${rulePath}.messageExpression`;
      if (!mc.ok) {
        for (const e of mc.errors) {
          const detail = /must evaluate to a string/.test(e.message) ? 'messageExpression must evaluate to a string' : `messageExpression ${e.message}`;
          errors.push(fieldErrors.invalid(mField, goRule(r), detail));
        }
        ok = false;
      } else {
        const cost = mc.costEstimate * cardinality;
        observe(mField, cost);
        if (cost > PER_EXPRESSION_ESTIMATE_LIMIT) {
          errors.push(fieldErrors.forbidden(mField, costMessage('estimated messageExpression cost', cost, PER_EXPRESSION_ESTIMATE_LIMIT)));
          ok = false;
        }
        messageProgram = mc.program;
      }
    }
    let fieldPath: string[] = [];
    if (typeof r.fieldPath === 'string' && r.fieldPath !== '') {
      const fp = parseRuleFieldPath(r.fieldPath, s);
      if (typeof fp !== 'string') fieldPath = fp;
    }
    if (!ok || !c.ok) return undefined;
    return { index, rule: r, program: c.program, messageProgram, transition, fieldPath };
  };

  const root = walk(schema, base, 1, 0, opts.resourceRoot ?? false, undefined);
  if (totalCost > PER_CRD_ESTIMATE_LIMIT) {
    for (const c of [...costs].sort((a, b) => b.cost - a.cost).slice(0, MOST_EXPENSIVE)) {
      errors.push(fieldErrors.forbidden(c.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    }
    errors.push(fieldErrors.forbidden(base, costMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', totalCost, PER_CRD_ESTIMATE_LIMIT)));
  }
  return { root, errors, totalCost };
}
