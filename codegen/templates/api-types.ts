// Types of the data that codegen emits into generated/ and the runtime reads.
// This file is the contract between codegen and runtime: codegen copies it
// verbatim to generated/api-types.ts, and every generated module types its
// exports with it. It imports nothing.

/** A JSON value as stored and served. */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [k: string]: JSONValue };

// ---------------------------------------------------------------------------
// Resource registry
// ---------------------------------------------------------------------------

export type Verb =
  | 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export type Stability = 'GA' | 'beta' | 'alpha';

/** A printer column, in the shape of a CRD's additionalPrinterColumns. */
export interface PrinterColumn {
  name: string;
  /** OpenAPI type of the cell: string, integer, number, boolean, date. */
  type: string;
  format?: string;
  description?: string;
  /** 0 shows in the default table; higher shows only with -o wide. */
  priority: number;
  /** A simple JSONPath (`.spec.type`, `.spec.ports[*].port`). */
  jsonPath: string;
  /**
   * Name of a runtime cell formatter for columns a JSONPath cannot express
   * (e.g. `servicePorts`, `externalIPs`, `age`); the runtime owns the table
   * of formatters. Omitted: the JSONPath value is printed.
   */
  formatter?: string;
}

export interface SubresourceDef {
  /** `status`, `scale`, `finalize`, `ephemeralcontainers`, `binding`, `proxy`, ... */
  name: string;
  /** Kind served at the subresource: the parent kind for status, `Scale` for scale. */
  kind: string;
  /** group/version of that kind when it differs from the parent's (Scale is autoscaling/v1). */
  group?: string;
  version?: string;
  verbs: Verb[];
  /** For `scale` of a custom resource: where the replica counts and selector live (CRD scale paths). */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
}

/** A deprecated version's life-cycle facts (upstream's APILifecycleDeprecated/Removed/Replacement; a CRD's deprecated version). */
export interface Deprecation {
  /** Release it was deprecated in (`1.29`). */
  deprecatedIn?: string;
  /** Release it is no longer served in (`1.32`). */
  removedIn?: string;
  /** The kind that replaces it. */
  replacement?: { group: string; version: string; kind: string };
  /** The whole warning text, when the spec states its own (a CRD version's deprecationWarning). */
  warning?: string;
}

/** A field path: property names from the object's root (`['spec', 'limited', 'nominalConcurrencyShares']`). */
export type FieldPath = string[];

/**
 * One step of a version's conversion to and from its hub version, applied
 * in order on the way to the hub and in reverse order on the way back:
 * - rename: the field at `from` in this version is the hub's field at `to`;
 * - annotation: a hub field this version lacks, kept in the annotation as
 *   JSON while the object is in this version (a list's items converted by
 *   `items`; with `goFieldNames` the keys spelled as Go's encoding/json
 *   writes a struct without json tags: first letter upper case); one that
 *   is not JSON fails the conversion, or with `dropMalformed` is dropped;
 *   `goType` (`[]v1.MetricSpec`) names the Go type upstream unmarshals it
 *   into: JSON of another shape (an object for a list, a string for an
 *   item) fails the conversion with Go's type error;
 * - zeroAnnotation: the hub field holds 0 (or its parent exists without it),
 *   which this version cannot tell from unset: the annotation (value '')
 *   marks it in this version and is dropped on the way to the hub;
 * - itemField: see ItemFieldRule.
 */
export type ConversionRule =
  | { op: 'rename'; from: FieldPath; to: FieldPath }
  | { op: 'annotation'; field: FieldPath; annotation: string; items?: ItemRule[]; goFieldNames?: boolean; dropMalformed?: boolean; goType?: string }
  | { op: 'zeroAnnotation'; field: FieldPath; annotation: string }
  | ItemFieldRule;

/**
 * A scalar of this version that mirrors one item of a hub list: the first
 * item of `list` containing `match` with a value at `value` (a path inside
 * the item) gives `field`; the item stays in the list unless it is exactly
 * `match` plus that value (then the field says all of it). On the way to the
 * hub the field becomes that item again, appended, unless the list already
 * holds a matching item.
 */
export interface ItemFieldRule {
  op: 'itemField';
  field: FieldPath;
  list: FieldPath;
  match: { [key: string]: JSONValue };
  value: FieldPath;
}

/**
 * One step inside each item of a hub list kept in an annotation (paths from
 * the item), in order on the way to the hub, in reverse on the way back:
 * - rename: the item's field at `from` in the annotation is the hub's `to`
 *   (a rename onto a field that is set moves nothing);
 * - derive: a hub field the annotation leaves out because the item's other
 *   fields say it: when `when` is present, the value of the first case whose
 *   `ifPresent` field is present, else `otherwise`; a hub value that differs
 *   from what would be derived is kept in the item as it is.
 */
export type ItemRule =
  | { op: 'rename'; from: FieldPath; to: FieldPath }
  | { op: 'derive'; field: FieldPath; when: FieldPath; cases: { ifPresent: FieldPath; value: JSONValue }[]; otherwise: JSONValue };

/**
 * A default of this version's Go defaulter that the schema cannot say: set
 * when the field's parent object exists and the field is absent (or 0 with
 * `zeroIsUnset`), unless the object carries `unlessAnnotation`.
 */
export interface VersionDefault {
  field: FieldPath;
  value: JSONValue;
  zeroIsUnset: boolean;
  unlessAnnotation?: string;
}

