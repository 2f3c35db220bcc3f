// GET of one object (or one object's subresource view).

import { transformObject } from '../respond.ts';
import { type RequestContext, groupVersion, negotiate, sendNegotiated } from './context.ts';
import { includeObject } from './params.ts';
import type { Obj } from '../../storage/interface.ts';

export async function handleGet(rc: RequestContext): Promise<Response> {
  const neg = negotiate(rc, false);
  const rv = rc.query.get('resourceVersion') ?? undefined;
  const obj = await rc.res.store.get(rc.info.namespace, rc.info.name, rv);
  const out = withVersion(obj, rc);
  const body = transformObject(out, neg, { def: rc.res.def, includeObject: includeObject(rc, neg), formatters: rc.services.formatters });
  return sendNegotiated(rc, neg, body);
}

/** Objects are stored in the storage version; a request for another version sees its own apiVersion. */
export function withVersion<T extends Obj>(obj: T, rc: RequestContext): T {
  const gv = groupVersion(rc);
  if (obj.apiVersion === gv) return obj;
  return { ...obj, apiVersion: gv };
}
