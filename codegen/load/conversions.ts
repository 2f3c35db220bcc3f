// Reads and checks `x-specserver-conversions`, a document's declaration of
// how its kinds convert to and from the hub version of their group
// (docs/spec-format.md): renames, hub fields kept in annotations, zeros
// marked by an annotation, and per-version defaults. readConversions checks
// the shape of one document's list; checkConversions, once every resource
// is loaded, checks the hub and every field path against the schemas of
// both versions. Errors name the file and the JSON path.
import type { ConversionRule, JSONValue, VersionConversion, VersionDefault } from '../templates/api-types.ts';
import type { LoadedResource, NamedSchema, OpenAPISchema } from '../model/types.ts';
import type { SchemaLookup } from '../../runtime/schema/util.ts';
import { CodegenError, jp } from './errors.ts';
import { checkCohabiting, checkFieldLabels } from './cross-group.ts';
import { isObject, schemaType } from './schema-util.ts';
import { fieldSchema, onlyKeys, path, text } from './conversion-fields.ts';
import { checkItemField, checkKeptForm, readItemField, readKeptForm } from './conversion-lists.ts';

/** One kind's declaration, as read (paths still to be checked against the schemas). */
export interface DeclaredConversion {
  kind: string;
  conversion: VersionConversion;
  file: string;
  jsonPath: string;
  /** JSON path of each rule and default, in order, for errors. */
  ruleAt: string[];
  defaultAt: string[];
}

function readRule(file: string, v: unknown, at: string): ConversionRule {
  if (!isObject(v)) throw new CodegenError(file, at, 'a rule must be an object');
  if (v.rename !== undefined) {
    onlyKeys(file, v, ['rename', 'to'], at);
    return { op: 'rename', from: path(file, v, 'rename', at), to: path(file, v, 'to', at) };
  }
  if (v.keepInAnnotation !== undefined) {
    onlyKeys(file, v, ['keepInAnnotation', 'annotation', 'itemRules', 'goFieldNames', 'dropMalformed', 'goType'], at);
    if (v.dropMalformed !== undefined && typeof v.dropMalformed !== 'boolean') throw new CodegenError(file, jp(at, 'dropMalformed'), 'dropMalformed must be a boolean');
    const rule: ConversionRule = { op: 'annotation', field: path(file, v, 'keepInAnnotation', at), annotation: text(file, v, 'annotation', at), ...readKeptForm(file, v, at) };
    if (v.dropMalformed === true) rule.dropMalformed = true;
    if (v.goType !== undefined) rule.goType = text(file, v, 'goType', at);
    return rule;
  }
  if (v.itemField !== undefined) return readItemField(file, v, at);
  if (v.zeroAnnotation !== undefined) {
    onlyKeys(file, v, ['zeroAnnotation', 'field'], at);
    return { op: 'zeroAnnotation', annotation: text(file, v, 'zeroAnnotation', at), field: path(file, v, 'field', at) };
  }
  throw new CodegenError(file, at, 'a rule is one of {rename, to}, {keepInAnnotation, annotation}, {zeroAnnotation, field} or {itemField, list, match, value}');
}

function readDefault(file: string, v: unknown, at: string): VersionDefault {
  if (!isObject(v)) throw new CodegenError(file, at, 'a default must be an object');
  onlyKeys(file, v, ['field', 'value', 'zeroIsUnset', 'unlessAnnotation'], at);
  if (v.value === undefined) throw new CodegenError(file, jp(at, 'value'), 'value is required');
  if (v.zeroIsUnset !== undefined && typeof v.zeroIsUnset !== 'boolean') throw new CodegenError(file, jp(at, 'zeroIsUnset'), 'zeroIsUnset must be a boolean');
  const d: VersionDefault = { field: path(file, v, 'field', at), value: v.value as JSONValue, zeroIsUnset: v.zeroIsUnset === true };
  if (v.unlessAnnotation !== undefined) d.unlessAnnotation = text(file, v, 'unlessAnnotation', at);
  return d;
}

/** The declarations of one document (`value` is its `x-specserver-conversions`). */
export function readConversions(file: string, value: unknown, at: string): DeclaredConversion[] {
  if (!Array.isArray(value)) throw new CodegenError(file, at, 'x-specserver-conversions must be a list');
  const out: DeclaredConversion[] = [];
  const kinds = new Set<string>();
  value.forEach((entry, i) => {
    const eAt = jp(at, i);
    if (!isObject(entry)) throw new CodegenError(file, eAt, 'an entry must be an object');
    onlyKeys(file, entry, ['kind', 'hub', 'hubGroup', 'rules', 'defaults'], eAt);
    const kind = text(file, entry, 'kind', eAt);
    if (kinds.has(kind)) throw new CodegenError(file, jp(eAt, 'kind'), `kind ${kind} is declared twice`);
    kinds.add(kind);
    const hub = text(file, entry, 'hub', eAt);
    if (entry.hubGroup !== undefined && typeof entry.hubGroup !== 'string') throw new CodegenError(file, jp(eAt, 'hubGroup'), 'hubGroup must be a string ("" for the core group)');
    for (const key of ['rules', 'defaults']) {
      if (entry[key] !== undefined && !Array.isArray(entry[key])) throw new CodegenError(file, jp(eAt, key), `${key} must be a list`);
    }
    const rules = ((entry.rules ?? []) as unknown[]).map((r, j) => readRule(file, r, jp(jp(eAt, 'rules'), j)));
    const defaults = ((entry.defaults ?? []) as unknown[]).map((d, j) => readDefault(file, d, jp(jp(eAt, 'defaults'), j)));
    out.push({
      kind,
      conversion: { hub, ...(typeof entry.hubGroup === 'string' ? { hubGroup: entry.hubGroup } : {}), rules, defaults },
      file,
      jsonPath: eAt,
      ruleAt: rules.map((_, j) => jp(jp(eAt, 'rules'), j)),
      defaultAt: defaults.map((_, j) => jp(jp(eAt, 'defaults'), j)),
    });
  });
  return out;
}

