// Defaulting from the spec: fields declared with a `default` in api-specs
// (carried by codegen into the merge schema) are set when absent, at any
// depth. Which types can hold a default anywhere below them is worked out once
// per type (and per merge schema for the whole process), so writes walk only
// those subtrees. The served versions of CustomResourceDefinitions are
// defaulted structurally instead (schema/structural-defaults.ts: nulls and
// nullable as the apiextensions server treats them), looked up by schema name.

import type { Atom, JSONValue, MergeSchema, TypeRef } from '../../generated/api-types.ts';
import type { StructuralDefaults } from '../schema/structural-defaults.ts';

type Plan = (v: unknown) => void;

/** Plans by merge schema, shared by every Defaulter of the process (servers started one after another). */
const plansBySchema = new WeakMap<MergeSchema, Map<string, Plan | null>>();

export class Defaulter {
  /**
   * Forgets the plans of types that left the merge schema (a custom resource
   * version's previous schema): a tagged name is never used again, so its plan
   * would only be kept alive.
   */
  static forget(schema: MergeSchema, names: readonly string[]): void {
    const plans = plansBySchema.get(schema);
    if (plans) for (const n of names) plans.delete(n);
  }

  /** The type names with a plan worked out for this merge schema. */
  static plannedTypes(schema: MergeSchema): string[] {
    return [...(plansBySchema.get(schema)?.keys() ?? [])];
  }

  private readonly plans: Map<string, Plan | null>;
  private readonly inProgress = new Set<string>();

  constructor(
    private readonly schema: MergeSchema,
    /** The structural defaulting of a custom resource version's schema, by its schema name (undefined: not one). */
    readonly structural: (schema: string) => StructuralDefaults | undefined = () => undefined,
  ) {
    let plans = plansBySchema.get(schema);
    if (!plans) plansBySchema.set(schema, (plans = new Map()));
    this.plans = plans;
  }

  /** Applies defaults to obj (of the named type) in place. */
  apply(typeName: string, obj: unknown): void {
    const structural = this.structural(typeName);
    if (structural) {
      if (obj !== null && typeof obj === 'object' && !Array.isArray(obj)) structural.apply(obj as Record<string, unknown>);
      return;
    }
    this.planFor(typeName)?.(obj);
  }

  private planFor(name: string): Plan | null {
    if (this.plans.has(name)) return this.plans.get(name)!;
    if (this.inProgress.has(name)) {
      // recursive type: resolve lazily through the cache
      return (v) => this.plans.get(name)?.(v);
    }
    this.inProgress.add(name);
    const atom = this.schema.types[name];
    const plan = atom ? this.planAtom(atom) : null;
    this.inProgress.delete(name);
    this.plans.set(name, plan);
    return plan;
  }

  private planRef(ref: TypeRef): Plan | null {
    if (ref.named) return this.planFor(ref.named);
    if (ref.inline) return this.planAtom(ref.inline);
    return null;
  }

  private planAtom(atom: Atom): Plan | null {
    if (atom.map) {
      const steps: { name: string; def?: JSONValue; sub: Plan | null }[] = [];
      for (const f of atom.map.fields ?? []) {
        const sub = this.planRef(f.type);
        if (f.default !== undefined || sub) steps.push({ name: f.name, def: f.default, sub });
      }
      const elem = atom.map.elementType ? this.planRef(atom.map.elementType) : null;
      if (!steps.length && !elem) return null;
      const known = new Set((atom.map.fields ?? []).map((f) => f.name));
      return (v) => {
        if (v === null || typeof v !== 'object' || Array.isArray(v)) return;
        const o = v as Record<string, unknown>;
        for (const s of steps) {
          if (o[s.name] === undefined) {
            if (s.def !== undefined) o[s.name] = structuredClone(s.def);
            else continue;
          }
          s.sub?.(o[s.name]);
        }
        if (elem) for (const k of Object.keys(o)) if (!known.has(k)) elem(o[k]);
      };
    }
    if (atom.list) {
      const elem = this.planRef(atom.list.elementType);
      if (!elem) return null;
      return (v) => {
        if (Array.isArray(v)) for (const x of v) elem(x);
      };
    }
    return null;
  }
}
