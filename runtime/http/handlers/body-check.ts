// What happens to a request body before the registry store: the registry's
// request-object checks (registry/object-checks.ts: apiVersion and kind
// against the endpoint, nulls dropped, spec defaults, schema validation with
// the request's fieldValidation; unknown and duplicate fields become Warning
// headers or a 400), with the request's parameters.

import type { Obj } from '../../storage/interface.ts';
import { checkRequestObject } from '../../registry/object-checks.ts';
import type { RequestContext } from './context.ts';
import { fieldValidation } from './params.ts';

/**
 * Checks apiVersion and kind of a request body against the endpoint (filling
 * them when absent), then runs the object checks: wrong types are 400,
 * unknown and duplicate fields follow fieldValidation, and
 * required/enum/bounds/format problems are 422 Invalid.
 */
export async function checkBody(rc: RequestContext, obj: Obj, duplicates: string[]): Promise<void> {
  await checkRequestObject(rc.services, rc.res.def, obj, { fieldValidation: fieldValidation(rc), duplicates, warnings: rc.warnings, reportsRequired: rc.res.store.strategy.reportsRequired });
}
