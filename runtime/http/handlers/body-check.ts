// What happens to a request body before the registry store: apiVersion and
// kind checked against the endpoint (filled when absent), then the
// registry's object checks (registry/object-checks.ts: nulls dropped, spec
// defaults, schema validation with the request's fieldValidation; unknown
// and duplicate fields become Warning headers or a 400).

import type { Obj } from '../../storage/interface.ts';
import { errors } from '../../api/errors.ts';
import { checkObject } from '../../registry/object-checks.ts';
import { type RequestContext, groupVersion } from './context.ts';
import { fieldValidation } from './params.ts';

/**
 * Checks apiVersion and kind of a request body against the endpoint (filling
 * them when absent), then runs the object checks: wrong types are 400,
 * unknown and duplicate fields follow fieldValidation, and
 * required/enum/bounds/format problems are 422 Invalid.
 */
export async function checkBody(rc: RequestContext, obj: Obj, duplicates: string[], opts: { defaults?: boolean } = {}): Promise<void> {
  const expectedKind = rc.res.def.kind;
  const gv = groupVersion(rc);
  const kind = expectedKind;
  if (obj.apiVersion === undefined || obj.apiVersion === '') obj.apiVersion = gv;
  if (obj.kind === undefined || obj.kind === '') obj.kind = kind;
  if (obj.apiVersion !== gv) {
    throw errors.badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${gv})`);
  }
  if (obj.kind !== kind) {
    throw errors.badRequest(`${String(obj.kind)} in version "${rc.res.def.version}" cannot be handled as a ${kind}: the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind})`);
  }
  await checkObject(rc.services, rc.res.def, obj, { fieldValidation: fieldValidation(rc), duplicates, defaults: opts.defaults, warnings: rc.warnings });
}
