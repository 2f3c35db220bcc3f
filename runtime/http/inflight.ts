// In-flight limits (kube-apiserver's --max-requests-inflight and
// --max-mutating-requests-inflight): when more requests than allowed are
// being served, a new one is refused at once with 429 TooManyRequests and
// Retry-After: 1. Long-running requests (long-running.ts: watches, proxies,
// log, exec, attach, portforward) are not counted; members
// of system:masters are never refused (upstream's rule: the privileged group,
// which its loopback client also belongs to); the health probes /healthz,
// /livez and /readyz are never refused either, as the exempt `probes` flow
// schema of 1.31's default priority and fairness has it. Everyone else is
// counted, whoever authentication says they are. 0 disables a limit.

import type { UserInfo } from '../auth/user.ts';
import type { RequestInfo } from './request-info.ts';
import { isLongRunning } from './long-running.ts';
import { errors } from '../api/errors.ts';
import { GROUP_MASTERS } from '../api/k8s-names.ts';

const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
const PROBES = new Set(['/healthz', '/livez', '/readyz']);

export class InflightLimiter {
  private readOnly = 0;
  private mutating = 0;

  constructor(
    private readonly maxReadOnly: number,
    private readonly maxMutating: number,
  ) {}

  /** Counts the request in, or throws 429; returns the function that counts it out. */
  enter(info: RequestInfo, user: UserInfo | undefined): () => void {
    if (isLongRunning(info)) return () => {};
    if (!info.isResourceRequest && PROBES.has(info.path)) return () => {};
    const isMutating = MUTATING.has(info.verb) || (!info.isResourceRequest && info.verb !== 'get' && info.verb !== 'head');
    const limit = isMutating ? this.maxMutating : this.maxReadOnly;
    const current = isMutating ? this.mutating : this.readOnly;
    if (limit > 0 && current >= limit) {
      // the privileged group is served even then, outside the count (as upstream)
      if (user?.groups.includes(GROUP_MASTERS)) return () => {};
      throw errors.tooManyRequests();
    }
    if (isMutating) this.mutating++;
    else this.readOnly++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (isMutating) this.mutating--;
      else this.readOnly--;
    };
  }

  get counts(): { readOnly: number; mutating: number } {
    return { readOnly: this.readOnly, mutating: this.mutating };
  }
}
