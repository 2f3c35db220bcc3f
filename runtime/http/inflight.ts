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
//
// The watermark of apiserver_current_inflight_requests, as upstream's
// filter keeps it: each request's arrival and departure record the count
// then in flight, the highest of a one-second period is what the gauge
// shows for the period that follows (upstream publishes it and starts
// again from 0 every second). No timer: periods are whole seconds of the
// wall clock, rolled over when a request arrives (its arrival time is known
// already) or the gauge is read; a departure records into the period of
// the last arrival.

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
  // the watermark: the current period (a second of the clock) and its peaks, and the period before
  private period = 0;
  private peakReadOnly = 0;
  private peakMutating = 0;
  private lastPeriod = -1;
  private lastReadOnly = 0;
  private lastMutating = 0;

  constructor(
    private readonly maxReadOnly: number,
    private readonly maxMutating: number,
  ) {}

  /** Counts the request in (arrived at `now`, ms since the epoch), or throws 429; returns the function that counts it out. */
  enter(info: RequestInfo, user: UserInfo | undefined, now: number = Date.now()): () => void {
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
    this.rollTo(Math.floor(now / 1000));
    if (isMutating) {
      if (++this.mutating > this.peakMutating) this.peakMutating = this.mutating;
    } else if (++this.readOnly > this.peakReadOnly) this.peakReadOnly = this.readOnly;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // the count falls: it can only raise a peak of 0 (a period that began since)
      if (isMutating) {
        if (--this.mutating > this.peakMutating) this.peakMutating = this.mutating;
      } else if (--this.readOnly > this.peakReadOnly) this.peakReadOnly = this.readOnly;
    };
  }

  /** Requests in flight now. */
  get counts(): { readOnly: number; mutating: number } {
    return { readOnly: this.readOnly, mutating: this.mutating };
  }

  /** apiserver_current_inflight_requests at `now`: the highest counts of the last whole second (0 for a second nothing arrived in). */
  watermark(now: number = Date.now()): { readOnly: number; mutating: number } {
    this.rollTo(Math.floor(now / 1000));
    return this.lastPeriod === this.period - 1 ? { readOnly: this.lastReadOnly, mutating: this.lastMutating } : { readOnly: 0, mutating: 0 };
  }

  private rollTo(period: number): void {
    if (period === this.period) return;
    this.lastPeriod = this.period;
    this.lastReadOnly = this.peakReadOnly;
    this.lastMutating = this.peakMutating;
    this.period = period;
    this.peakReadOnly = 0;
    this.peakMutating = 0;
  }
}
