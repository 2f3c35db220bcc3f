// What the registry's patch and apply operations take (RegistryStore.patch()
// and apply()): the decoded request, the services they need besides the
// store's, and the mapping of the patch library's errors to Statuses. The
// operations themselves, with their order, are in store.ts.

import type { MergeSchema, ResourceDef } from '../../generated/api-types.ts';
import { PatchError, type PatchKind } from '../patch/index.ts';
import { invalidPatchResult } from '../patch/errors.ts';
import { ApiError } from '../api/errors.ts';
import type { Obj } from '../storage/interface.ts';
import type { ManagedFieldsHook } from './managed-fields.ts';
import type { FieldValidation, ObjectCheckServices } from './object-checks.ts';

/** What patch and apply need: the object checks, the merge schema of strategic patches, the field manager. */
export interface PatchServices extends ObjectCheckServices {
  mergeSchema: MergeSchema;
  managedFields: ManagedFieldsHook;
}

/** How the object a patch or apply produces is checked, as a request body of the client's version. */
interface RequestedVersion {
  /** The endpoint's version: the result must carry its apiVersion and kind and pass its schema. */
  def: ResourceDef;
  fieldValidation: FieldValidation;
  /** Fields the body sent twice (warned about or refused, as fieldValidation says). */
  duplicates: string[];
}

/** A JSON, merge or strategic merge patch. */
export interface PatchRequest extends RequestedVersion {
  type: PatchKind;
  /** The decoded patch document. */
  patch: unknown;
}

/** A server-side apply: the configuration, who applies it, and whether conflicts are overridden. */
export interface ApplyRequest extends RequestedVersion {
  config: Obj;
  manager: string;
  force: boolean;
}

/** The patch library's error as the Status kube-apiserver answers. */
export function patchErrorToApi(err: unknown): unknown {
  if (err instanceof PatchError) {
    return new ApiError(err.code, err.reason, err.message, err.causes ? { causes: err.causes } : err.code === 422 ? {} : undefined);
  }
  return err;
}

/**
 * The Status of a patch whose result cannot be converted to the hub (a
 * round-trip annotation that is not JSON; `detail` is Go's error text). A
 * JSON or merge patch decodes the patched document into the hub object:
 * 422 Invalid on the `patch` field with the document as its value. A
 * strategic merge patch fails converting the patched object of the client's
 * version to the hub, which kube-apiserver 1.31 passes through unclassified
 * (a 500 with reason ''); bad input is never a 500 here, so it gets the same
 * 422 as the other patch types (docs/api-lifecycle.md).
 */
export function unconvertiblePatchResult(patched: Obj, detail: string): unknown {
  return patchErrorToApi(invalidPatchResult(JSON.stringify(patched), detail));
}
