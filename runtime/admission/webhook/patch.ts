// A mutating webhook's patch applied to the object being admitted, as
// upstream's mutating dispatcher does: only JSONPatch (another type is a
// failed call), an undecodable patch is a failed call, a patch for an
// operation without an object (DELETE, CONNECT) is a 500, and a patch that
// does not apply (or exceeds the JSON patch limits) is a 500. The patched
// object must keep its apiVersion and kind. The object is changed in place
// (admission's contract); returns whether it changed. identityErrors() is
// what kube-apiserver's later checks answer to a patched name or
// namespace: immutable on an update (422), a namespace other than the
// request's on a create (400).

import { ApiError, errors } from '../../api/errors.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import { jsonPatch } from '../../patch/json-patch.ts';
import type { Obj } from '../../storage/interface.ts';
import { WebhookCallFailure } from './errors.ts';

type JSONMap = Parameters<typeof jsonPatch>[0];

export function applyWebhookPatch(webhookName: string, object: Obj | null, patch: Buffer, patchType: string | undefined): boolean {
  let ops: unknown;
  try {
    ops = JSON.parse(patch.toString('utf8'));
    if (!Array.isArray(ops)) throw new Error(`json: cannot unmarshal ${ops === null ? 'null' : typeof ops} into Go value of type jsonpatch.Patch`);
  } catch (err) {
    throw new WebhookCallFailure(webhookName, `received undecodable patch in webhook response: ${(err as Error).message}`);
  }
  if (ops.length === 0) return false;
  if (!object) throw errors.internal(`admission webhook ${JSON.stringify(webhookName)} attempted to modify the object, which is not supported for this operation`);
  if (patchType !== 'JSONPatch') throw new WebhookCallFailure(webhookName, `unsupported patch type ${JSON.stringify(patchType ?? '')}`);
  let patched: unknown;
  try {
    patched = jsonPatch(object as JSONMap, ops);
  } catch (err) {
    throw errors.internal(err);
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) throw errors.internal('the patched object is not a JSON object');
  const next = patched as Obj;
  if (next.apiVersion !== object.apiVersion || next.kind !== object.kind)
    throw errors.internal(`admission webhook ${JSON.stringify(webhookName)} changed the object's apiVersion or kind (${String(object.apiVersion)}, ${String(object.kind)}), which is not supported`);
  if (jsonEqual(next, object)) return false;
  for (const k of Object.keys(object)) delete object[k];
  Object.assign(object, next);
  return true;
}

/** The name and namespace of the object (before a patch). */
export const identityOf = (o: Obj | null): { name: string; namespace: string } => ({ name: String(o?.metadata?.name ?? ''), namespace: String(o?.metadata?.namespace ?? '') });

/** The refusal of an object whose name or namespace a patch changed from `before`, where upstream refuses it; undefined when fine. */
export function identityError(
  a: { operation: string; group: string; kind: string; namespace: string; object: Obj | null; oldObject: Obj | null },
  before: { name: string; namespace: string },
): ApiError | undefined {
  const now = identityOf(a.object);
  if (a.operation === 'UPDATE') {
    const errs: FieldError[] = [];
    if (now.name !== before.name) errs.push(fieldErrors.invalid('metadata.name', now.name, 'field is immutable'));
    if (now.namespace !== before.namespace) errs.push(fieldErrors.invalid('metadata.namespace', now.namespace, 'field is immutable'));
    return errs.length ? errors.invalid({ group: a.group, kind: a.kind }, String(a.oldObject?.metadata?.name ?? before.name), errs) : undefined;
  }
  if (a.operation === 'CREATE' && now.namespace !== before.namespace && a.namespace && now.namespace && now.namespace !== a.namespace)
    return errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  return undefined;
}
