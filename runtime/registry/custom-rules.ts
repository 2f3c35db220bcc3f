// The x-kubernetes-validations rules of custom resources served at run
// time: the CEL evaluator (runtime/cel/rules) bound to the custom-resource
// strategy's call site. The CEL package is large, so it is loaded only when
// a served CRD has rules (CustomSchemas.prepare awaits load()).

import type { JSONSchema } from '../cel/schema/types.ts';
import type { CompileCustomResourceRules } from './custom-schemas.ts';

let rules: typeof import('../cel/rules/index.ts') | undefined;

/** Loads the evaluator; compile() needs it. */
export async function loadCustomResourceRules(): Promise<void> {
  rules ??= await import('../cel/rules/index.ts');
}

/** A version schema's rules as the strategy runs them: on create (no old object) and on update (transition rules see the old one). */
export const compileCustomResourceRules: CompileCustomResourceRules = (schema) => {
  if (!JSON.stringify(schema).includes('"x-kubernetes-validations"')) return undefined;
  if (!rules) throw new Error('the CEL rule evaluator is not loaded (await loadCustomResourceRules() first)');
  const validator = rules.ruleValidator(schema as JSONSchema, { resourceRoot: true });
  if (!validator.hasRules) return undefined;
  return (obj, old) => validator.validate(obj, old ?? undefined);
};
