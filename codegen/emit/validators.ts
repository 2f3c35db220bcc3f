// Emits generated/validators/: modules of ajv standalone code (kinds' schemas
// compiled ahead of time, shared sub-schemas compiled once per module): one
// per kind with its List, and one per group-version for the kinds that
// embed a PodSpec (validatorRoots), a copy of the error-mapping runtime, and
// index.ts with lazy loaders keyed by schema name. The translation of
// OpenAPI schemas into plain JSON Schema is the shared one
// (runtime/schema/json-schema.ts), which the runtime also compiles CRDs with.
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { readFileSync } from 'node:fs';
import type { Model } from '../model/types.ts';
import type { Shape } from '../templates/validator-runtime.ts';
import { QUANTITY } from '../load/schema-util.ts';
import { defRef, FORMATS, namedJsonSchema, shapeOf } from '../../runtime/schema/json-schema.ts';
import { gvksOf } from '../load/index.ts';
import { closure, rootsOfResources } from './reach.ts';
import { GENERATED_HEADER, ModuleWriter } from './printer.ts';

type Json = Record<string, unknown>;

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
