// Settles which definition of a schema name the model uses when several
// documents define it. An upstream kube-apiserver document carries its own
// copies of every type it refers to (ObjectMeta, Time, core's Toleration,
// ...), from whatever release it was taken from. The definition used is the
// home one, whatever the file order: a name defined in api-specs/meta/ comes
// from there; otherwise from the document that serves the name's package (a
// document serves the packages of its kinds); otherwise the first by path.
// Other definitions of a name with a home are copies: checked against the
// home one (same fields, same types and list/map behaviour; a field only the
// copy has is an error unless upstream removed it) and otherwise ignored.
import type { NamedSchema, OpenAPISchema } from '../model/types.ts';
import { CodegenError, jp } from './errors.ts';
import { isObject, properties } from './schema-util.ts';
import { schemaConflict } from './compare.ts';

const GVK = 'x-kubernetes-group-version-kind';

/** A definition of a name as read, with where it stands among the definitions of that name. */
export interface SchemaDef extends NamedSchema {
  /** From api-specs/meta/. */
  meta: boolean;
  /** Its document serves the name's package (or it is a CRD's own schema). */
  home: boolean;
}

/**
 * Fields upstream documents of older releases still carry that the API no
 * longer has: a copy may hold them, they are left out (with a note).
 * ObjectMeta.clusterName was removed in 1.25 (its protobuf number 15 is not reused).
 */
export const REMOVED_UPSTREAM_FIELDS: Record<string, string[]> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': ['clusterName'],
};

/** `io.k8s.api.core.v1.Pod` -> `io.k8s.api.core.v1`. */
export function packageOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(0, i);
}

function gvkCount(s: OpenAPISchema): number {
  const v = s[GVK];
  return Array.isArray(v) ? v.length : 0;
}

/** The packages a document's schemas serve: those of its kinds (schemas with exactly one group-version-kind). */
export function servedPackages(schemas: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  for (const [name, s] of Object.entries(schemas)) if (isObject(s) && gvkCount(s) === 1) out.add(packageOf(name));
  return out;
}

const isDeprecatedProse = (s: OpenAPISchema) => typeof s.description === 'string' && /^deprecated\b/i.test(s.description.trim());

/**
 * Fields a copy has and the home definition lacks, at any depth of inline
 * objects: removed upstream fields (or fields described as deprecated) are
 * returned as notes; any other is a CodegenError naming both files.
 */
function extraFields(home: SchemaDef, copy: SchemaDef, a: OpenAPISchema, b: OpenAPISchema, path: string, notes: string[]): void {
  const pa = properties(a);
  const pb = properties(b);
  const removed = path === '$' ? (REMOVED_UPSTREAM_FIELDS[home.name] ?? []) : [];
  for (const k of Object.keys(pb).sort()) {
    const at = jp(jp(path, 'properties'), k);
    if (k in pa) {
      extraFields(home, copy, pa[k], pb[k], at, notes);
      continue;
    }
    if (removed.includes(k) || isDeprecatedProse(pb[k])) {
      notes.push(
        `${copy.file}: ${copy.jsonPath + at.slice(1)}: field ${JSON.stringify(k)} of ${home.name} is not part of the API (removed or deprecated upstream); ignored, the definition in ${home.file} is used`,
      );
      continue;
    }
    throw new CodegenError(
      copy.file,
      copy.jsonPath + at.slice(1),
      `this copy of ${JSON.stringify(home.name)} has a field ${JSON.stringify(k)} that its definition in ${home.file} lacks (copies of shared types must have the same fields)`,
    );
  }
  for (const k of ['items', 'additionalProperties'] as const) {
    const x = a[k];
    const y = b[k];
    if (isObject(x) && isObject(y)) extraFields(home, copy, x, y, jp(path, k), notes);
  }
}

/** Checks a copy against the home definition: returns notes, throws a CodegenError naming both files when they disagree. */
export function checkCopy(home: SchemaDef, copy: SchemaDef): string[] {
  const conflict = schemaConflict(home.schema, copy.schema);
  if (conflict !== null) {
    throw new CodegenError(
      copy.file,
      copy.jsonPath + conflict.slice(1),
      `this copy of ${JSON.stringify(home.name)} disagrees with its definition in ${home.file} (at ${conflict}): types, references and list/map markers must match`,
    );
  }
  const notes: string[] = [];
  extraFields(home, copy, home.schema, copy.schema, '$', notes);
  return notes;
}

/** Definitions of the same standing (both home, or neither): must agree in structure; group-version-kinds are joined (meta types list every group). */
function mergeSame(first: SchemaDef, other: SchemaDef): void {
  const conflict = schemaConflict(first.schema, other.schema);
  if (conflict !== null) {
    throw new CodegenError(other.file, other.jsonPath, `schema ${JSON.stringify(other.name)} differs in structure from its definition in ${first.file} (at ${conflict})`);
  }
  const gvks = (s: OpenAPISchema) => (Array.isArray(s[GVK]) ? (s[GVK] as unknown[]).filter(isObject) : []);
  const merged = [...gvks(first.schema)];
  for (const g of gvks(other.schema)) if (!merged.some((m) => m.group === g.group && m.version === g.version && m.kind === g.kind)) merged.push(g);
  if (merged.length > 0) first.schema = { ...first.schema, [GVK]: merged };
}

/** The definition to use for each name (definitions in path order per name), and notes about ignored copies. */
export function settleSchemas(defs: Map<string, SchemaDef[]>): { schemas: Map<string, NamedSchema>; notes: string[] } {
  const schemas = new Map<string, NamedSchema>();
  const notes: string[] = [];
  for (const [name, list] of defs) {
    let at = list.findIndex((d) => d.meta);
    if (at < 0) at = list.findIndex((d) => d.home);
    if (at < 0) at = 0;
    const chosen = { ...list[at] };
    list.forEach((d, i) => {
      if (i === at) return;
      const copy = (chosen.meta && !d.meta) || (!chosen.meta && chosen.home && !d.home);
      if (copy) notes.push(...checkCopy(chosen, d));
      else mergeSame(chosen, d);
    });
    schemas.set(name, { name, schema: chosen.schema, file: chosen.file, jsonPath: chosen.jsonPath, custom: chosen.custom });
  }
  return { schemas, notes };
}
