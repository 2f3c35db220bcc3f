// Whether the store can commit, for readiness: every commit's outcome sets
// it (a commit that fails for the store's environment — full disk, I/O
// error — marks it failing, the next commit that succeeds clears it). While
// failing, a check runs a small real commit (the probe, given by the owner)
// at most once per interval, so readiness recovers once space is freed even
// when no client writes. No SQL here.
import { commitFailure, type CommitFailedError } from '../errors.ts';

export class CommitHealth {
  private error: CommitFailedError | null = null;
  private lastProbe = 0;

  constructor(
    private probe: () => void,
    private intervalMs: number,
    private log: (msg: string) => void = () => {},
    private now: () => number = Date.now,
  ) {}

  failed(err: CommitFailedError): void {
    if (!this.error) this.log(`storage: commits are failing: ${err.message}`);
    this.error = err;
    this.lastProbe = this.now();
  }

  succeeded(): void {
    if (this.error) this.log('storage: commits succeed again');
    this.error = null;
  }

  /** null when commits succeed; otherwise why they fail (re-probed when the interval has passed). */
  check(): CommitFailedError | null {
    if (!this.error || this.now() - this.lastProbe < this.intervalMs) return this.error;
    this.lastProbe = this.now();
    try {
      this.probe();
      this.succeeded();
    } catch (err) {
      const f = commitFailure(err);
      if (f) this.error = f;
    }
    return this.error;
  }
}
