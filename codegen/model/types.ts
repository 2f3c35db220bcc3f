// Plain types of the codegen model: what codegen/load builds from api-specs/
// and every emitter in codegen/emit reads. Data only, no behaviour; the
// registry entries reuse the runtime contract (templates/api-types.ts).
import type { ResourceDef, Stability } from '../templates/api-types.ts';

import type { OpenAPISchema } from '../../runtime/schema/util.ts';

export type { OpenAPISchema };

/** A named schema in the shared namespace of names. */
export interface NamedSchema {
  name: string;
  schema: OpenAPISchema;
  /** Spec file (relative to the specs dir) that first defined it. */
  file: string;
  /** JSON path of the schema in that file. */
  jsonPath: string;
  /** From a CRD manifest: unstructured by default. */
  custom: boolean;
}

export interface GroupVersion {
  group: string;
  version: string;
  file: string;
  stability: Stability;
  enabledByDefault: boolean;
  /** Explicit `preferred` from the document, when given. */
  preferred?: boolean;
  introduced?: string;
  deprecatedIn?: string;
  removedIn?: string;
  /** The group-version replacing this one, for its deprecation warning (the same kind there). */
  replacement?: { group: string; version: string };
  custom: boolean;
}

/** A resource as loaded, before group-wide facts (preferred/storage version) are settled. */
export interface LoadedResource extends ResourceDef {
  file: string;
  jsonPath: string;
  /** Explicit storage flag (CRD `storage: true`), when the spec states one. */
  storageExplicit?: boolean;
}

export interface Model {
  /** Every named schema, by name. */
  schemas: Map<string, NamedSchema>;
  groupVersions: GroupVersion[];
  /** Sorted by group, version, resource. */
  resources: LoadedResource[];
  /** What the loader set aside and why (ignored fields of copies of shared types), for the codegen log. */
  notes?: string[];
}
