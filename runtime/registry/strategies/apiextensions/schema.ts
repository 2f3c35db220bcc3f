// Validation of a CustomResourceDefinition's openAPIV3Schema as
// apiextensions-apiserver does it for v1: the OpenAPI subset Kubernetes
// accepts (no $ref, definitions, patternProperties, ...), the
// x-kubernetes-* marker rules, the structural-schema invariants (types
// everywhere, metadata restricted to name and generateName, no
// additionalProperties next to properties or at the root, nothing
// structural inside allOf/anyOf/oneOf/not), and, when the schema is
// otherwise valid, the x-kubernetes-validations rules compiled with their
// cost limits. The walk is linear in the schema's size and bounded in
// depth (deeper nesting is one error, not a stack overflow). Upstream's texts.
import { compilePattern, MAX_PATTERN_COST, MAX_PATTERN_LENGTH, patternCost } from '../../../schema/re2.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { GoValue } from '../../../api/go-format.ts';
import type { JSONSchema } from '../../../cel/schema/types.ts';

// The CEL module is large and only CRD writes need it: loaded by loadCRDRules(), which the strategy awaits before a write.
let rules: typeof import('../../../cel/rules/index.ts') | undefined;

/** Loads the x-kubernetes-validations compiler that validateCRDSchema uses. */
export async function loadCRDRules(): Promise<void> {
  rules ??= await import('../../../cel/rules/index.ts');
}

type Schema = Record<string, unknown>;
type Level = 'root' | 'item' | 'field';

const OPENAPI_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
/** Fields allowed at the root when the status subresource is on (upstream's allowedFieldsAtRootSchema, in JSON names). */
const ALLOWED_AT_ROOT_WITH_STATUS = new Set([
  'description',
  'type',
  'format',
  'title',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'required',
  'items',
  'properties',
  'externalDocs',
  'example',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-validations',
]);
const ALLOWED_AT_ROOT_TEXT =
  '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';
/** Nesting beyond this is refused with one error rather than walked (the decoders stop at 256 levels first). */
export const MAX_SCHEMA_DEPTH = 256;

const isObj = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

interface Ctx {
  level: Level;
  insideResourceMeta: boolean;
  forbidDefaults?: string;
  depth: number;
}

export interface SchemaOptions {
  statusEnabled: boolean;
}

