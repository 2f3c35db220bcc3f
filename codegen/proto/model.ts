// Builds the protobuf model of the API from the OpenAPI schemas of api-specs
// and the field-number lock: one message per object schema (plus inlined
// structs, named-list wrappers, list kinds and the fixed special types), each
// field with its number, label, proto type and whether it is written when
// unset. Extends the lock for fields it has no number for. No I/O.
import type { SpecialKind } from './meta-types.ts';
import { lockField, type FieldLock } from './lock.ts';
import { SPECIAL_TYPES, ALWAYS_EMITTED, NOT_PROTOBUF } from './special-types.ts';
import { decidePresence, type PresenceData } from './presence.ts';
import { jsonToProtoField, schemaToProtoName } from './names.ts';

/** An OpenAPI schema as far as the protobuf model reads it; markers and the rest stay unknown. */
export interface Schema {
  type?: string;
  format?: string;
  $ref?: string;
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  [key: string]: unknown;
}

export interface ProtoField {
  /** proto field name */
  name: string;
  /** JSON property name (for inline fields: the proto name) */
  json: string;
  number: number;
  label: 'optional' | 'repeated' | 'map';
  /** proto scalar name or full proto message name */
  type: string;
  isMessage: boolean;
  always: boolean;
  inline: boolean;
}

export interface ProtoMessage {
  /** full proto name, e.g. k8s.io.api.core.v1.Pod */
  full: string;
  schema: string;
  special?: SpecialKind;
  fields: ProtoField[];
}

export interface ProtoModel {
  messages: Map<string, ProtoMessage>;
  /** `apiVersion/kind` (apiVersion `v1` or `group/version`) -> full message name */
  kinds: Map<string, string>;
  /** problems that made a schema or field unavailable in protobuf */
  warnings: string[];
}

export class ProtoModelError extends Error {}

const SCALARS = new Set(['string', 'bytes', 'int32', 'int64', 'double', 'bool']);

