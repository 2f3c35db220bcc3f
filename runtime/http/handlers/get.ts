// GET of one object (or one object's subresource view). Plain JSON is sent
// as the object's served JSON when storage keeps it (the watch cache does),
// without parsing and re-serializing it; protobuf as the object's whole
// protobuf body, made once per cached object. When the watch cache is fresh
// and the codec loaded, the answer is made at once, with no promise.

import { transformObject } from '../respond.ts';
import { objectBody, protobufObjectBody } from '../encoded-list.ts';
import { type RequestContext, codecNow, groupVersion, negotiate, sendNegotiated, sendSerialized, servesEncodedJSON, servesEncodedProtobuf } from './context.ts';
import type { Negotiated } from '../negotiate.ts';
import { includeObject } from './params.ts';
import type { EncodedObject, Obj } from '../../storage/interface.ts';
import { andThen, type Maybe } from '../../api/maybe.ts';

export function handleGet(rc: RequestContext): Maybe<Response> {
  const neg = negotiate(rc, false);
  const rv = rc.query.get('resourceVersion') ?? undefined;
  if (servesEncodedJSON(rc, neg)) {
    return andThen(rc.res.store.getEncoded(rc.info.namespace, rc.info.name, rv), (enc) => (enc ? sendSerialized(rc, neg, objectBody(enc, groupVersion(rc))) : getParsed(rc, neg, rv)));
  }
  if (servesEncodedProtobuf(neg)) {
    return andThen(rc.res.store.getEncoded(rc.info.namespace, rc.info.name, rv), (enc) => (enc ? sendProtobuf(rc, neg, enc) : getParsed(rc, neg, rv)));
  }
  return getParsed(rc, neg, rv);
}

/** The object's protobuf body; at once when the codec has this kind loaded. */
function sendProtobuf(rc: RequestContext, neg: Negotiated, enc: EncodedObject): Maybe<Response> {
  const d = rc.res.def;
  const gv = groupVersion(rc);
  const now = codecNow(rc);
  if (now) return sendSerialized(rc, neg, protobufObjectBody(now, d.kind, d.listKind, gv, enc));
  return rc.services.protobuf.codec(gv, d.kind).then((codec) => sendSerialized(rc, neg, protobufObjectBody(codec, d.kind, d.listKind, gv, enc)));
}

async function getParsed(rc: RequestContext, neg: Negotiated, rv: string | undefined): Promise<Response> {
  const obj = await rc.res.store.get(rc.info.namespace, rc.info.name, rv);
  const out = await withVersion(obj, rc);
  const body = transformObject(out, neg, { def: rc.res.def, includeObject: includeObject(rc, neg), formatters: rc.services.formatters, cellsFrom: rc.res.store.tableSource(rc.res.def) });
  return sendNegotiated(rc, neg, body);
}

/** Objects are stored in the storage version; a request for another version sees the object in its own (the store converts). */
export function withVersion(obj: Obj, rc: RequestContext): Maybe<Obj> {
  return rc.res.store.inVersion(obj, groupVersion(rc));
}
