// GET of one object (or one object's subresource view). Plain JSON is sent
// as the object's served JSON when storage keeps it (the watch cache does),
// without parsing and re-serializing it; protobuf from the object's message
// bytes, made once per cached object.

import { transformObject } from '../respond.ts';
import { objectBody, protobufObjectBody } from '../encoded-list.ts';
import { type RequestContext, groupVersion, negotiate, sendNegotiated, sendSerialized, servesEncodedJSON, servesEncodedProtobuf } from './context.ts';
import { includeObject } from './params.ts';
import type { Obj } from '../../storage/interface.ts';

export async function handleGet(rc: RequestContext): Promise<Response> {
  const neg = negotiate(rc, false);
  const rv = rc.query.get('resourceVersion') ?? undefined;
  if (servesEncodedJSON(rc, neg)) {
    const enc = await rc.res.store.getEncoded(rc.info.namespace, rc.info.name, rv);
    if (enc) return sendSerialized(rc, neg, objectBody(enc, groupVersion(rc)));
  }
  if (servesEncodedProtobuf(neg)) {
    const enc = await rc.res.store.getEncoded(rc.info.namespace, rc.info.name, rv);
    const d = rc.res.def;
    if (enc) return sendSerialized(rc, neg, protobufObjectBody(await rc.services.protobuf.codec(groupVersion(rc), d.kind), d.kind, d.listKind, groupVersion(rc), enc));
  }
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
