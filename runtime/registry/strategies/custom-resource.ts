// The rules of custom resources (objects of a CustomResourceDefinition)
// beyond the default strategy and the schema check: no create while the CRD
// is terminating (upstream's CR handler answers 405), the embedded resources'
// apiVersion, kind and metadata (registry/embedded-resources.ts), and the CRD's
// x-kubernetes-validations rules, run on create and update through
// CustomResourceRules (the compiled rules of the served version; see
// registry/custom-schemas.ts, where the CEL evaluator is plugged in).

import type { ResourceDef } from '../../../generated/api-types.ts';
import { errors } from '../../api/errors.ts';
import type { FieldError } from '../../api/field-errors.ts';
import type { EmbeddedResources } from '../../schema/embedded-resources.ts';
import type { StructuralDefaults } from '../../schema/structural-defaults.ts';
import type { StructuralPruning } from '../../schema/structural-pruning.ts';
import type { Obj } from '../../storage/interface.ts';
import { validateEmbeddedResources } from '../embedded-resources.ts';
import type { Strategy, SubresourceStrategy } from '../strategy.ts';

/** The x-kubernetes-validations rules of one served version: field errors of an object (and its old version on update). */
export type CustomResourceRules = (obj: Obj, old: Obj | null) => FieldError[];

/** What the strategy asks about its CRD while serving. */
export interface CustomResourceState {
  /** The CRD's Terminating condition is True. */
  terminating(group: string, resource: string): boolean;
  /** The rules of the version a schema name belongs to, if any are compiled. */
  rules(schema: string): CustomResourceRules | undefined;
  /** The schema name of a served version of the resource (an object is checked by the rules of its own version). */
  schemaOf?(group: string, resource: string, apiVersion: string): string | undefined;
  /** The apiVersions served for the resource. */
  versionsOf?(group: string, resource: string): string[];
  /** The structural defaulting of the version a schema name belongs to (applied to reads from storage). */
  defaults?(schema: string): StructuralDefaults | undefined;
  /** The structural pruning of the version a schema name belongs to (applied to reads from storage). */
  pruning?(schema: string): StructuralPruning | undefined;
  /** The embedded resources of the version a schema name belongs to (undefined: none). */
  embedded?(schema: string): EmbeddedResources | undefined;
}

export function customResourceStrategy(def: ResourceDef, base: Strategy, state: CustomResourceState): Strategy {
  const schemaOf = (obj: Obj) => (typeof obj.apiVersion === 'string' ? state.schemaOf?.(def.group, def.resource, obj.apiVersion) : undefined) ?? def.schema;
  const rules = (obj: Obj, old: Obj | null) => state.rules(schemaOf(obj))?.(obj, old) ?? [];
  const embedded = (obj: Obj) => {
    const e = state.embedded?.(schemaOf(obj));
    return e ? validateEmbeddedResources(e, obj) : [];
  };
  // the store validates an update with validate() and validateUpdate(): the rules run once, with the old object
  const updating = new WeakSet<Obj>();
  const status = base.subresources?.status;
  const withRules = (sub: SubresourceStrategy): SubresourceStrategy => ({
    ...sub,
    validateUpdate: (obj, old) => [...sub.validateUpdate(obj, old), ...embedded(obj), ...rules(obj, old)],
  });
  return {
    ...base,
    prepareForCreate(obj) {
      if (state.terminating(def.group, def.resource)) {
        throw errors.methodNotSupported({ group: def.group, resource: def.resource }, 'create not allowed while custom resource definition is terminating');
      }
      base.prepareForCreate(obj);
    },
    prepareForUpdate(obj, old) {
      updating.add(obj);
      base.prepareForUpdate(obj, old);
    },
    validate(obj) {
      return updating.has(obj) ? base.validate(obj) : [...base.validate(obj), ...embedded(obj), ...rules(obj, null)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...embedded(obj), ...rules(obj, old)];
    },
    ...(status ? { subresources: { ...base.subresources, status: withRules(status) } } : {}),
  };
}
