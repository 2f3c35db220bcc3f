// Static CEL types, and the mapping from an OpenAPI v3 schema (with the
// Kubernetes markers) to them, following the type-mapping table of
// Kubernetes' CEL documentation. Sizes (maxLength, maxItems, maxProperties,
// or the worst case a 3 MiB request allows) ride on the types for the cost
// estimator. Boundary: types only; values are converted in ../values/.

export interface JSONSchema {
  type?: string;
  format?: string;
  properties?: Record<string, JSONSchema>;
  additionalProperties?: boolean | JSONSchema;
  items?: JSONSchema;
  required?: string[];
  nullable?: boolean;
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  enum?: unknown[];
  allOf?: JSONSchema[];
  anyOf?: JSONSchema[];
  oneOf?: JSONSchema[];
  $ref?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-validations'?: unknown[];
  [k: string]: unknown;
}

export type ListType = 'atomic' | 'set' | 'map';

export type CelT =
  | { k: 'int' }
  | { k: 'uint' }
  | { k: 'double' }
  | { k: 'bool' }
  | { k: 'null' }
  | { k: 'string'; max?: number }
  | { k: 'bytes'; max?: number }
  | { k: 'timestamp' }
  | { k: 'duration' }
  | { k: 'dyn'; union?: ('int' | 'string')[] }
  | { k: 'type'; of?: CelT }
  | { k: 'list'; elem: CelT; max?: number; listType?: ListType; keys?: string[] }
  | { k: 'map'; key: CelT; value: CelT; max?: number }
  | { k: 'object'; name: string; fields: Map<string, CelT>; schema?: JSONSchema; native?: boolean }
  | { k: 'opaque'; name: string; param?: CelT }
  /** A type parameter inside a function signature. */
  | { k: 'param'; name: string };

export const T = {
  int: { k: 'int' } as CelT,
  uint: { k: 'uint' } as CelT,
  double: { k: 'double' } as CelT,
  bool: { k: 'bool' } as CelT,
  null: { k: 'null' } as CelT,
  string: { k: 'string' } as CelT,
  bytes: { k: 'bytes' } as CelT,
  timestamp: { k: 'timestamp' } as CelT,
  duration: { k: 'duration' } as CelT,
  dyn: { k: 'dyn' } as CelT,
  type: { k: 'type' } as CelT,
  list: (elem: CelT): CelT => ({ k: 'list', elem }),
  map: (key: CelT, value: CelT): CelT => ({ k: 'map', key, value }),
  opaque: (name: string, param?: CelT): CelT => ({ k: 'opaque', name, param }),
  optional: (param: CelT): CelT => ({ k: 'opaque', name: 'optional_type', param }),
  param: (name: string): CelT => ({ k: 'param', name }),
};

export function typeName(t: CelT): string {
  switch (t.k) {
    case 'list':
      return `list(${typeName(t.elem)})`;
    case 'map':
      return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'object':
      return t.name;
    case 'opaque':
      return t.param ? `${t.name}(${typeName(t.param)})` : t.name;
    case 'type':
      return t.of ? `type(${typeName(t.of)})` : 'type';
    case 'param':
      return t.name;
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'duration':
      return 'google.protobuf.Duration';
    case 'null':
      return 'null_type';
    default:
      return t.k;
  }
}

/** Largest request the API server accepts; bounds sizes the schema leaves open. */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

/** Smallest JSON encoding of a value of the schema, for worst-case list and map sizes. */
function minSerializedSize(s: JSONSchema): number {
  if (s['x-kubernetes-int-or-string']) return 1;
  switch (s.type) {
    case 'string':
      return 2; // ""
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return 4;
    case 'array':
      return 2;
    case 'object':
      return 2;
    default:
      return 1;
  }
}

function maxCount(s: JSONSchema, declared: number | undefined, elem: JSONSchema | undefined, extraPerElem: number): number {
  if (declared !== undefined) return declared;
  const per = (elem ? minSerializedSize(elem) : 1) + extraPerElem;
  return Math.floor((MAX_REQUEST_BYTES - 2) / per);
}

export type RefResolver = (ref: string) => JSONSchema | undefined;

export interface MapOptions {
  resolveRef?: RefResolver;
  /** Name prefix for object types (the variable's name). */
  name?: string;
  /** The schema describes a native API type (as upstream declares `request` of authorization matchConditions): field names are used as they are, never escaped. */
  native?: boolean;
}

