// Emits generated/validators/: modules of ajv standalone code (kinds' schemas
// compiled ahead of time, shared sub-schemas compiled once per module): one
// per kind with its List, and one per group-version for the kinds that
// embed a PodSpec (validatorRoots), a copy of the error-mapping runtime, and
// index.ts with lazy loaders keyed by schema name. Translates OpenAPI
// schemas into plain JSON Schema for ajv: unknown-field detection,
// int-or-string, Quantity, int32/int64 bounds, known formats.
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { readFileSync } from 'node:fs';
import type { Model, OpenAPISchema } from '../model/types.ts';
import type { Shape } from '../templates/validator-runtime.ts';
import { isIntOrString, isObject, properties, QUANTITY, refName, schemaType } from '../load/schema-util.ts';
import { gvksOf } from '../load/index.ts';
import { closure, rootsOfResources } from './reach.ts';
import { GENERATED_HEADER, ModuleWriter } from './printer.ts';

/** Formats checked, as regular expressions (others are ignored, as kube-apiserver ignores unknown formats). */
export const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  // The serialized form kube-apiserver accepts for a resource.Quantity string.
  quantity: /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/,
};

const INT32 = { minimum: -2147483648, maximum: 2147483647 };
// Go's int64 bounds as written; as doubles the maximum rounds up to 2^63, the nearest value JSON numbers carry
// eslint-disable-next-line no-loss-of-precision
const INT64 = { minimum: -9223372036854775808, maximum: 9223372036854775807 };

type Json = Record<string, unknown>;

const defRef = (name: string) => `defs#/definitions/${name}`;

function patternOk(p: string): boolean {
  try {
    new RegExp(p, 'u');
    return true;
  } catch {
    return false;
  }
}

