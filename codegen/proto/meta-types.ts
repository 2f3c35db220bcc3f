// Types of the per-message conversion metadata that codegen writes beside the
// protoc-gen-es output (generated/proto/**/generated_k8s.ts) and the runtime
// protobuf codec reads. Codegen copies this file verbatim to
// generated/proto/meta-types.ts. It imports nothing.

/** Messages whose JSON form is not a plain object of their fields. */
export type SpecialKind =
  | 'Time'            // RFC 3339 string (seconds) <-> {seconds, nanos}
  | 'MicroTime'       // RFC 3339 with microseconds <-> {seconds, nanos}
  | 'Duration'        // Go duration string `1h2m3s` <-> {duration: nanoseconds}
  | 'Quantity'        // string (or number) <-> {string}
  | 'IntOrString'     // number or string <-> {type, intVal, strVal}
  | 'RawExtension'    // any JSON value <-> {raw: JSON bytes}
  | 'FieldsV1'        // JSON object <-> {Raw: JSON bytes}
  | 'JSON'            // apiextensions JSON: any JSON value <-> {raw}
  | 'JSONSchemaPropsOrArray'
  | 'JSONSchemaPropsOrBool'
  | 'JSONSchemaPropsOrStringArray'
  | 'ListWrapper'     // named list type (ExtraValue, Verbs): JSON array <-> {items}
  | 'TypeMeta'
  | 'Unknown';

export interface ProtoMessageMeta {
  special?: SpecialKind;
  /** proto field name -> JSON property name, only where they differ */
  json?: Record<string, string>;
  /** proto fields upstream holds by value: written with their zero value when unset, zero read back as unset */
  always?: string[];
  /** proto fields holding an embedded struct whose own fields appear flattened in this object's JSON */
  inline?: string[];
}

export interface ProtoPackageMeta {
  /** proto package name, e.g. `k8s.io.api.core.v1` */
  package: string;
  /** keyed by full message name */
  messages: Record<string, ProtoMessageMeta>;
}
