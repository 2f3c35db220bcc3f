// The objects of an admission call in the version the call is made in: a
// request matched through matchPolicy Equivalent (a rule written for another
// version of the resource, or for a resource of another group stored with
// it) is sent to a webhook, or evaluated by a policy, as the matched group,
// version and kind, with its object and oldObject converted into that
// version by their store's conversions, as upstream's dispatchers convert
// the versioned attributes. A mutating webhook's patch applies to the
// converted object; the result is converted back into the version being
// admitted and replaces the object in place. Matched as itself: the objects
// are the request's, nothing is copied. A conversion that fails is a 500
// (upstream's internal error).

import { ApiError, errors } from '../../api/errors.ts';
import { groupVersion } from '../../api/keys.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes } from '../chain.ts';
import type { ResourceMapper } from './equivalents.ts';
import type { RequestVersions } from './request.ts';

export interface VersionedObjects {
  object: Obj | null;
  oldObject: Obj | null;
  /** Whether they are converted copies (a patch to `object` is then converted back by convertBack()). */
  converted: boolean;
}

/** The apiVersion a call is made in: its matched kind's. */
const targetOf = (v: RequestVersions): string => groupVersion(v.kind.group, v.kind.version);

/** Whether the call is made as another kind than the request's (matched through an equivalent). */
const asEquivalent = (v: RequestVersions): boolean => v.kind.group !== v.requestKind.group || v.kind.version !== v.requestKind.version || v.kind.kind !== v.requestKind.kind;

async function convert(mapper: ResourceMapper, a: AdmissionAttributes, obj: Obj, apiVersion: string): Promise<Obj> {
  if (obj.apiVersion === apiVersion) return structuredClone(obj);
  try {
    return structuredClone(await mapper.convert({ group: a.group, version: a.version, resource: a.resource }, obj, apiVersion));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw errors.internal(`failed to convert object from ${String(obj.apiVersion)} to ${apiVersion}: ${(err as Error).message}`);
  }
}

/** The attributes with the objects of `v` (themselves when not converted). */
export function withObjects(a: AdmissionAttributes, v: VersionedObjects): AdmissionAttributes {
  return v.converted ? { ...a, object: v.object, oldObject: v.oldObject } : a;
}

/** The object and oldObject of the call in the version `versions` names. */
export async function versionedObjects(mapper: ResourceMapper, a: AdmissionAttributes, versions: RequestVersions): Promise<VersionedObjects> {
  if (!asEquivalent(versions)) return { object: a.object, oldObject: a.oldObject, converted: false };
  const to = targetOf(versions);
  return {
    object: a.object ? await convert(mapper, a, a.object, to) : null,
    oldObject: a.oldObject ? await convert(mapper, a, a.oldObject, to) : null,
    converted: true,
  };
}

/** A patched converted object converted back into the admitted object's version, replacing its content in place. */
export async function convertBack(mapper: ResourceMapper, a: AdmissionAttributes, patched: Obj): Promise<void> {
  const object = a.object;
  if (!object) return;
  const back = await convert(mapper, a, patched, String(object.apiVersion));
  for (const k of Object.keys(object)) delete object[k];
  Object.assign(object, back);
}
