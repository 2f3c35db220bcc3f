// Reads and checks the x-specserver-conversions rules over lists
// (docs/spec-format.md): `itemField` (a scalar of this version mirroring one
// item of a hub list) and the form of a kept value in its annotation
// (`itemRules` converting each item of a kept list, `goFieldNames`). Item
// paths are checked against the hub list's item schema; the annotation's
// side of an item rule has no schema in the version's document and is not
// checked. Errors name the file and the JSON path. runtime/registry/
// conversion/list-rules.ts applies them.
import type { ItemFieldRule, ItemRule, JSONValue } from '../templates/api-types.ts';
import type { OpenAPISchema } from '../model/types.ts';
import { resolveNode, type SchemaLookup } from '../../runtime/schema/util.ts';
import { CodegenError, jp } from './errors.ts';
import { isObject, schemaType } from './schema-util.ts';
import { fieldSchema, onlyKeys, path } from './conversion-fields.ts';

function readItemRule(file: string, v: unknown, at: string): ItemRule {
  if (!isObject(v)) throw new CodegenError(file, at, 'an item rule must be an object');
  if (v.rename !== undefined) {
    onlyKeys(file, v, ['rename', 'to'], at);
    return { op: 'rename', from: path(file, v, 'rename', at, true), to: path(file, v, 'to', at, true) };
  }
  if (v.derive !== undefined) {
    onlyKeys(file, v, ['derive', 'when', 'cases', 'otherwise'], at);
    if (v.otherwise === undefined) throw new CodegenError(file, jp(at, 'otherwise'), 'otherwise is required');
    if (v.cases !== undefined && !Array.isArray(v.cases)) throw new CodegenError(file, jp(at, 'cases'), 'cases must be a list');
    const cases = ((v.cases ?? []) as unknown[]).map((c, i) => {
      const cAt = jp(jp(at, 'cases'), i);
      if (!isObject(c)) throw new CodegenError(file, cAt, 'a case must be an object');
      onlyKeys(file, c, ['ifPresent', 'value'], cAt);
      if (c.value === undefined) throw new CodegenError(file, jp(cAt, 'value'), 'value is required');
      return { ifPresent: path(file, c, 'ifPresent', cAt, true), value: c.value as JSONValue };
    });
    return { op: 'derive', field: path(file, v, 'derive', at, true), when: path(file, v, 'when', at, true), cases, otherwise: v.otherwise as JSONValue };
  }
  throw new CodegenError(file, at, 'an item rule is one of {rename, to} or {derive, when, cases, otherwise}');
}

/** The optional keys of keepInAnnotation that say how the kept value is written. */
export function readKeptForm(file: string, v: Record<string, unknown>, at: string): { items?: ItemRule[]; goFieldNames?: boolean } {
  const out: { items?: ItemRule[]; goFieldNames?: boolean } = {};
  if (v.itemRules !== undefined) {
    if (!Array.isArray(v.itemRules)) throw new CodegenError(file, jp(at, 'itemRules'), 'itemRules must be a list');
    out.items = v.itemRules.map((r, i) => readItemRule(file, r, jp(jp(at, 'itemRules'), i)));
  }
  if (v.goFieldNames !== undefined) {
    if (typeof v.goFieldNames !== 'boolean') throw new CodegenError(file, jp(at, 'goFieldNames'), 'goFieldNames must be a boolean');
    if (v.goFieldNames) out.goFieldNames = true;
  }
  return out;
}

export function readItemField(file: string, v: Record<string, unknown>, at: string): ItemFieldRule {
  onlyKeys(file, v, ['itemField', 'list', 'match', 'value'], at);
  if (!isObject(v.match) || Object.keys(v.match).length === 0) throw new CodegenError(file, jp(at, 'match'), 'match must be an object naming the fields a matching item holds');
  return {
    op: 'itemField',
    field: path(file, v, 'itemField', at),
    list: path(file, v, 'list', at),
    match: v.match as { [key: string]: JSONValue },
    value: path(file, v, 'value', at, true),
  };
}

const jsonType = (v: JSONValue): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);

function fits(s: OpenAPISchema, v: JSONValue): boolean {
  const t = schemaType(s);
  const vt = jsonType(v);
  return t === undefined || t === vt || (t === 'number' && vt === 'integer');
}

