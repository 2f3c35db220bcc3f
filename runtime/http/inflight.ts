// In-flight limits (kube-apiserver's --max-requests-inflight and
// --max-mutating-requests-inflight): when more requests than allowed are
// being served, a new one is refused at once with 429 TooManyRequests and
// Retry-After: 1. Long-running requests (watches) are not counted; members
// of system:masters are never refused. 0 disables a limit.

import type { UserInfo } from '../auth/user.ts';
import type { RequestInfo } from './request-info.ts';
import { errors } from './status.ts';

const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export class InflightLimiter {
  private readOnly = 0;
  private mutating = 0;

  constructor(private readonly maxReadOnly: number, private readonly maxMutating: number) {}

  /** Counts the request in, or throws 429; returns the function that counts it out. */
  enter(info: RequestInfo, user: UserInfo | undefined): () => void {
    if (info.verb === 'watch') return () => {};
    const isMutating = MUTATING.has(info.verb) || (!info.isResourceRequest && info.verb !== 'get' && info.verb !== 'head');
    const limit = isMutating ? this.maxMutating : this.maxReadOnly;
    const current = isMutating ? this.mutating : this.readOnly;
    if (limit > 0 && current >= limit && !user?.groups.includes('system:masters')) {
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
