// The converter of a built-in resource served in several versions, from the
// conversions its specs declare (x-specserver-conversions, emitted into each
// version's ResourceDef.conversion): an object goes from its version to the
// hub (the version's rules in order) and from the hub to the target version
// (the target's rules in reverse). A version without a declaration has the
// hub's shape, so only apiVersion changes for it; the hub may be a version
// of another group (events.k8s.io/v1 Event to core v1), whose resource then
// stores both. Also the declared per-version defaults, applied to request
// objects of that version, and the versions as the field manager compares
// ownership in them (each manager's fields in the version it wrote through).
// A request object whose round-trip annotation is not JSON cannot reach the
// hub: keptAnnotationError says why, for the request checks to refuse it.

import type { ConversionRule, ResourceDef, VersionConversion, VersionDefault } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import type { ObjectVersions } from '../../apply/index.ts';
import { groupVersion } from '../../api/keys.ts';
import { JSONSyntaxError, parseJSONStrict } from '../../codec/json-parse.ts';
import { noneConverter, remembering, type VersionConverter } from './converter.ts';
import { annotationsOf, dropAnnotation, parentOf, put, take } from './paths.ts';
import { itemFieldFromHub, itemFieldToHub, keptForAnnotation, keptFromAnnotation } from './list-rules.ts';

/** An annotation that keeps a hub field: its JSON, or Go's syntax error text when it is not JSON. */
function parseKeptAnnotation(text: string): { value: unknown } | { error: string } {
  try {
    return { value: parseJSONStrict(text).value };
  } catch (e) {
    if (e instanceof JSONSyntaxError) return { error: e.message };
    throw e;
  }
}

/**
 * Why `obj`, in the version whose declared conversion is `conversion`,
 * cannot be converted to the hub: Go's syntax error for the first of the
 * annotations that keep hub fields (in the rules' order) that is not JSON,
 * as upstream's conversion fails on unmarshalling it (one whose rule says
 * dropMalformed is dropped instead); undefined when it can.
 */
export function keptAnnotationError(obj: Obj, conversion: VersionConversion | undefined): string | undefined {
  if (!conversion) return undefined;
  const annotations = annotationsOf(obj, false);
  if (!annotations) return undefined;
  for (const rule of conversion.rules) {
    if (rule.op !== 'annotation' || rule.dropMalformed) continue;
    const text = annotations[rule.annotation];
    if (typeof text !== 'string') continue;
    const parsed = parseKeptAnnotation(text);
    if ('error' in parsed) return parsed.error;
    const wrong = rule.goType === undefined ? undefined : goTypeError(parsed.value, rule.goType);
    if (wrong !== undefined) return wrong;
  }
  return undefined;
}

/** How Go's encoding/json names a JSON value in its type errors. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v; // string, number, object
}

/**
 * Go's type error for JSON that does not fit `goType` at its top level: a
 * list (`[]T`) must be an array whose items are objects, a struct an object;
 * null fits anything (the zero value). Deeper fields are not compared.
 */
function goTypeError(value: unknown, goType: string): string | undefined {
  const wrong = (v: unknown, t: string) => `json: cannot unmarshal ${jsonKind(v)} into Go value of type ${t}`;
  const isStruct = (v: unknown) => v === null || (typeof v === 'object' && !Array.isArray(v));
  if (value === null) return undefined;
  if (!goType.startsWith('[]')) return isStruct(value) ? undefined : wrong(value, goType);
  if (!Array.isArray(value)) return wrong(value, goType);
  const bad = value.find((item) => !isStruct(item));
  return bad === undefined ? undefined : wrong(bad, goType.slice(2));
}

/** One rule, from the version to the hub. */
function ruleToHub(obj: Obj, rule: ConversionRule): void {
  switch (rule.op) {
    case 'rename':
      put(obj, rule.to, take(obj, rule.from));
      return;
    case 'annotation': {
      const text = annotationsOf(obj, false)?.[rule.annotation];
      if (typeof text !== 'string') return;
      const parsed = parseKeptAnnotation(text);
      if ('error' in parsed) {
        // dropMalformed: upstream moves only well-formed data and drops the annotation; otherwise a
        // request that carries it is refused before (keptAnnotationError), and it is not ours to read
        if (rule.dropMalformed) dropAnnotation(obj, rule.annotation);
        return;
      }
      dropAnnotation(obj, rule.annotation);
      put(obj, rule.field, keptFromAnnotation(parsed.value, rule));
      return;
    }
    case 'zeroAnnotation':
      dropAnnotation(obj, rule.annotation);
      return;
    case 'itemField':
      itemFieldToHub(obj, rule);
      return;
  }
}

