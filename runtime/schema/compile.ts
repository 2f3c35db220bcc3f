// A CustomResourceDefinition compiled for serving at run time: the shared
// translation (crd.ts, json-schema.ts, merge-types.ts) applied to a stored
// CRD, with the validators compiled by ajv in memory from the same JSON
// Schema the codegen emitter compiles ahead of time, and wrapped by the same
// error-mapping runtime (generated/validators/runtime.ts). Each version's
// ResourceDef names its schema with a tag (the CRD's uid and a count of compiles), so
// the per-type caches of the defaulter and the field manager, keyed by
// schema name, never hold a previous generation's schema. ajv's compile is
// done by a ValidatorCompiler (validator-worker.ts: off the event loop), with
// patterns as RE2.
import { compilePattern } from './re2.ts';
import type { Atom, ResourceDef, SchemaValidator } from '../../generated/api-types.ts';
import { wrap, type Shape } from '../../generated/validators/runtime.ts';
import { crdResourceDefs, readCrd, type CrdNamedSchema, type CrdVersion } from './crd.ts';
import { defRef, namedJsonSchema, shapeOf } from './json-schema.ts';
import { namedAtom } from './merge-types.ts';
import { LIST_META, OBJECT_META, type OpenAPISchema } from './util.ts';
import { compileInProcess, type ValidatorCompiler } from './validator-worker.ts';

/** A CRD that cannot be translated (a shape problem at a JSON path of the CRD). */
export class CrdTranslationError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = 'CrdTranslationError';
  }
}

export interface CompiledCrdVersion {
  /** What the version is served with; `schema` is the tagged name the validator and merge type are keyed by. */
  def: ResourceDef;
  validator: SchemaValidator;
  /** The merge-schema atom of the kind, to be registered under def.schema. */
  mergeType: Atom;
  /** The kind's and List's schemas under their published names, for the OpenAPI documents. */
  schemas: CrdNamedSchema[];
}

/** The tagged schema name of a version: the published name, then `@<tag>`. */
export function taggedSchemaName(published: string, tag: string): string {
  return `${published}@${tag}`;
}

/** Whether a pattern compiles as RE2 (the ones that do not were refused when the CRD was written). */
function re2Ok(pattern: string): boolean {
  try {
    compilePattern(pattern);
    return true;
  } catch {
    return false;
  }
}

/** Compiles one version's validator: the kind's schema with metadata checked by the generic object checks. */
async function compileValidator(v: CrdVersion, compiler: ValidatorCompiler): Promise<SchemaValidator> {
  const [kind, list] = v.schemas;
  const definitions: Record<string, unknown> = {
    [kind.name]: namedJsonSchema(kind.name, kind.schema, true, re2Ok),
    [list.name]: namedJsonSchema(list.name, list.schema, true, re2Ok),
    // metadata is validated as ObjectMeta by the store's metadata rules, not by the schema
    [OBJECT_META]: { type: 'object' },
    [LIST_META]: { type: 'object' },
  };
  const shapes: Record<string, Shape> = {};
  for (const s of [kind, list]) {
    const shape = shapeOf(s.schema);
    if (shape !== undefined && typeof shape !== 'string') shapes[s.name] = shape;
  }
  const fn = await compiler(definitions, defRef(kind.name));
  return wrap(fn, kind.name, shapes);
}

/**
 * Compiles the served versions of a CRD; `tag` tells this compile apart from
 * every other one (uid and a count). The validators are compiled by
 * `compiler` (default: on this thread).
 */
export async function compileCrd(crd: Record<string, unknown>, tag: string, compiler: ValidatorCompiler = compileInProcess): Promise<CompiledCrdVersion[]> {
  const versions = readCrd(crd, '', (at, msg) => {
    throw new CrdTranslationError(at.replace(/^\./, ''), msg);
  });
  const tagged = (v: CrdVersion) => taggedSchemaName(v.schemas[0].name, tag);
  const defs = crdResourceDefs(versions, tagged);
  const validators = await Promise.all(versions.map((v) => compileValidator(v, compiler)));
  return versions.map((v, i) => {
    const own = new Map<string, { schema: OpenAPISchema }>(v.schemas.map((s) => [s.name, s]));
    return {
      def: defs[i],
      validator: validators[i],
      mergeType: namedAtom(v.schemas[0].schema, { custom: true, lookup: (n) => own.get(n) }),
      schemas: v.schemas,
    };
  });
}