/** OpenAPI schema -> JSON Schema for ajv (no vendor keywords). */
export function toJsonSchema(node: OpenAPISchema, topKind = false): Json {
  const n = refName(node);
  if (n !== undefined) return { $ref: defRef(n) };
  if (isIntOrString(node)) return { type: ['integer', 'string'] };
  const out: Json = {};
  const t = schemaType(node);
  if (t !== undefined) out.type = t;
  if (Array.isArray(node.enum)) out.enum = node.enum;
  for (const k of ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'multipleOf', 'minimum', 'maximum'] as const) {
    if (typeof node[k] === 'number') out[k] = node[k];
  }
  if (node.exclusiveMinimum === true && typeof node.minimum === 'number') {
    out.exclusiveMinimum = node.minimum;
    delete out.minimum;
  }
  if (node.exclusiveMaximum === true && typeof node.maximum === 'number') {
    out.exclusiveMaximum = node.maximum;
    delete out.maximum;
  }
  if (node.uniqueItems === true) out.uniqueItems = true;
  if (typeof node.pattern === 'string' && patternOk(node.pattern)) out.pattern = node.pattern;
  if (typeof node.format === 'string') {
    if (t === 'integer' && node.format === 'int32') {
      if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = INT32.minimum;
      if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = INT32.maximum;
    } else if (t === 'integer' && node.format === 'int64') {
      if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = INT64.minimum;
      if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = INT64.maximum;
    } else if (t === 'string' && node.format in FORMATS) out.format = node.format;
  }
  if (t === 'array' && isObject(node.items)) out.items = toJsonSchema(node.items);
  const props = properties(node);
  const names = Object.keys(props).sort();
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = node['x-kubernetes-embedded-resource'] === true;
  if (names.length > 0 || topKind) {
    const p: Json = {};
    for (const k of names) p[k] = toJsonSchema(props[k]);
    if (topKind || embedded) {
      p.apiVersion ??= { type: 'string' };
      p.kind ??= { type: 'string' };
    }
    out.properties = p;
  }
  if (Array.isArray(node.required) && node.required.length > 0) out.required = [...(node.required as string[])].sort();
  const ap = node.additionalProperties;
  if (isObject(ap)) out.additionalProperties = toJsonSchema(ap);
  else if (names.length > 0 && ap === undefined && !preserve && !embedded) out.additionalProperties = false;
  for (const comb of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[comb];
    if (Array.isArray(list) && list.length > 0) out[comb] = list.filter(isObject).map((s) => toJsonSchema(s));
  }
  if (isObject(node.not)) out.not = toJsonSchema(node.not);
  if (node.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** The JSON Schema of a named schema (Quantity accepts a number or a quantity string). */
export function namedJsonSchema(name: string, schema: OpenAPISchema, isKind: boolean): Json {
  if (name === QUANTITY) return { type: ['string', 'number'], format: 'quantity' };
  return toJsonSchema(schema, isKind);
}

/** Field-path shape of a schema: only the parts that lead to lists and maps. */
export function shapeOf(node: OpenAPISchema): Shape | string | undefined {
  const n = refName(node);
  if (n !== undefined) return n;
  const s: Shape = {};
  const props = properties(node);
  const p: Record<string, Shape | string> = {};
  for (const k of Object.keys(props).sort()) {
    const sub = shapeOf(props[k]);
    if (sub !== undefined) p[k] = sub;
  }
  if (Object.keys(p).length > 0) s.p = p;
  if (isObject(node.items)) {
    const a = shapeOf(node.items);
    s.a = a ?? {};
  }
  if (isObject(node.additionalProperties)) s.m = shapeOf(node.additionalProperties) ?? {};
  else if (node.additionalProperties === true || (Object.keys(props).length === 0 && schemaType(node) === 'object')) s.m = {};
  if (s.p === undefined && s.a === undefined && s.m === undefined) return undefined;
  return s;
}

function moduleFile(group: string, version: string): string {
  return `${group === '' ? 'core' : group}_${version}`;
}

/**
 * The most definitions a kind's validator may reach and still have a module
 * of its own. The larger kinds of a group-version (those embedding a PodSpec)
 * share the group-version's module instead: their closures mostly overlap,
 * and one copy of them is smaller than one per kind.
 */
export const OWN_MODULE_MAX_DEFINITIONS = 40;

export interface ValidatorModules {
  /** File name (without .ts) -> module text. */
  modules: Map<string, string>;
  index: string;
  runtime: string;
}

/**
 * Root schemas needing validators, grouped by the module they are compiled
 * into: `<group>_<version>.<Kind>` for a kind (with its List) of at most
 * OWN_MODULE_MAX_DEFINITIONS definitions, so that a write loads the code of
 * its own kind only; `<group>_<version>` for the larger kinds of the
 * group-version.
 */
export function validatorRoots(model: Model): Map<string, string[]> {
  const roots = rootsOfResources(model, model.resources);
  const gvkOf = new Map(roots.map((name) => [name, gvksOf(model.schemas.get(name)!.schema)[0]]));
  // (group-version file, kind) -> root schema, to find a List's item kind
  const byKind = new Map<string, string>();
  for (const [name, g] of gvkOf) if (g) byKind.set(`${moduleFile(g.group, g.version)}/${g.kind}`, name);
  const sizes = new Map<string, number>();
  const sizeOf = (root: string) => {
    let n = sizes.get(root);
    if (n === undefined) sizes.set(root, (n = closure(model, [root]).length));
    return n;
  };
  const byModule = new Map<string, string[]>();
  for (const name of roots) {
    const g = gvkOf.get(name);
    let file = g ? moduleFile(g.group, g.version) : 'misc';
    if (g) {
      const item = g.kind.endsWith('List') ? g.kind.slice(0, -'List'.length) : undefined;
      const family = item !== undefined && byKind.has(`${file}/${item}`) ? item : g.kind;
      if (sizeOf(byKind.get(`${file}/${family}`) ?? name) <= OWN_MODULE_MAX_DEFINITIONS) file = `${file}.${family}`;
    }
    byModule.set(file, [...(byModule.get(file) ?? []), name]);
  }
  return byModule;
}

/** ajv's way of adding a callee's errors to the caller's list (`vErrors = vErrors === null ? f.errors : vErrors.concat(f.errors);`). */
const CONCAT_ERRORS = /vErrors = vErrors === null \? ([A-Za-z0-9_.]+)\.errors : vErrors\.concat\(\1\.errors\);/g;

export function emitValidatorModule(model: Model, roots: string[]): string {
  const names = closure(model, roots);
  const definitions: Json = {};
  const shapes: Record<string, Shape> = {};
  const rootSet = new Set(roots);
  for (const name of names) {
    const s = model.schemas.get(name)!;
    definitions[name] = namedJsonSchema(name, s.schema, rootSet.has(name));
    const shape = name === QUANTITY ? undefined : shapeOf(s.schema);
    if (shape !== undefined && typeof shape !== 'string') shapes[name] = shape;
  }
  const ajv = new Ajv({ allErrors: true, strict: false, inlineRefs: false, code: { source: true, esm: true, lines: false }, formats: FORMATS });
  ajv.addSchema({ $id: 'defs', definitions });
  const exportsMap: Record<string, string> = {};
  roots.forEach((r, i) => {
    ajv.addSchema({ $id: `root${i}`, $ref: defRef(r) });
    exportsMap[`v${i}`] = `root${i}`;
  });
  // The CommonJS default export is the function itself; its typings describe a namespace.
  const standaloneCode = standalone as unknown as typeof standalone.default;
  let code = standaloneCode(ajv, exportsMap);
  code = code.replace(/^"use strict";/, '');
  // ajv gathers a callee's errors with concat, which copies the whole list at
  // every call: quadratic when thousands of list items each fail. Append instead.
  code = code.replace(CONCAT_ERRORS, (_m, callee: string) => `vErrors = appendErrors(vErrors, ${callee}.errors);`);
  if (code.includes('vErrors.concat(')) throw new Error('validators: an ajv error concatenation was left unrewritten');
  const w = new ModuleWriter(`Validators compiled ahead of time (ajv standalone) for:\n${roots.map((r) => `  ${r}`).join('\n')}`, true);
  w.importValue('wrap', './runtime.ts');
  w.importValue('appendErrors', './runtime.ts');
  w.importType('Shape', './runtime.ts');
  w.importType('SchemaValidator', '../api-types.ts');
  w.importValue('createRequire', 'node:module');
  w.line('const require = createRequire(import.meta.url);');
  w.line(`const shapes: Record<string, Shape> = ${JSON.stringify(shapes)};`);
  w.line(code);
  w.line(`export const validators: Record<string, SchemaValidator> = {`);
  roots.forEach((r, i) => w.line(`  ${JSON.stringify(r)}: wrap(v${i}, ${JSON.stringify(r)}, shapes),`));
  w.line('};');
  return w.toString();
}

export function emitValidators(model: Model, templatesDir: string): ValidatorModules {
  const modules = new Map<string, string>();
  const groups = validatorRoots(model);
  const w = new ModuleWriter(
    'Lazy validators keyed by schema name: each loader imports its module (one\nper kind, or per group-version for the kinds embedding a PodSpec) on first\nuse, so only kinds in use are loaded.',
  );
  w.importType('SchemaValidator', '../api-types.ts');
  const entries: [string, string][] = [];
  for (const file of [...groups.keys()].sort()) {
    const roots = groups.get(file)!.sort();
    modules.set(file, emitValidatorModule(model, roots));
    for (const r of roots) entries.push([r, file]);
  }
  entries.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  w.line('const load = (file: string, name: string) => async (): Promise<SchemaValidator> => {');
  w.line('  const mod = (await loaders[file]()) as { validators: Record<string, SchemaValidator> };');
  w.line('  return mod.validators[name];');
  w.line('};');
  w.line('');
  w.line('const loaders: Record<string, () => Promise<unknown>> = {');
  for (const file of [...groups.keys()].sort()) w.line(`  ${JSON.stringify(file)}: () => import('./${file}.ts'),`);
  w.line('};');
  w.line('');
  w.line('export const validators: Record<string, () => Promise<SchemaValidator>> = {');
  for (const [name, file] of entries) w.line(`  ${JSON.stringify(name)}: load(${JSON.stringify(file)}, ${JSON.stringify(name)}),`);
  w.line('};');
  const template = readFileSync(`${templatesDir}/validator-runtime.ts`, 'utf8').replace("from './api-types.ts'", "from '../api-types.ts'");
  return { modules, index: w.toString(), runtime: `${GENERATED_HEADER}\n${template}` };
}
