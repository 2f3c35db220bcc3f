// POST .../pods/{name}/eviction (policy/v1 Eviction): the eviction rules
// are registry/pods/eviction.ts's; this decodes the Eviction (the URL's
// name must be its name), merges the query's dryRun into its
// deleteOptions as upstream does, and answers with the Status in the
// negotiated form.

import { ApiError, errors } from '../../../api/errors.ts';
import type { ApiIndex } from '../../../registry/served.ts';
import type { Obj } from '../../../storage/interface.ts';
import { evictPod } from '../../../registry/pods/eviction.ts';
import type { RequestContext } from '../context.ts';
import { admittedBody } from './body.ts';
import { negotiateStatus, respondStatus } from './status.ts';

export async function handleEviction(rc: RequestContext, api: ApiIndex): Promise<Response> {
  const neg = negotiateStatus(rc);
  // upstream's eviction accepts both versions of the Eviction
  const eviction = await admittedBody(rc, { group: 'policy', version: 'v1', kind: 'Eviction', alsoAccepted: ['policy/v1beta1'] });
  if (eviction.metadata?.name !== rc.info.name) throw errors.badRequest('name in URL does not match name in Eviction object');
  const queryDryRun: string[] = rc.query.getAll('dryRun');
  const del: Obj = eviction.deleteOptions && typeof eviction.deleteOptions === 'object' ? eviction.deleteOptions : {};
  const bodyDryRun: string[] = Array.isArray(del.dryRun) ? del.dryRun : [];
  if (queryDryRun.length && bodyDryRun.length && JSON.stringify(queryDryRun) !== JSON.stringify(bodyDryRun)) {
    throw new ApiError(500, '', `Non-matching dry-run options in request and content: [${queryDryRun.join(' ')}] and [${bodyDryRun.join(' ')}]`);
  }
  const dryRun = queryDryRun.length > 0 || bodyDryRun.length > 0;
  const pre = del.preconditions && typeof del.preconditions === 'object' ? (del.preconditions as Obj) : undefined;
  const budgets = api.lookup('policy', 'v1', 'poddisruptionbudgets')?.store;
  const status = await evictPod({ pods: rc.res.store, budgets }, rc.info.namespace, rc.info.name, {
    dryRun,
    preconditions: pre ? { uid: pre.uid ?? undefined, resourceVersion: pre.resourceVersion ?? undefined } : undefined,
  });
  return respondStatus(rc, neg, status);
}
