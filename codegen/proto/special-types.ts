// The Kubernetes types whose protobuf form differs from their JSON form
// (Time is an RFC 3339 string in JSON and {seconds, nanos} on the wire, a
// Quantity a string and {string}, ...) plus the runtime envelope types. Their
// messages are fixed facts of the wire format, written out here rather than
// derived from a schema; the runtime codec converts them by `special` kind.
import type { SpecialKind } from './meta-types.ts';

export interface SpecialField {
  label: 'optional' | 'repeated';
  /** proto scalar name, or an OpenAPI schema name of another message */
  type: string;
  name: string;
  number: number;
}

export interface SpecialType {
  kind: SpecialKind;
  fields: SpecialField[];
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const RUNTIME = 'io.k8s.apimachinery.pkg.runtime.';
const APIEXT = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';

const timeFields: SpecialField[] = [
  { label: 'optional', type: 'int64', name: 'seconds', number: 1 },
  { label: 'optional', type: 'int32', name: 'nanos', number: 2 },
];

/** Keyed by OpenAPI schema name. */
export const SPECIAL_TYPES: Record<string, SpecialType> = {
  [META + 'Time']: { kind: 'Time', fields: timeFields },
  [META + 'MicroTime']: { kind: 'MicroTime', fields: timeFields },
  [META + 'Duration']: { kind: 'Duration', fields: [{ label: 'optional', type: 'int64', name: 'duration', number: 1 }] },
  [META + 'FieldsV1']: { kind: 'FieldsV1', fields: [{ label: 'optional', type: 'bytes', name: 'Raw', number: 1 }] },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    kind: 'Quantity',
    fields: [{ label: 'optional', type: 'string', name: 'string', number: 1 }],
  },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
    kind: 'IntOrString',
    fields: [
      { label: 'optional', type: 'int64', name: 'type', number: 1 },
      { label: 'optional', type: 'int32', name: 'intVal', number: 2 },
      { label: 'optional', type: 'string', name: 'strVal', number: 3 },
    ],
  },
  [RUNTIME + 'RawExtension']: { kind: 'RawExtension', fields: [{ label: 'optional', type: 'bytes', name: 'raw', number: 1 }] },
  [RUNTIME + 'TypeMeta']: {
    kind: 'TypeMeta',
    fields: [
      { label: 'optional', type: 'string', name: 'apiVersion', number: 1 },
      { label: 'optional', type: 'string', name: 'kind', number: 2 },
    ],
  },
  [RUNTIME + 'Unknown']: {
    kind: 'Unknown',
    fields: [
      { label: 'optional', type: RUNTIME + 'TypeMeta', name: 'typeMeta', number: 1 },
      { label: 'optional', type: 'bytes', name: 'raw', number: 2 },
      { label: 'optional', type: 'string', name: 'contentEncoding', number: 3 },
      { label: 'optional', type: 'string', name: 'contentType', number: 4 },
    ],
  },
  [APIEXT + 'JSON']: { kind: 'JSON', fields: [{ label: 'optional', type: 'bytes', name: 'raw', number: 1 }] },
  [APIEXT + 'JSONSchemaPropsOrArray']: {
    kind: 'JSONSchemaPropsOrArray',
    fields: [
      { label: 'optional', type: APIEXT + 'JSONSchemaProps', name: 'schema', number: 1 },
      { label: 'repeated', type: APIEXT + 'JSONSchemaProps', name: 'jSONSchemas', number: 2 },
    ],
  },
  [APIEXT + 'JSONSchemaPropsOrBool']: {
    kind: 'JSONSchemaPropsOrBool',
    fields: [
      { label: 'optional', type: 'bool', name: 'allows', number: 1 },
      { label: 'optional', type: APIEXT + 'JSONSchemaProps', name: 'schema', number: 2 },
    ],
  },
  [APIEXT + 'JSONSchemaPropsOrStringArray']: {
    kind: 'JSONSchemaPropsOrStringArray',
    fields: [
      { label: 'optional', type: APIEXT + 'JSONSchemaProps', name: 'schema', number: 1 },
      { label: 'repeated', type: 'string', name: 'property', number: 2 },
    ],
  },
};

/** Messages every output has: the envelope. */
export const ALWAYS_EMITTED = [RUNTIME + 'Unknown', RUNTIME + 'TypeMeta', RUNTIME + 'RawExtension'];

/** Schemas upstream never serves as protobuf (Table rows hold arbitrary JSON cells; version info is JSON only). */
export const NOT_PROTOBUF = new Set([META + 'Table', META + 'TableRow', META + 'TableColumnDefinition', META + 'TableRowCondition', META + 'Patch', 'io.k8s.apimachinery.pkg.version.Info']);