/** Follows $ref and single-element allOf wrappers. */
export function derefSchema(s: JSONSchema, opts: MapOptions): JSONSchema {
  let cur = s;
  for (let i = 0; i < 32; i++) {
    if (cur.$ref && opts.resolveRef) {
      const r = opts.resolveRef(cur.$ref);
      if (!r) break;
      cur = { ...r, ...Object.fromEntries(Object.entries(cur).filter(([k]) => k !== '$ref')) };
      continue;
    }
    if (!cur.type && !cur.properties && cur.allOf?.length === 1) {
      const { allOf, ...rest } = cur;
      cur = { ...allOf[0], ...rest };
      continue;
    }
    break;
  }
  return cur;
}

const EMBEDDED_FIELDS = ['apiVersion', 'kind', 'metadata'];

/** The CEL type of values of a schema (the seed's type mapping table). */
export function schemaToType(schema: JSONSchema, opts: MapOptions = {}, path = opts.name ?? 'self', depth = 0): CelT {
  if (depth > 64) return T.dyn;
  const s = derefSchema(schema, opts);
  if (s['x-kubernetes-int-or-string']) return { k: 'dyn', union: ['int', 'string'] };
  switch (s.type) {
    case 'boolean':
      return T.bool;
    case 'integer':
      return T.int;
    case 'number':
      return T.double;
    case 'string':
      switch (s.format) {
        case 'byte':
          return { k: 'bytes', max: s.maxLength !== undefined ? s.maxLength : Math.floor(((MAX_REQUEST_BYTES - 2) * 3) / 4) };
        case 'date':
        case 'date-time':
          return T.timestamp;
        case 'duration':
          return T.duration;
        default:
          return { k: 'string', max: s.maxLength ?? MAX_REQUEST_BYTES - 2 };
      }
    case 'array': {
      const items = s.items ? derefSchema(s.items, opts) : undefined;
      const lt = s['x-kubernetes-list-type'];
      return {
        k: 'list',
        elem: items ? schemaToType(items, opts, `${path}.@items`, depth + 1) : T.dyn,
        max: maxCount(s, s.maxItems, items, 1),
        listType: lt ?? 'atomic',
        keys: lt === 'map' ? (s['x-kubernetes-list-map-keys'] ?? []) : undefined,
      };
    }
    case 'object':
    case undefined: {
      const props = s.properties;
      const embedded = s['x-kubernetes-embedded-resource'] === true;
      if (props || embedded) {
        const fields = new Map<string, CelT>();
        if (embedded) {
          fields.set('apiVersion', { k: 'string', max: MAX_REQUEST_BYTES - 2 });
          fields.set('kind', { k: 'string', max: MAX_REQUEST_BYTES - 2 });
          fields.set('metadata', {
            k: 'object',
            name: `${path}.metadata`,
            fields: new Map<string, CelT>([
              ['name', T.string],
              ['generateName', T.string],
              ['namespace', T.string],
              ['labels', T.map(T.string, T.string)],
              ['annotations', T.map(T.string, T.string)],
              ['uid', T.string],
              ['resourceVersion', T.string],
              ['creationTimestamp', T.timestamp],
            ]),
          });
        }
        for (const [name, ps] of Object.entries(props ?? {})) {
          if (embedded && EMBEDDED_FIELDS.includes(name) && name !== 'metadata') continue;
          fields.set(name, schemaToType(ps, opts, `${path}.${name}`, depth + 1));
        }
        if (embedded && s['x-kubernetes-preserve-unknown-fields'] && !props) return T.dyn;
        return opts.native ? { k: 'object', name: path, fields, schema: s, native: true } : { k: 'object', name: path, fields, schema: s };
      }
      const ap = s.additionalProperties;
      if (ap && typeof ap === 'object') {
        const v = derefSchema(ap, opts);
        return { k: 'map', key: { k: 'string', max: MAX_REQUEST_BYTES - 2 }, value: schemaToType(v, opts, `${path}.@values`, depth + 1), max: maxCount(s, s.maxProperties, v, 4) };
      }
      if (s['x-kubernetes-preserve-unknown-fields'] || s.type === undefined || ap === true) return T.dyn;
      // An object with neither properties nor additionalProperties: an empty struct.
      return { k: 'object', name: path, fields: new Map(), schema: s };
    }
    default:
      return T.dyn;
  }
}
