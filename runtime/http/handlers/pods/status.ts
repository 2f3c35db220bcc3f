// The answer of pods/eviction and pods/binding (and the bindings
// collection): a Status, in the form the client negotiated like any other
// create's answer (JSON, YAML or protobuf; a Table or metadata-only Accept
// gets the Status as it is, as for a delete's Status).

import type { Obj } from '../../../storage/interface.ts';
import type { Negotiated } from '../../negotiate.ts';
import { type RequestContext, negotiate, sendNegotiated } from '../context.ts';
import { sendCommitted } from '../write-common.ts';

/** Picks the form before any work is done: an Accept the endpoint cannot answer is a 406 that writes nothing. */
export function negotiateStatus(rc: RequestContext): Negotiated {
  const neg = negotiate(rc, false);
  return neg.target.as === 'object' ? neg : { ...neg, target: { as: 'object' }, contentType: neg.contentType.split(';')[0] };
}

export function respondStatus(rc: RequestContext, neg: Negotiated, status: Obj): Promise<Response> {
  const code = typeof status.code === 'number' ? status.code : 201;
  return sendCommitted(rc, status, code, () => sendNegotiated(rc, neg, status, code));
}