const jsonType = (v: JSONValue): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);

/**
 * Checks each declaration against the loaded resources and schemas: its kind
 * is served in its document's group-version, its hub is another version of
 * the group serving the kind with no conversion of its own, and every path
 * names a field where the rule needs one. Attaches the conversions to the
 * resources.
 */
export function checkConversions(declared: { group: string; version: string; list: DeclaredConversion[] }[], resources: LoadedResource[], schemas: Map<string, NamedSchema>): void {
  const lookup: SchemaLookup = (n) => schemas.get(n);
  const find = (group: string, version: string, kind: string) => resources.find((r) => r.group === group && r.version === version && r.kind === kind);
  const withConversion = new Set<string>();
  const hubGroups = new Map<string, string>();
  for (const { group, version, list } of declared) {
    for (const d of list) {
      withConversion.add(`${group}/${version}/${d.kind}`);
      hubGroups.set(`${group}/${version}/${d.kind}`, d.conversion.hubGroup ?? group);
    }
  }
  const hubGroupOf = (r: LoadedResource) => hubGroups.get(`${r.group}/${r.version}/${r.kind}`) ?? r.group;
  for (const { group, version, list } of declared) {
    for (const d of list) {
      const { file } = d;
      const own = find(group, version, d.kind);
      if (!own) throw new CodegenError(file, jp(d.jsonPath, 'kind'), `kind ${d.kind} is not a resource of ${group || 'core'}/${version}`);
      const { hub } = d.conversion;
      const hubGroup = d.conversion.hubGroup ?? group;
      if (hub === version && hubGroup === group) throw new CodegenError(file, jp(d.jsonPath, 'hub'), `hub ${hub} is this document's own version`);
      const hubRes = find(hubGroup, hub, d.kind);
      if (!hubRes) throw new CodegenError(file, jp(d.jsonPath, 'hub'), `hub ${hub}: ${hubGroup || 'core'}/${hub} serves no ${d.kind}`);
      if (hubGroup !== group) checkCohabiting(file, jp(d.jsonPath, 'hubGroup'), own, hubRes, resources, hubGroupOf);
      if (withConversion.has(`${hubGroup}/${hub}/${d.kind}`)) {
        throw new CodegenError(file, jp(d.jsonPath, 'hub'), `hub ${hub} declares a conversion of its own: a hub converts to nothing`);
      }
      const ownSchema = schemas.get(own.schema)!.schema;
      const hubSchema = schemas.get(hubRes.schema)!.schema;
      const need = (root: OpenAPISchema, field: string[], at: string, where: string) => {
        const s = fieldSchema(root, field, lookup);
        if (!s) throw new CodegenError(file, at, `${field.join('.')} is not a field of ${d.kind} in ${where}`);
        return s;
      };
      d.conversion.rules.forEach((r, i) => {
        const at = d.ruleAt[i];
        if (r.op === 'rename') {
          need(ownSchema, r.from, jp(at, 'rename'), version);
          need(hubSchema, r.to, jp(at, 'to'), hub);
        } else if (r.op === 'annotation') {
          need(hubSchema, r.field, jp(at, 'keepInAnnotation'), hub);
          if (fieldSchema(ownSchema, r.field, lookup)) {
            throw new CodegenError(file, jp(at, 'keepInAnnotation'), `${r.field.join('.')} is a field of ${version} too: only a field this version lacks is kept in an annotation`);
          }
          checkKeptForm(file, at, r, hubSchema, hub, lookup);
        } else if (r.op === 'itemField') {
          checkItemField(file, at, r, { schema: ownSchema, version }, { schema: hubSchema, version: hub }, lookup);
        } else {
          for (const [root, where] of [
            [hubSchema, hub],
            [ownSchema, version],
          ] as const) {
            const s = need(root, r.field, jp(at, 'field'), where);
            if (schemaType(s) !== 'integer' && schemaType(s) !== 'number') throw new CodegenError(file, jp(at, 'field'), `${r.field.join('.')} is not a number in ${where}`);
          }
        }
      });
      d.conversion.defaults.forEach((def, i) => {
        const at = d.defaultAt[i];
        const s = need(ownSchema, def.field, jp(at, 'field'), version);
        const t = schemaType(s);
        const vt = jsonType(def.value);
        const fits = t === undefined || t === vt || (t === 'number' && vt === 'integer');
        if (!fits) throw new CodegenError(file, jp(at, 'value'), `value is ${vt}, but ${def.field.join('.')} is ${t}`);
        if (def.zeroIsUnset && t !== 'integer' && t !== 'number') throw new CodegenError(file, jp(at, 'zeroIsUnset'), `zeroIsUnset needs a number field; ${def.field.join('.')} is ${t ?? 'untyped'}`);
      });
      own.conversion = d.conversion;
      checkFieldLabels(file, jp(d.jsonPath, 'kind'), own, hubRes);
    }
  }
}