/** One rule, from the hub to the version. */
function ruleFromHub(obj: Obj, rule: ConversionRule): void {
  switch (rule.op) {
    case 'rename':
      put(obj, rule.from, take(obj, rule.to));
      return;
    case 'annotation': {
      // the annotation is the conversion's: one the hub object carries is not passed on
      dropAnnotation(obj, rule.annotation);
      const value = take(obj, rule.field);
      if (value !== undefined) annotationsOf(obj, true)![rule.annotation] = JSON.stringify(keptForAnnotation(value, rule));
      return;
    }
    case 'zeroAnnotation': {
      const parent = parentOf(obj, rule.field, false);
      if (!parent) return;
      const value = parent[rule.field[rule.field.length - 1]];
      if (value !== undefined && value !== null && value !== 0) return;
      const annotations = annotationsOf(obj, true)!;
      if (!(rule.annotation in annotations)) annotations[rule.annotation] = '';
      return;
    }
    case 'itemField':
      itemFieldFromHub(obj, rule);
      return;
  }
}

/**
 * `obj` (not changed) converted from its apiVersion into `apiVersion`, both
 * versions of one resource (the hub may be another group's, its conversion's
 * hubGroup); `byApiVersion` holds the declared conversion of each version.
 */
export function convertDeclared(obj: Obj, apiVersion: string, byApiVersion: ReadonlyMap<string, VersionConversion>): Obj {
  if (obj.apiVersion === apiVersion) return obj;
  const out = structuredClone(obj);
  const source = typeof obj.apiVersion === 'string' ? byApiVersion.get(obj.apiVersion) : undefined;
  if (source) for (const rule of source.rules) ruleToHub(out, rule);
  const target = byApiVersion.get(apiVersion);
  if (target) for (let i = target.rules.length - 1; i >= 0; i--) ruleFromHub(out, target.rules[i]);
  out.apiVersion = apiVersion;
  return out;
}

/** The declared conversion of each version of a resource, by apiVersion. */
export function conversionsOf(versions: ResourceDef[]): Map<string, VersionConversion> {
  const out = new Map<string, VersionConversion>();
  for (const d of versions) if (d.conversion) out.set(groupVersion(d.group, d.version), d.conversion);
  return out;
}

/**
 * The converter of one stored resource from the ResourceDefs of its
 * versions (of its group, and of another group whose hub it is): `None`
 * when no version declares a rule (the versions share one shape),
 * otherwise the declared rules, remembered per source object.
 */
export function declaredConverter(versions: ResourceDef[]): VersionConverter {
  const byApiVersion = conversionsOf(versions);
  if (![...byApiVersion.values()].some((c) => c.rules.length > 0)) return noneConverter;
  const now = (o: Obj, apiVersion: string) => convertDeclared(o, apiVersion, byApiVersion);
  return {
    ...remembering({ nop: false, convert: (objs, apiVersion) => Promise.resolve(objs.map((o) => now(o, apiVersion))) }),
    convertNow: now,
  };
}

/** The versions of a resource for the field manager, with a key that names them (the managers built for them are shared by it). */
export interface DeclaredVersions extends ObjectVersions {
  readonly key: string;
}

/**
 * The versions of one stored resource as server-side apply compares field
 * ownership in them: each version's merge-schema type and the declared
 * conversions between them; undefined when no version declares a rule
 * (every version has the hub's shape, so one version's field paths are all's).
 */
export function declaredObjectVersions(versions: ResourceDef[]): DeclaredVersions | undefined {
  const byApiVersion = conversionsOf(versions);
  if (![...byApiVersion.values()].some((c) => c.rules.length > 0)) return undefined;
  const types = new Map(versions.map((d) => [groupVersion(d.group, d.version), d.schema]));
  return {
    key: [...types].map(([v, t]) => `${v}=${t}`).join(','),
    typeName: (apiVersion) => types.get(apiVersion),
    convert: (obj, from, to) => convertDeclared(obj.apiVersion === from ? obj : { ...obj, apiVersion: from }, to, byApiVersion),
  };
}

/** Applies a version's declared defaults to an object of that version (in place). */
export function applyVersionDefaults(obj: Obj, defaults: VersionDefault[]): void {
  for (const d of defaults) {
    if (d.unlessAnnotation !== undefined && annotationsOf(obj, false)?.[d.unlessAnnotation] !== undefined) continue;
    const parent = parentOf(obj, d.field, false);
    if (!parent) continue;
    const name = d.field[d.field.length - 1];
    const v = parent[name];
    if (v === undefined || v === null || (d.zeroIsUnset && v === 0)) parent[name] = structuredClone(d.value);
  }
}

/** The declared defaults of each version of a resource, by apiVersion; undefined when none declares any. */
export function versionDefaultsOf(versions: ResourceDef[]): Map<string, VersionDefault[]> | undefined {
  const out = new Map<string, VersionDefault[]>();
  for (const d of versions) if (d.conversion?.defaults.length) out.set(groupVersion(d.group, d.version), d.conversion.defaults);
  return out.size > 0 ? out : undefined;
}
