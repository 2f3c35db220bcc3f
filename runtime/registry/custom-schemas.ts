// The schemas of the CustomResourceDefinitions served at run time, beside
// the generated ones: each served version's validator and merge-schema type
// under its tagged schema name (runtime/schema/compile.ts). The validator
// look-up of the write services asks here first; the merge types go into
// the server's merge schema, where the field manager finds them, and leave
// it when the version stops being served; the structural defaulting of each
// version (applied to request bodies and to reads from storage), its
// structural pruning (applied to reads from storage), its embedded
// resources (coerced in request bodies, validated by the strategy) and the published
// schemas (for the OpenAPI documents) are kept beside them.

import type { MergeSchema, ResourceDef, SchemaValidator } from '../../generated/api-types.ts';
import type { CompiledCrdVersion } from '../schema/compile.ts';
import type { CrdNamedSchema } from '../schema/crd.ts';
import { compileEmbeddedResources, type EmbeddedResources } from '../schema/embedded-resources.ts';
import { compileStructuralDefaults, type StructuralDefaults } from '../schema/structural-defaults.ts';
import { compileStructuralPruning, type StructuralPruning } from '../schema/structural-pruning.ts';
import type { OpenAPISchema } from '../schema/util.ts';
import { Defaulter } from './defaults.ts';
import { sharedFieldManagers } from './managed-fields.ts';
import type { CustomResourceRules, CustomResourceState } from './strategies/custom-resource.ts';

/**
 * Compiles the x-kubernetes-validations rules of a version's schema (its
 * openAPIV3Schema with apiVersion, kind and metadata): the CEL evaluator of
 * custom resources plugs in here. Undefined: no rules are run.
 */
export type CompileCustomResourceRules = (schema: OpenAPISchema) => CustomResourceRules | undefined;

/** A served custom resource version as the OpenAPI documents describe it: schema is the published kind name. */
export interface PublishedResource {
  def: ResourceDef;
  schemas: CrdNamedSchema[];
}

export class CustomSchemas implements CustomResourceState {
  private readonly validators = new Map<string, SchemaValidator>();
  private readonly published = new Map<string, CrdNamedSchema[]>();
  private readonly compiledRules = new Map<string, CustomResourceRules>();
  private readonly structural = new Map<string, StructuralDefaults>();
  private readonly prunings = new Map<string, StructuralPruning>();
  private readonly embeddedResources = new Map<string, EmbeddedResources>();
  private readonly terminatingResources = new Set<string>();
  /** Schema name by `group/resource/apiVersion`, and the key of each schema name. */
  private readonly byVersion = new Map<string, string>();
  private readonly versionOf = new Map<string, string>();

  constructor(
    private readonly mergeSchema: MergeSchema,
    private readonly compileRules?: CompileCustomResourceRules,
    /** Loads what compileRules needs (the CEL evaluator), awaited by prepare(). */
    private readonly loadRules?: () => Promise<void>,
  ) {}

  /** Makes add() ready for versions whose schemas have rules (loads the rule evaluator once). */
  async prepare(hasRules: boolean): Promise<void> {
    if (hasRules) await this.loadRules?.();
  }

  rules(schema: string): CustomResourceRules | undefined {
    return this.compiledRules.get(schema);
  }

  schemaOf(group: string, resource: string, apiVersion: string): string | undefined {
    return this.byVersion.get(`${group}/${resource}/${apiVersion}`);
  }

  versionsOf(group: string, resource: string): string[] {
    const prefix = `${group}/${resource}/`;
    return [...this.byVersion.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  }

  terminating(group: string, resource: string): boolean {
    return this.terminatingResources.has(`${group}/${resource}`);
  }

  /** Marks a served resource's CRD as terminating (creates refused) or not. */
  setTerminating(group: string, resource: string, on: boolean): void {
    if (on) this.terminatingResources.add(`${group}/${resource}`);
    else this.terminatingResources.delete(`${group}/${resource}`);
  }

  /** The structural defaulting of a served custom resource version, by its tagged schema name. */
  defaults(schema: string): StructuralDefaults | undefined {
    return this.structural.get(schema);
  }

  /** The structural pruning of a served custom resource version, by its tagged schema name. */
  pruning(schema: string): StructuralPruning | undefined {
    return this.prunings.get(schema);
  }

  /** The embedded resources of a served custom resource version (undefined: its schema has none). */
  embedded(schema: string): EmbeddedResources | undefined {
    return this.embeddedResources.get(schema);
  }

  /** The validator of a served custom resource version, by its tagged schema name. */
  validator(schema: string): SchemaValidator | undefined {
    return this.validators.get(schema);
  }

  add(versions: CompiledCrdVersion[]): void {
    for (const v of versions) {
      this.validators.set(v.def.schema, v.validator);
      this.published.set(v.def.schema, v.schemas);
      this.structural.set(v.def.schema, compileStructuralDefaults(v.schemas[0].schema));
      this.prunings.set(v.def.schema, compileStructuralPruning(v.schemas[0].schema));
      const embedded = compileEmbeddedResources(v.schemas[0].schema);
      if (embedded) this.embeddedResources.set(v.def.schema, embedded);
      const rules = this.compileRules?.(v.schemas[0].schema);
      if (rules) this.compiledRules.set(v.def.schema, rules);
      this.mergeSchema.types[v.def.schema] = v.mergeType;
      const key = `${v.def.group}/${v.def.resource}/${v.def.group ? `${v.def.group}/` : ''}${v.def.version}`;
      this.byVersion.set(key, v.def.schema);
      this.versionOf.set(v.def.schema, key);
    }
  }

  /**
   * Forgets the schemas of versions no longer served (a tagged name is never
   * reused), and what the defaulter and the field manager worked out for them.
   */
  remove(schemas: string[]): void {
    for (const s of schemas) {
      this.validators.delete(s);
      this.published.delete(s);
      this.compiledRules.delete(s);
      this.structural.delete(s);
      this.prunings.delete(s);
      this.embeddedResources.delete(s);
      delete this.mergeSchema.types[s];
      const key = this.versionOf.get(s);
      this.versionOf.delete(s);
      if (key !== undefined && this.byVersion.get(key) === s) this.byVersion.delete(key);
    }
    Defaulter.forget(this.mergeSchema, schemas);
    sharedFieldManagers.forget(this.mergeSchema, schemas);
  }

  /** The given served defs that are custom resources served while running, with their published schemas. */
  publishedOf(defs: readonly ResourceDef[]): PublishedResource[] {
    const out: PublishedResource[] = [];
    for (const def of defs) {
      const schemas = this.published.get(def.schema);
      if (schemas) out.push({ def: { ...def, schema: schemas[0].name }, schemas });
    }
    return out;
  }
}
