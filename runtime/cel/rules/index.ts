// The x-kubernetes-validations evaluator for custom resources, as the
// custom-resource strategy uses it: compile a version's structural schema
// once (errors with the field path into the schema, for CRD validation),
// then validate (obj, oldObj) into field errors within the per-object
// runtime cost budget. Compiled schemas are cached by schema object.
import type { JSONSchema } from '../schema/types.ts';
import type { FieldError } from '../../api/field-errors.ts';
import { compileSchemaRules, type CompileSchemaOptions, type CompiledSchema } from './compile-schema.ts';
import { RuleEvaluator, type ValidateOptions } from './validate.ts';

export { usesOldSelf } from './compile-schema.ts';
export type { ValidateOptions } from './validate.ts';

export interface RuleValidator {
  /** Compile and cost errors of the schema's rules (empty when all compiled). */
  readonly compileErrors: FieldError[];
  /** Sum of the rules' estimated costs times their cardinality. */
  readonly totalCost: number;
  /** Whether any node of the schema has a rule. */
  readonly hasRules: boolean;
  /** Field errors of `obj` (on update with `oldObj`); empty when every rule holds. */
  validate(obj: unknown, oldObj?: unknown, opts?: ValidateOptions): FieldError[];
}

const cache = new WeakMap<object, Map<string, RuleValidator>>();

export function ruleValidator(schema: JSONSchema, opts: CompileSchemaOptions = { resourceRoot: true }): RuleValidator {
  const key = `${opts.schemaPath ?? ''}|${opts.resourceRoot ?? false}`;
  let byOpts = cache.get(schema);
  const hit = byOpts?.get(key);
  if (hit) return hit;
  const compiled: CompiledSchema = compileSchemaRules(schema, opts);
  const v: RuleValidator = {
    compileErrors: compiled.errors,
    totalCost: compiled.totalCost,
    hasRules: compiled.root !== undefined,
    validate(obj, oldObj, vopts) {
      if (!compiled.root) return [];
      return new RuleEvaluator(vopts).run(compiled.root, obj, oldObj, oldObj !== undefined);
    },
  };
  if (!byOpts) cache.set(schema, (byOpts = new Map()));
  byOpts.set(key, v);
  return v;
}