export function validateCRDSchema(schema: unknown, path: string, opts: SchemaOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (!isObj(schema)) return errs;
  if (opts.statusEnabled) {
    for (const k of Object.keys(schema)) {
      if (k === 'type') {
        if (schema.type !== 'object') {
          errs.push(fieldErrors.invalid(`${path}.type`, schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
          break;
        }
        continue;
      }
      if (!ALLOWED_AT_ROOT_WITH_STATUS.has(k) && !isZero(schema[k])) {
        errs.push(
          fieldErrors.invalid(
            path,
            new GoValue('apiextensions.JSONSchemaProps{...}'),
            `only ${ALLOWED_AT_ROOT_TEXT} fields are allowed at the root of the schema if the status subresource is enabled`,
          ),
        );
        break;
      }
    }
  }
  if (schema.nullable === true) errs.push(fieldErrors.forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  const structural: FieldError[] = [];
  patternBudget = { left: MAX_PATTERN_COST, spent: false };
  try {
    walk(schema, path, { level: 'root', insideResourceMeta: false, depth: 0 }, errs, structural);
  } finally {
    patternBudget = undefined;
  }
  structural.sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
  errs.push(...structural);
  if (errs.length === 0) {
    if (!rules) throw new Error('the CEL rule compiler is not loaded (await loadCRDRules() first)');
    errs.push(...rules.ruleValidator(schema as JSONSchema, { schemaPath: path, resourceRoot: true }).compileErrors);
  }
  return errs;
}

function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === false || v === '' || v === 0 || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
}

/** One schema node: the OpenAPI subset, markers and structural invariants, then its children. */
function walk(s: Schema, path: string, ctx: Ctx, errs: FieldError[], structural: FieldError[]): void {
  if (ctx.depth > MAX_SCHEMA_DEPTH) {
    errs.push(fieldErrors.forbidden(path, `must not be nested more than ${MAX_SCHEMA_DEPTH} levels deep`));
    return;
  }
  subset(s, path, ctx, errs);
  markers(s, path, errs);
  invariants(s, path, ctx, structural);
  const ap = s.additionalProperties;
  const props = isObj(s.properties) ? s.properties : undefined;
  if (ap !== undefined && ap !== null) {
    if (props && Object.keys(props).length > 0 && (ap === false || isObj(ap)))
      errs.push(fieldErrors.forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    if (isObj(ap)) {
      const sub: Ctx = { ...ctx, level: 'field', depth: ctx.depth + 1 };
      if (ctx.insideResourceMeta) sub.forbidDefaults = 'inside additionalProperties applying to object metadata';
      walk(ap, `${path}.additionalProperties`, sub, errs, structural);
    }
  }
  if (props) {
    for (const [name, ps] of Object.entries(props)) {
      const sub: Ctx = { ...ctx, level: 'field', depth: ctx.depth + 1 };
      if ((ctx.level === 'root' || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(name)) {
        sub.insideResourceMeta = true;
        if (ctx.level === 'root') sub.forbidDefaults = `in top-level ${name}`;
      }
      if (isObj(ps)) walk(ps, `${path}.properties[${name}]`, sub, errs, structural);
    }
  }
  if (isObj(s.items)) walk(s.items, `${path}.items`, { ...ctx, level: 'item', depth: ctx.depth + 1 }, errs, structural);
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[junctor];
    if (Array.isArray(list)) list.forEach((x, i) => isObj(x) && nested(x, `${path}.${junctor}[${i}]`, junctor, errs, structural, ctx.depth + 1, intOrStringPattern(s, junctor, i)));
  }
  if (isObj(s.not)) nested(s.not, `${path}.not`, 'not', errs, structural, ctx.depth + 1, false);
}

/** The OpenAPI v3 subset a CRD may use (upstream's specStandardValidatorV3). */
function subset(s: Schema, path: string, ctx: Ctx, errs: FieldError[]): void {
  const type = s.type;
  if (typeof type === 'string' && type !== '' && type !== 'null' && !OPENAPI_TYPES.includes(type)) errs.push(fieldErrors.notSupported(`${path}.type`, type, OPENAPI_TYPES));
  if (s.default !== undefined && ctx.forbidDefaults !== undefined) errs.push(fieldErrors.forbidden(`${path}.default`, `must not be set ${ctx.forbidDefaults}`));
  if (str(s.id) !== '') errs.push(fieldErrors.forbidden(`${path}.id`, 'id is not supported'));
  if (s.additionalItems !== undefined) errs.push(fieldErrors.forbidden(`${path}.additionalItems`, 'additionalItems is not supported'));
  if (isObj(s.patternProperties) && Object.keys(s.patternProperties).length > 0) errs.push(fieldErrors.forbidden(`${path}.patternProperties`, 'patternProperties is not supported'));
  if (isObj(s.definitions) && Object.keys(s.definitions).length > 0) errs.push(fieldErrors.forbidden(`${path}.definitions`, 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(fieldErrors.forbidden(`${path}.dependencies`, 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(fieldErrors.forbidden(`${path}.$ref`, '$ref is not supported'));
  if (type === 'null') errs.push(fieldErrors.forbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items)) errs.push(fieldErrors.forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) errs.push(fieldErrors.forbidden(`${path}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
  if (s.uniqueItems === true) errs.push(fieldErrors.forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
}

/** The x-kubernetes-* markers (list type and keys, map type, preserve-unknown-fields). */
function markers(s: Schema, path: string, errs: FieldError[]): void {
  const type = str(s.type);
  const pres = s['x-kubernetes-preserve-unknown-fields'];
  if (pres === false) errs.push(fieldErrors.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined) {
    if (type !== 'object') {
      if (type === '') errs.push(fieldErrors.required(`${path}.type`, 'must be object if x-kubernetes-map-type is specified'));
      else errs.push(fieldErrors.invalid(`${path}.type`, type, 'must be object if x-kubernetes-map-type is specified'));
    }
    if (mapType !== 'atomic' && mapType !== 'granular') errs.push(fieldErrors.notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  }
  const listType = s['x-kubernetes-list-type'];
  const items = isObj(s.items) ? s.items : undefined;
  if (listType !== undefined && type !== 'array') {
    if (type === '') errs.push(fieldErrors.required(`${path}.type`, 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(fieldErrors.invalid(`${path}.type`, type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && items) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      errs.push(fieldErrors.invalid(`${path}.items.x-kubernetes-list-type`, items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(fieldErrors.invalid(`${path}.items.x-kubernetes-map-type`, items['x-kubernetes-list-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map')
    errs.push(fieldErrors.notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? (s['x-kubernetes-list-map-keys'] as unknown[]) : [];
  if (keys.length > 0) {
    if (listType === undefined) errs.push(fieldErrors.required(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(fieldErrors.invalid(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (keys.length === 0) errs.push(fieldErrors.required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    if (s.items === undefined) errs.push(fieldErrors.required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    if (items && items.type !== 'object') errs.push(fieldErrors.invalid(`${path}.items.type`, items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    if (items && items.type === 'object') {
      const props = isObj(items.properties) ? items.properties : {};
      const seen = new Set<unknown>();
      const keyList = keys.map(String);
      for (const k of keys) {
        const ks = typeof k === 'string' && Object.hasOwn(props, k) ? props[k] : undefined;
        if (isObj(ks)) {
          if (ks.type === 'array' || ks.type === 'object')
            errs.push(fieldErrors.invalid(`${path}.items.properties[${k}].type`, items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
        } else errs.push(fieldErrors.invalid(`${path}.x-kubernetes-list-map-keys`, keyList, 'entries must all be names of item properties'));
        if (seen.has(k)) errs.push(fieldErrors.invalid(`${path}.x-kubernetes-list-map-keys`, keyList, 'must not contain duplicate entries'));
        seen.add(k);
      }
      const required = new Set(Array.isArray(items.required) ? items.required : []);
      for (const k of keys) {
        const ks = typeof k === 'string' && Object.hasOwn(props, k) ? props[k] : undefined;
        if (!isObj(ks)) continue;
        if (!required.has(k) && ks.default === undefined)
          errs.push(fieldErrors.required(`${path}.items.properties[${k}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
        if (ks.nullable === true) errs.push(fieldErrors.forbidden(`${path}.items.properties[${k}].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
      }
    }
  }
  if ((listType === 'set' || listType === 'map') && items && items.nullable === true)
    errs.push(fieldErrors.forbidden(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
}

/** Structural-schema invariants of one node (upstream's validateStructuralInvariants). */
function invariants(s: Schema, path: string, ctx: Ctx, out: FieldError[]): void {
  const type = str(s.type);
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (type === 'array' && s.items === undefined) out.push(fieldErrors.required(`${path}.items`, 'must be specified'));
  if (s.additionalProperties !== undefined && ctx.level === 'root') out.push(fieldErrors.forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
  if (intOrString && preserve) out.push(fieldErrors.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) out.push(fieldErrors.invalid(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  pattern(s, path, out);
  if (embedded && type !== 'object') {
    if (type === '') out.push(fieldErrors.required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else out.push(fieldErrors.invalid(`${path}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !intOrString && !preserve) {
    const why = ctx.level === 'root' ? 'must not be empty at the root' : ctx.level === 'item' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields';
    out.push(fieldErrors.required(`${path}.type`, why));
  }
  if (embedded && s.additionalProperties !== undefined) out.push(fieldErrors.forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (ctx.level === 'root' && type !== '' && type !== 'object') out.push(fieldErrors.invalid(`${path}.type`, type, 'must be object at the root'));
  const props = isObj(s.properties) ? s.properties : {};
  const checkMeta = ctx.level === 'root' || embedded;
  for (const f of ['kind', 'apiVersion']) {
    const p = props[f];
    if (checkMeta && isObj(p) && p.type !== 'string') out.push(fieldErrors.invalid(`${path}.properties[${f}].type`, str(p.type), 'must be string'));
  }
  const meta = props.metadata;
  if (isObj(meta)) {
    if (checkMeta && meta.type !== 'object') out.push(fieldErrors.invalid(`${path}.properties[metadata].type`, str(meta.type), 'must be object'));
    if (ctx.level === 'root') {
      const extra = Object.keys(meta).filter((k) => !['type', 'default', 'properties'].includes(k) && !isZero(meta[k]));
      const mp = isObj(meta.properties) ? Object.keys(meta.properties) : [];
      const onlyNames = mp.every((k) => k === 'name' || k === 'generateName');
      if (extra.length > 0 || !onlyNames)
        out.push(fieldErrors.forbidden(`${path}.properties[metadata]`, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  if (embedded && !preserve && Object.keys(props).length === 0)
    out.push(fieldErrors.required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
}

/** What is left of one schema's pattern budget (runtime/schema/re2.ts) while validateCRDSchema walks it (synchronously). */
let patternBudget: { left: number; spent: boolean } | undefined;

/**
 * A pattern must compile as RE2 (Go's regexp, which upstream compiles it
 * with; JavaScript's syntax differs), within our size limits: they are
 * checked first, so an oversized pattern is never compiled.
 */
function pattern(s: Schema, path: string, out: FieldError[]): void {
  if (typeof s.pattern !== 'string' || s.pattern === '') return;
  if (s.pattern.length > MAX_PATTERN_LENGTH) {
    out.push(fieldErrors.tooLong(`${path}.pattern`, MAX_PATTERN_LENGTH));
    return;
  }
  if (patternBudget) {
    patternBudget.left -= patternCost(s.pattern);
    if (patternBudget.left < 0) {
      if (!patternBudget.spent)
        out.push(fieldErrors.forbidden(`${path}.pattern`, `the patterns of this schema are too large to check: their lengths and repetition counts add up to more than ${MAX_PATTERN_COST}`));
      patternBudget.spent = true;
      return;
    }
  }
  try {
    compilePattern(s.pattern);
  } catch (e) {
    out.push(fieldErrors.invalid(`${path}.pattern`, s.pattern, `must be a valid regular expression, but isn't: ${(e as Error).message}`));
  }
}

/** `anyOf: [{type: integer}, {type: string}]` directly, or as the first allOf entry, under x-kubernetes-int-or-string. */
function intOrStringPattern(s: Schema, junctor: string, i: number): boolean {
  const pair = (l: unknown) =>
    Array.isArray(l) && l.length === 2 && isObj(l[0]) && isObj(l[1]) && Object.keys(l[0]).join() === 'type' && l[0].type === 'integer' && Object.keys(l[1]).join() === 'type' && l[1].type === 'string';
  if (junctor === 'anyOf') return pair(s.anyOf);
  if (junctor === 'allOf' && i === 0) return isObj((s.allOf as unknown[])[0]) && pair(((s.allOf as unknown[])[0] as Schema).anyOf);
  return false;
}

/** A schema under allOf/anyOf/oneOf/not: value validation only (upstream's validateNestedValueValidation). */
function nested(s: Schema, path: string, junctor: string, errs: FieldError[], out: FieldError[], depth: number, intOrString: boolean): void {
  if (depth > MAX_SCHEMA_DEPTH) {
    errs.push(fieldErrors.forbidden(path, `must not be nested more than ${MAX_SCHEMA_DEPTH} levels deep`));
    return;
  }
  if (intOrString && junctor === 'anyOf') return;
  const forbidden: [string, string][] = [];
  if (str(s.type) !== '') forbidden.push(['type', 'must be empty to be structural']);
  if (s.additionalProperties !== undefined) forbidden.push(['additionalProperties', 'must be undefined to be structural']);
  if (s.default !== undefined) forbidden.push(['default', 'must be undefined to be structural']);
  if (str(s.title) !== '') forbidden.push(['title', 'must be empty to be structural']);
  if (str(s.description) !== '') forbidden.push(['description', 'must be empty to be structural']);
  if (s.nullable === true) forbidden.push(['nullable', 'must be false to be structural']);
  if (s.externalDocs !== undefined) forbidden.push(['externalDocs', 'must be undefined to be structural']);
  if (s['x-kubernetes-preserve-unknown-fields'] === true) forbidden.push(['x-kubernetes-preserve-unknown-fields', 'must be false to be structural']);
  if (s['x-kubernetes-embedded-resource'] === true) forbidden.push(['x-kubernetes-embedded-resource', 'must be false to be structural']);
  if (s['x-kubernetes-int-or-string'] === true) forbidden.push(['x-kubernetes-int-or-string', 'must be false to be structural']);
  if (Array.isArray(s['x-kubernetes-list-map-keys']) && s['x-kubernetes-list-map-keys'].length > 0) forbidden.push(['x-kubernetes-list-map-keys', 'must be empty to be structural']);
  if (s['x-kubernetes-list-type'] !== undefined) forbidden.push(['x-kubernetes-list-type', 'must be undefined to be structural']);
  if (s['x-kubernetes-map-type'] !== undefined) forbidden.push(['x-kubernetes-map-type', 'must be undefined to be structural']);
  if (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0 && junctor !== 'allOf') forbidden.push(['x-kubernetes-validations', 'must be empty to be structural']);
  for (const [f, why] of forbidden) out.push(fieldErrors.forbidden(`${path}.${f}`, why));
  pattern(s, path, out);
  const props = isObj(s.properties) ? s.properties : {};
  if (Object.hasOwn(props, 'metadata')) out.push(fieldErrors.forbidden(`${path}.properties[metadata]`, 'must not be specified in a nested context'));
  for (const [k, ps] of Object.entries(props)) if (isObj(ps)) nested(ps, `${path}.properties[${k}]`, junctor, errs, out, depth + 1, false);
  if (isObj(s.items)) nested(s.items, `${path}.items`, junctor, errs, out, depth + 1, false);
  for (const j of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[j];
    if (Array.isArray(list)) list.forEach((x, i) => isObj(x) && nested(x, `${path}.${j}[${i}]`, j === 'allOf' ? junctor : j, errs, out, depth + 1, false));
  }
  if (isObj(s.not)) nested(s.not, `${path}.not`, 'not', errs, out, depth + 1, false);
}