/** The item schema of the array field `field` below `root`. */
function itemSchema(file: string, at: string, root: OpenAPISchema, field: string[], where: string, lookup: SchemaLookup): OpenAPISchema {
  const s = fieldSchema(root, field, lookup);
  if (!s) throw new CodegenError(file, at, `${field.join('.')} is not a field of ${where}`);
  if (schemaType(s) !== 'array' || !isObject(s.items)) throw new CodegenError(file, at, `${field.join('.')} is not a list in ${where}`);
  return resolveNode(s.items as OpenAPISchema, lookup) ?? {};
}

function needInItem(file: string, at: string, item: OpenAPISchema, field: string[], list: string, lookup: SchemaLookup): OpenAPISchema {
  const s = fieldSchema(item, field, lookup);
  if (!s) throw new CodegenError(file, at, `${field.join('.')} is not a field of the items of ${list}`);
  return s;
}

/** keepInAnnotation's itemRules: the field is a hub list and every hub-side path a field of its items. */
export function checkKeptForm(file: string, at: string, rule: { field: string[]; items?: ItemRule[] }, hubSchema: OpenAPISchema, hub: string, lookup: SchemaLookup): void {
  if (!rule.items?.length) return;
  const where = `${hub}`;
  const item = itemSchema(file, jp(at, 'itemRules'), hubSchema, rule.field, where, lookup);
  const list = `${rule.field.join('.')} in ${hub}`;
  rule.items.forEach((r, i) => {
    const rAt = jp(jp(at, 'itemRules'), i);
    if (r.op === 'rename') {
      needInItem(file, jp(rAt, 'to'), item, r.to, list, lookup);
      return;
    }
    const s = needInItem(file, jp(rAt, 'derive'), item, r.field, list, lookup);
    needInItem(file, jp(rAt, 'when'), item, r.when, list, lookup);
    r.cases.forEach((c, j) => {
      const cAt = jp(jp(rAt, 'cases'), j);
      needInItem(file, jp(cAt, 'ifPresent'), item, c.ifPresent, list, lookup);
      if (!fits(s, c.value)) throw new CodegenError(file, jp(cAt, 'value'), `value is ${jsonType(c.value)}, but ${r.field.join('.')} is ${schemaType(s)}`);
    });
    if (!fits(s, r.otherwise)) throw new CodegenError(file, jp(rAt, 'otherwise'), `otherwise is ${jsonType(r.otherwise)}, but ${r.field.join('.')} is ${schemaType(s)}`);
  });
}

/** Every field `match` names is a field of the item, with a value of its type. */
function checkMatch(file: string, at: string, item: OpenAPISchema, match: JSONValue, prefix: string[], list: string, lookup: SchemaLookup): void {
  for (const [k, v] of Object.entries(match as Record<string, JSONValue>)) {
    const field = [...prefix, k];
    const s = needInItem(file, jp(at, k), item, field, list, lookup);
    if (isObject(v)) checkMatch(file, jp(at, k), item, v, field, list, lookup);
    else if (!fits(s, v)) throw new CodegenError(file, jp(at, k), `${jsonType(v)} does not fit ${field.join('.')}, which is ${schemaType(s)}`);
  }
}

/** itemField: a scalar of this version only, a hub list, and an item value of the scalar's type. */
export function checkItemField(
  file: string,
  at: string,
  rule: ItemFieldRule,
  own: { schema: OpenAPISchema; version: string },
  hub: { schema: OpenAPISchema; version: string },
  lookup: SchemaLookup,
): void {
  const f = fieldSchema(own.schema, rule.field, lookup);
  if (!f) throw new CodegenError(file, jp(at, 'itemField'), `${rule.field.join('.')} is not a field of ${own.version}`);
  const t = schemaType(f);
  if (t === 'object' || t === 'array') throw new CodegenError(file, jp(at, 'itemField'), `${rule.field.join('.')} is ${t}: itemField mirrors a scalar`);
  if (fieldSchema(hub.schema, rule.field, lookup))
    throw new CodegenError(file, jp(at, 'itemField'), `${rule.field.join('.')} is a field of ${hub.version} too: only a field the hub lacks mirrors an item`);
  const item = itemSchema(file, jp(at, 'list'), hub.schema, rule.list, hub.version, lookup);
  const list = `${rule.list.join('.')} in ${hub.version}`;
  checkMatch(file, jp(at, 'match'), item, rule.match, [], list, lookup);
  const v = needInItem(file, jp(at, 'value'), item, rule.value, list, lookup);
  if (schemaType(v) !== t) throw new CodegenError(file, jp(at, 'value'), `${rule.value.join('.')} is ${schemaType(v) ?? 'untyped'} in the items, but ${rule.field.join('.')} is ${t ?? 'untyped'}`);
}
