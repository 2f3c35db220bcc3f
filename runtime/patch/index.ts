// Public API of the patch library: applies a PATCH body to the live object
// for the three patch types kube-apiserver accepts besides server-side apply
// (JSON patch, JSON merge patch, strategic merge patch), and maps PATCH
// Content-Types to patch types. Boundary: pure functions on JSON values; the
// HTTP layer reads the body, retries on conflicts, checks preconditions,
// validates the result and stores it.
import type { JSONValue, MergeSchema } from '../../generated/api-types.ts';
import { MAX_NESTING_DEPTH, tooDeep } from '../codec/limits.ts';
import { isJSONObject } from './clone.ts';
import { jsonKindName } from '../api/go-format.ts';
import { invalidPatchResult, unsupportedMediaType } from './errors.ts';
import { jsonPatch } from './json-patch.ts';
import { mergePatch } from './merge-patch.ts';
import { strategicMergePatch } from './strategic-merge.ts';

export { PatchError } from './errors.ts';

/** A Kubernetes object as JSON. */
export type Obj = { [k: string]: JSONValue };

export type PatchKind = 'json' | 'merge' | 'strategic';

export interface PatchContext {
  /** The merge schema (generated/merge-schema.ts `mergeSchema`). */
  schema: MergeSchema;
  /** The object's type in the schema, e.g. `io.k8s.api.apps.v1.DaemonSet`. */
  typeName: string;
  /** A custom resource: strategic merge patch is refused with 415, as upstream does. */
  custom?: boolean;
}

export const PATCH_CONTENT_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

/**
 * The Content-Types a resource accepts for PATCH, in kube-apiserver's order
 * (the list its 415 answer names). Custom resources have no strategic merge.
 */
export function acceptedPatchTypes(custom: boolean): string[] {
  const { json, merge, strategic, apply } = PATCH_CONTENT_TYPES;
  return custom ? [json, merge, apply] : [json, merge, strategic, apply];
}

/**
 * The patch type of a PATCH request's Content-Type. Parameters after `;` are
 * ignored; otherwise the match is exact, as kube-apiserver's is.
 */
export function contentTypeToPatchKind(contentType: string): PatchKind | 'apply' | undefined {
  const semi = contentType.indexOf(';');
  const base = semi > 0 ? contentType.slice(0, semi) : contentType;
  switch (base) {
    case PATCH_CONTENT_TYPES.json:
      return 'json';
    case PATCH_CONTENT_TYPES.merge:
      return 'merge';
    case PATCH_CONTENT_TYPES.strategic:
      return 'strategic';
    case PATCH_CONTENT_TYPES.apply:
      return 'apply';
    default:
      return undefined;
  }
}

/**
 * Applies an already-parsed patch body to `current` and returns the new
 * object. `current` is never modified (it is copied once) and neither is
 * `patchBody`, so a retry after a conflict can call this again with both.
 * Throws PatchError (code, reason, message as kube-apiserver answers).
 */
export function applyPatch(kind: PatchKind, current: Obj, patchBody: unknown, ctx: PatchContext): Obj {
  let result: JSONValue;
  switch (kind) {
    case 'json':
      result = jsonPatch(current, patchBody);
      break;
    case 'merge':
      result = mergePatch(current, patchBody);
      break;
    case 'strategic':
      if (ctx.custom) throw unsupportedMediaType(acceptedPatchTypes(true));
      result = strategicMergePatch(current, patchBody, ctx.schema, ctx.typeName);
      break;
    default:
      throw unsupportedMediaType(acceptedPatchTypes(ctx.custom ?? false));
  }
  // A JSON patch can move subtrees below each other and so nest deeper than
  // any body may; what kube-apiserver would then fail to decode fails here,
  // before anything recursive walks the result. (Merge and strategic merge
  // patches put patch values where the patch has them: no deeper than their
  // inputs, which the decoders bound.)
  const deep = kind === 'json' ? tooDeep(result, MAX_NESTING_DEPTH) : undefined;
  if (deep) {
    throw invalidPatchResult(textOf(result), `couldn't get version/kind; json parse error: invalid character '${Array.isArray(deep) ? '[' : '{'}' exceeded max depth`);
  }
  if (!isJSONObject(result)) {
    const text = JSON.stringify(result);
    throw invalidPatchResult(
      text,
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKindName(result)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  return result;
}

/** The JSON text of a patched document for an error message (elided when too deep to serialize). */
function textOf(v: JSONValue): string {
  try {
    return JSON.stringify(v);
  } catch {
    return '<the patched object, nested too deeply to show>';
  }
}
