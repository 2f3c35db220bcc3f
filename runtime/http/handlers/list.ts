// LIST of a collection: selectors, paging (limit/continue), the
// resourceVersion semantics (served by storage), Table and
// PartialObjectMetadataList forms. Plain JSON is the items' served JSON
// (the watch cache's strings, or the stored text) inside the list envelope,
// with no item parsed or re-serialized (a big one streamed, list-stream.ts); protobuf is each item's message bytes,
// made once per cached object, inside the list's envelope (a big one streamed as well, encoded-list.ts).

import { errors } from '../../api/errors.ts';
import { requestHeader } from '../request-headers.ts';
import { transformList } from '../respond.ts';
import { listBody, protobufListBody, protobufListChunks } from '../encoded-list.ts';
import { listAtLeast, listChunks, STREAM_LIST_BYTES, streamedResponse } from '../list-stream.ts';
import { type RequestContext, groupVersion, negotiate, sendNegotiated, sendSerialized, servesEncodedJSON, servesEncodedProtobuf } from './context.ts';
import { includeObject, intParam, predicate } from './params.ts';
import type { Obj } from '../../storage/interface.ts';
import { fieldErrors } from '../../api/field-errors.ts';

export interface ListQuery {
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan' | '';
  limit?: number;
  continue?: string;
}

/**
 * The list and watch options of the query. Their combinations are validated
 * by storage (runtime/storage/semantics/options.ts), which answers with
 * upstream's 422 on ListOptions; only what storage cannot see is checked here.
 */
export function listQuery(rc: RequestContext, watch: boolean): ListQuery {
  const rv = rc.query.get('resourceVersion') ?? undefined;
  const match = rc.query.get('resourceVersionMatch') ?? '';
  const cont = rc.query.get('continue') ?? undefined;
  const limit = intParam(rc, 'limit');
  // an int64 upstream even where it changes nothing (a list): a value that is not one is a 400
  intParam(rc, 'timeoutSeconds');
  const sendInitial = rc.query.get('sendInitialEvents');
  // any value is a boolean upstream (even empty), and forbidden for a list
  if (!watch && sendInitial !== null) {
    throw errors.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [fieldErrors.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list')]);
  }
  return { resourceVersion: rv, resourceVersionMatch: match as ListQuery['resourceVersionMatch'], limit, continue: cont };
}

export async function handleList(rc: RequestContext): Promise<Response> {
  const neg = negotiate(rc, true);
  const q = listQuery(rc, false);
  const pred = predicate(rc);
  const d = rc.res.def;
  if (servesEncodedJSON(rc, neg)) {
    const enc = await rc.res.store.listEncoded(rc.info.namespace, { ...q, predicate: pred });
    if (enc && listAtLeast(enc.items, STREAM_LIST_BYTES)) {
      const opts = { acceptEncoding: requestHeader(rc.c, 'accept-encoding'), warnings: rc.warnings };
      return streamedResponse(listChunks(d.listKind, groupVersion(rc), listMeta(enc), enc.items), neg.contentType, opts);
    }
    if (enc) return sendSerialized(rc, neg, listBody(d.listKind, groupVersion(rc), listMeta(enc), enc.items));
  }
  if (servesEncodedProtobuf(neg)) {
    const enc = await rc.res.store.listEncoded(rc.info.namespace, { ...q, predicate: pred });
    if (enc) {
      const codec = await rc.services.protobuf.codec(groupVersion(rc), d.listKind);
      if (listAtLeast(enc.items, STREAM_LIST_BYTES)) {
        const opts = { acceptEncoding: requestHeader(rc.c, 'accept-encoding'), warnings: rc.warnings };
        return streamedResponse(protobufListChunks(codec, d.listKind, groupVersion(rc), listMeta(enc), enc.items), neg.contentType, opts);
      }
      return sendSerialized(rc, neg, protobufListBody(codec, d.listKind, groupVersion(rc), listMeta(enc), enc.items));
    }
  }
  const result = await rc.res.store.list(rc.info.namespace, { ...q, predicate: pred });
  const metadata = listMeta(result);
  const items = await rc.res.store.allInVersion(result.items, groupVersion(rc));
  const list: Obj = {
    kind: d.listKind,
    apiVersion: groupVersion(rc),
    metadata,
    items,
  };
  const body = transformList(list, neg, { def: d, includeObject: includeObject(rc, neg), formatters: rc.services.formatters, cellsFrom: rc.res.store.tableSource(rc.res.def) });
  return sendNegotiated(rc, neg, body);
}

/** The list's metadata, in the order upstream writes it. */
function listMeta(result: { resourceVersion: string; continue?: string; remainingItemCount?: number }): Record<string, unknown> {
  const metadata: Record<string, unknown> = { resourceVersion: result.resourceVersion };
  if (result.continue) metadata.continue = result.continue;
  if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
  return metadata;
}
