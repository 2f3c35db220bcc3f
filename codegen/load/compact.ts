// Reads the compact resource declaration `x-specserver-resources` of one
// OpenAPI document into partial resource records (docs/spec-format.md).
// Checks field types and allowed values; the kind's schema is found later.
import type { PrinterColumn, SubresourceDef, Verb } from '../templates/api-types.ts';
import { CodegenError, jp } from './errors.ts';
import { isObject } from './schema-util.ts';
import { readPrinterColumns as readColumns } from '../../runtime/schema/printer-columns.ts';

export const VERBS: Verb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const VERB_ORDER = new Map(VERBS.map((v, i) => [v, i]));

export function sortVerbs(vs: Iterable<Verb>): Verb[] {
  return [...new Set(vs)].sort((a, b) => VERB_ORDER.get(a)! - VERB_ORDER.get(b)!);
}

export interface DeclaredResource {
  kind: string;
  listKind?: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  verbs: Verb[];
  shortNames: string[];
  categories: string[];
  subresources: SubresourceDef[];
  printerColumns: PrinterColumn[];
  selectableFields: string[];
  allowCreateOnUpdate: boolean;
  nameRule: 'subdomain' | 'label' | 'path-segment';
  virtual: boolean;
  deprecation?: { deprecatedIn?: string; removedIn?: string; replacement?: { group: string; version: string; kind: string } };
  jsonPath: string;
}

type Reader = { file: string };

function str(r: Reader, o: Record<string, unknown>, key: string, at: string, def?: string): string {
  const v = o[key];
  if (v === undefined && def !== undefined) return def;
  if (typeof v !== 'string' || v === '') throw new CodegenError(r.file, jp(at, key), `${key} must be a non-empty string`);
  return v;
}

function strList(r: Reader, o: Record<string, unknown>, key: string, at: string): string[] {
  const v = o[key];
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new CodegenError(r.file, jp(at, key), `${key} must be a list of strings`);
  return [...v] as string[];
}

function bool(r: Reader, o: Record<string, unknown>, key: string, at: string, def: boolean): boolean {
  const v = o[key];
  if (v === undefined) return def;
  if (typeof v !== 'boolean') throw new CodegenError(r.file, jp(at, key), `${key} must be a boolean`);
  return v;
}

function oneOf<T extends string>(r: Reader, o: Record<string, unknown>, key: string, at: string, allowed: readonly T[], def: T): T {
  const v = o[key];
  if (v === undefined) return def;
  if (typeof v !== 'string' || !allowed.includes(v as T)) {
    throw new CodegenError(r.file, jp(at, key), `unknown ${key} ${JSON.stringify(v)} (want one of ${allowed.join(', ')})`);
  }
  return v as T;
}

export function verbList(file: string, v: unknown, at: string): Verb[] {
  if (!Array.isArray(v)) throw new CodegenError(file, at, 'verbs must be a list');
  v.forEach((x, i) => {
    if (!VERBS.includes(x as Verb)) throw new CodegenError(file, jp(at, i), `unknown verb ${JSON.stringify(x)} (want one of ${VERBS.join(', ')})`);
  });
  return sortVerbs(v as Verb[]);
}

export function readPrinterColumns(file: string, v: unknown, at: string): PrinterColumn[] {
  return readColumns(v, at, (p, msg) => {
    throw new CodegenError(file, p, msg);
  });
}

export function readCompact(file: string, list: unknown, at: string): DeclaredResource[] {
  if (!Array.isArray(list)) throw new CodegenError(file, at, 'x-specserver-resources must be a list');
  const r = { file };
  return list.map((e, i) => {
    const p = jp(at, i);
    if (!isObject(e)) throw new CodegenError(file, p, 'a resource entry must be an object');
    const kind = str(r, e, 'kind', p);
    const subs = e.subresources === undefined ? [] : e.subresources;
    if (!Array.isArray(subs)) throw new CodegenError(file, jp(p, 'subresources'), 'subresources must be a list');
    const subresources: SubresourceDef[] = subs.map((s, j) => {
      const sp = jp(jp(p, 'subresources'), j);
      if (!isObject(s)) throw new CodegenError(file, sp, 'a subresource must be an object');
      const d: SubresourceDef = { name: str(r, s, 'name', sp), kind: str(r, s, 'kind', sp, kind), verbs: verbList(file, s.verbs ?? [], jp(sp, 'verbs')) };
      if (s.group !== undefined) d.group = typeof s.group === 'string' ? s.group : str(r, s, 'group', sp);
      if (s.version !== undefined) d.version = str(r, s, 'version', sp);
      return d;
    });
    const verbs = verbList(file, e.verbs ?? [], jp(p, 'verbs'));
    const virtualDefault = verbs.length === 1 && verbs[0] === 'create';
    const decl: DeclaredResource = {
      kind,
      ...(e.listKind !== undefined ? { listKind: str(r, e, 'listKind', p) } : {}),
      plural: str(r, e, 'plural', p),
      singular: str(r, e, 'singular', p, kind.toLowerCase()),
      namespaced: oneOf(r, e, 'scope', p, ['Namespaced', 'Cluster'] as const, 'Namespaced') === 'Namespaced',
      verbs,
      shortNames: strList(r, e, 'shortNames', p),
      categories: strList(r, e, 'categories', p),
      subresources: subresources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      printerColumns: readPrinterColumns(file, e.printerColumns, jp(p, 'printerColumns')),
      selectableFields: strList(r, e, 'selectableFields', p),
      allowCreateOnUpdate: bool(r, e, 'allowCreateOnUpdate', p, false),
      nameRule: oneOf(r, e, 'nameRule', p, ['subdomain', 'label', 'path-segment'] as const, 'subdomain'),
      virtual: bool(r, e, 'virtual', p, virtualDefault),
      jsonPath: p,
    };
    if (isObject(e.deprecation)) decl.deprecation = e.deprecation as DeclaredResource['deprecation'];
    return decl;
  });
}