/** How objects of one version convert to and from the hub version of the group and kind (x-specserver-conversions). */
export interface VersionConversion {
  /** The version every conversion goes through (one with no conversion of its own). */
  hub: string;
  /**
   * The hub's group when it is not this version's own: the kind is then
   * stored with the hub group's resource of the same name, one set of
   * objects for both groups (events.k8s.io Events are core Events).
   */
  hubGroup?: string;
  rules: ConversionRule[];
  defaults: VersionDefault[];
  /**
   * Field-selector labels of this version that name another label at the
   * hub (`regarding.kind` → `involvedObject.kind`), derived by codegen from
   * the renames; a label not listed is the hub's own.
   */
  fieldLabels?: Record<string, string>;
}

export interface ResourceDef {
  group: string;                 // '' for core
  version: string;
  kind: string;
  listKind: string;
  resource: string;              // plural, lower case
  singular: string;
  namespaced: boolean;
  verbs: Verb[];
  shortNames: string[];
  categories: string[];
  subresources: SubresourceDef[];
  printerColumns: PrinterColumn[];
  /** Field paths usable in field selectors beyond metadata.name/namespace (e.g. `type` for Secret). */
  selectableFields: string[];
  /** PUT on a missing object creates it. */
  allowCreateOnUpdate: boolean;
  /** The version objects are stored in, among the group's versions of this resource. */
  storageVersion: boolean;
  /** The group's preferred version. */
  preferredVersion: boolean;
  stability: Stability;
  enabledByDefault: boolean;
  deprecation?: Deprecation;
  /** Name of the object's type in the merge schema, validators and OpenAPI documents. */
  schema: string;
  /** True for kinds that came from a CustomResourceDefinition manifest. */
  custom: boolean;
  /** Name rule for metadata.name: DNS-1123 subdomain (default), DNS-1123 label, or path segment. */
  nameRule: 'subdomain' | 'label' | 'path-segment';
  /** Kinds that are never stored: review objects answered in place (TokenReview, SubjectAccessReview ...). */
  virtual: boolean;
  /** How this version converts to and from its hub version; absent: only apiVersion differs. */
  conversion?: VersionConversion;
}

// ---------------------------------------------------------------------------
// Merge schema: the structured-merge-diff schema as plain data, with the
// strategic-merge-patch markers kept beside it.
// ---------------------------------------------------------------------------

export type Scalar = 'string' | 'numeric' | 'boolean' | 'untyped';

/**
 * How a map's fields or a list's elements relate:
 * - atomic: the whole value is one unit (one owner, replaced whole);
 * - separable (maps): each key is its own unit (granular);
 * - associative (lists): elements keyed by `keys` (list-type map) or, with no
 *   keys, by their scalar value (list-type set).
 */
export type ElementRelationship = 'atomic' | 'separable' | 'associative';

export interface TypeRef {
  /** A key of MergeSchema.types, or one of the reserved names below. */
  named?: string;
  inline?: Atom;
  /** Overrides the named type's relationship (x-kubernetes-map-type atomic on a field). */
  elementRelationship?: ElementRelationship;
}

export interface Atom {
  scalar?: Scalar;
  list?: ListDef;
  map?: MapDef;
}

export interface MapDef {
  /** Struct fields; absent for a plain string-keyed map. */
  fields?: FieldDef[];
  /** Type of values not named in fields (additionalProperties, or deduced). */
  elementType?: TypeRef;
  elementRelationship?: 'atomic' | 'separable';
}

export interface FieldDef {
  name: string;
  type: TypeRef;
  /** x-kubernetes-patch-strategy as written: merge, replace, retainKeys, or `merge,retainKeys`. */
  patchStrategy?: string;
  /** x-kubernetes-patch-merge-key */
  patchMergeKey?: string;
  /** Default value from the spec, when one is declared. */
  default?: JSONValue;
}

export interface ListDef {
  elementType: TypeRef;
  elementRelationship: 'atomic' | 'associative';
  /** Key fields of a list-type map; empty for a set. */
  keys?: string[];
}

/** Reserved type names, as structured-merge-diff has them. */
export const UNTYPED_ATOMIC = '__untyped_atomic_';
export const UNTYPED_DEDUCED = '__untyped_deduced_';

export interface MergeSchema {
  /** Named types by their OpenAPI schema name, e.g. `io.k8s.api.core.v1.Pod`. */
  types: Record<string, Atom>;
}

// ---------------------------------------------------------------------------
// Validators (ajv standalone code, compiled at codegen time)
// ---------------------------------------------------------------------------

export type SchemaIssueKind =
  | 'unknown'    // a field the schema does not declare (fieldValidation Warn/Strict)
  | 'type'       // wrong JSON type
  | 'required'   // a required field is missing
  | 'enum'       // not one of the allowed values
  | 'format'     // string format (date-time, int-or-string, byte ...)
  | 'bounds';    // minimum/maximum, lengths, item and property counts, pattern

export interface SchemaIssue {
  kind: SchemaIssueKind;
  /** Kubernetes field path: `spec.containers[0].name`, `metadata.labels[app]`. */
  path: string;
  message: string;
  /** For `enum`: the allowed values as kube-apiserver prints them (strings as they are, other values as JSON). */
  supported?: string[];
  /** For `bounds` and `format`: the field error upstream reports (its type, and the detail or the limits of it). */
  field?: { type: 'TooLong'; max: number } | { type: 'TooMany'; actual: number; max: number } | { type: 'Invalid' | 'TypeInvalid'; detail: string };
}

/** Checks a value against one named schema; returns every issue (empty: valid). */
export type SchemaValidator = (value: unknown) => SchemaIssue[];