export function buildModel(schemas: Record<string, Schema>, lock: FieldLock, presence: PresenceData): ProtoModel {
  const model: ProtoModel = { messages: new Map(), kinds: new Map(), warnings: [] };
  const building = new Set<string>();

  function refName(s: Schema): string | undefined {
    const ref = s.$ref ?? (Array.isArray(s.allOf) && s.allOf.length === 1 ? s.allOf[0].$ref : undefined);
    if (typeof ref !== 'string') return undefined;
    return ref.replace(/^#\/(components\/schemas|definitions)\//, '');
  }

  function ensureSpecial(name: string): string {
    const full = schemaToProtoName(name);
    if (model.messages.has(full)) return full;
    const sp = SPECIAL_TYPES[name];
    const msg: ProtoMessage = { full, schema: name, special: sp.kind, fields: [] };
    model.messages.set(full, msg);
    for (const f of sp.fields) {
      const isMessage = !SCALARS.has(f.type);
      const type = isMessage ? ensureNamed(f.type, `${name}.${f.name}`) : f.type;
      msg.fields.push({ name: f.name, json: f.name, number: f.number, label: f.label, type, isMessage, always: false, inline: false });
    }
    return full;
  }

  /** Message for a named schema; undefined when the schema is not an object type. */
  function ensureNamed(name: string, at: string): string {
    if (SPECIAL_TYPES[name]) return ensureSpecial(name);
    const full = schemaToProtoName(name);
    if (model.messages.has(full) || building.has(full)) return full;
    const s = schemas[name];
    if (!s) throw new ProtoModelError(`${at}: schema ${name} is not defined`);
    buildObject(name, s);
    return full;
  }

  function wrapper(owner: string, json: string, wrapName: string, items: Schema): string {
    const full = schemaToProtoName(wrapName);
    if (!model.messages.has(full)) {
      const elem = typeOf(items, `${owner}.${json}[]`, owner, json, true);
      if (elem.label !== 'optional') throw new ProtoModelError(`${owner}.${json}: nested collections are not supported`);
      const number = lockField(lock, wrapName, 'items');
      model.messages.set(full, {
        full,
        schema: wrapName,
        special: 'ListWrapper',
        fields: [{ name: 'items', json: 'items', number, label: 'repeated', type: elem.type, isMessage: elem.isMessage, always: false, inline: false }],
      });
    }
    return full;
  }

  function typeOf(s: Schema, at: string, owner: string, json: string, inCollection = false): { label: ProtoField['label']; type: string; isMessage: boolean } {
    const ref = refName(s);
    if (ref) {
      if (SPECIAL_TYPES[ref]) return { label: 'optional', type: ensureSpecial(ref), isMessage: true };
      const target = schemas[ref];
      if (!target) throw new ProtoModelError(`${at}: schema ${ref} is not defined`);
      if (target.properties || lock.messages[ref]) return { label: 'optional', type: ensureNamed(ref, at), isMessage: true };
      return typeOf(target, at, owner, json, inCollection);
    }
    if (s['x-kubernetes-int-or-string'] === true || s.format === 'int-or-string') {
      return { label: 'optional', type: ensureSpecial('io.k8s.apimachinery.pkg.util.intstr.IntOrString'), isMessage: true };
    }
    switch (s.type) {
      case 'string':
        return { label: 'optional', type: s.format === 'byte' ? 'bytes' : 'string', isMessage: false };
      case 'integer':
        return { label: 'optional', type: s.format === 'int32' ? 'int32' : 'int64', isMessage: false };
      case 'number':
        return { label: 'optional', type: 'double', isMessage: false };
      case 'boolean':
        return { label: 'optional', type: 'bool', isMessage: false };
      case 'array': {
        const wrap = lock.wrappers[owner]?.[json];
        if (wrap && !inCollection) return { label: 'optional', type: wrapper(owner, json, wrap, s.items ?? {}), isMessage: true };
        if (inCollection) throw new ProtoModelError(`${at}: nested collections are not supported`);
        const elem = typeOf(s.items ?? {}, `${at}[]`, owner, json, true);
        return { label: 'repeated', type: elem.type, isMessage: elem.isMessage };
      }
      case 'object':
        if (s.additionalProperties && typeof s.additionalProperties === 'object' && !s.properties) {
          if (inCollection) throw new ProtoModelError(`${at}: nested collections are not supported`);
          const ap = s.additionalProperties as Schema;
          const wrap = lock.wrappers[owner]?.[json];
          if (ap.type === 'array' && wrap) return { label: 'map', type: wrapper(owner, json, wrap, ap.items ?? {}), isMessage: true };
          const v = typeOf(ap, `${at}{}`, owner, json, true);
          return { label: 'map', type: v.type, isMessage: v.isMessage };
        }
        break;
    }
    if (s.properties) throw new ProtoModelError(`${at}: an object schema without a name is not supported`);
    // Free-form JSON (no type, preserve-unknown-fields, an object without properties).
    return { label: 'optional', type: ensureSpecial('io.k8s.apimachinery.pkg.runtime.RawExtension'), isMessage: true };
  }

  /** Builds `name` (an object schema, or an inlined struct drawing its fields from `propsFrom`). */
  function buildObject(name: string, s: Schema, propsFrom?: Schema): void {
    const full = schemaToProtoName(name);
    building.add(full);
    const source = propsFrom ?? s;
    const props: Record<string, Schema> = source.properties ?? {};
    const hasGvk = Array.isArray(s['x-kubernetes-group-version-kind']);
    const locked = lock.messages[name] ?? {};
    const inline = lock.inline[name] ?? {};
    const msg: ProtoMessage = { full, schema: name, fields: [] };
    const claimed = new Set<string>();
    const claim = (inner: string) => {
      for (const f of Object.keys(lock.messages[inner] ?? {})) {
        const nested = lock.inline[inner]?.[f];
        if (nested) claim(nested);
        else claimed.add(f);
      }
    };
    for (const inner of Object.values(inline)) claim(inner);

    for (const [fname, inner] of Object.entries(inline)) {
      const innerFull = schemaToProtoName(inner);
      if (!model.messages.has(innerFull)) buildObject(inner, { properties: {} }, source);
      msg.fields.push({
        name: jsonToProtoField(fname),
        json: fname,
        number: locked[fname],
        label: 'optional',
        type: innerFull,
        isMessage: true,
        always: true,
        inline: true,
      });
    }
    // An inlined struct takes only the properties its locked fields name.
    const own = propsFrom
      ? Object.keys(locked).filter((k) => props[k] !== undefined && !inline[k])
      : Object.keys(props)
          .sort()
          .filter((k) => !claimed.has(k));
    for (const json of own) {
      if (hasGvk && (json === 'apiVersion' || json === 'kind') && locked[json] === undefined) continue;
      const at = `${name}.${json}`;
      try {
        const t = typeOf(props[json], at, name, json);
        const number = lockField(lock, name, json);
        const always = decidePresence(presence, name, json, t.label, t.type, hasGvk || /List$/.test(name));
        msg.fields.push({ name: jsonToProtoField(json), json, number, label: t.label, type: t.type, isMessage: t.isMessage, always, inline: false });
      } catch (e) {
        if (!(e instanceof ProtoModelError)) throw e;
        model.warnings.push(e.message);
      }
    }
    msg.fields.sort((a, b) => a.number - b.number);
    const seen = new Map<number, string>();
    for (const f of msg.fields) {
      if (seen.has(f.number)) throw new ProtoModelError(`${name}: fields ${seen.get(f.number)} and ${f.json} share number ${f.number}`);
      seen.set(f.number, f.json);
    }
    model.messages.set(full, msg);
    building.delete(full);
  }

  for (const name of ALWAYS_EMITTED) ensureSpecial(name);
  const names = Object.keys(schemas).sort();
  for (const name of names) {
    const s = schemas[name];
    if (NOT_PROTOBUF.has(name) || SPECIAL_TYPES[name]) continue;
    if (!s.properties && !lock.messages[name]) continue;
    try {
      ensureNamed(name, name);
    } catch (e) {
      if (!(e instanceof ProtoModelError)) throw e;
      model.warnings.push(e.message);
    }
  }
  // Kinds, and a list kind for every object kind that has none.
  for (const name of names) {
    const s = schemas[name];
    const gvks = s['x-kubernetes-group-version-kind'];
    if (!Array.isArray(gvks) || !model.messages.has(schemaToProtoName(name))) continue;
    for (const g of gvks) {
      const apiVersion = g.group ? `${g.group}/${g.version}` : g.version;
      model.kinds.set(`${apiVersion}/${g.kind}`, schemaToProtoName(name));
      const isObjectKind = refName(s.properties?.metadata ?? {}) === 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
      if (!isObjectKind || /List$/.test(g.kind)) continue;
      const listSchema = `${name}List`;
      const listKey = `${apiVersion}/${g.kind}List`;
      if (model.kinds.has(listKey) || schemas[listSchema]) continue;
      const listFull = schemaToProtoName(listSchema);
      if (!model.messages.has(listFull)) {
        model.messages.set(listFull, {
          full: listFull,
          schema: listSchema,
          fields: [
            {
              name: 'metadata',
              json: 'metadata',
              number: lockField(lock, listSchema, 'metadata'),
              label: 'optional',
              type: ensureNamed('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', listSchema),
              isMessage: true,
              always: true,
              inline: false,
            },
            { name: 'items', json: 'items', number: lockField(lock, listSchema, 'items'), label: 'repeated', type: schemaToProtoName(name), isMessage: true, always: false, inline: false },
          ].sort((a, b) => a.number - b.number) as ProtoField[],
        });
      }
      model.kinds.set(listKey, listFull);
    }
  }
  return model;
}
