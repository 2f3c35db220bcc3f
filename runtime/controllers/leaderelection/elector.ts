// Leader election over a lock record, as client-go's leaderelection package
// runs it for kube-controller-manager: a candidate reads the record; it
// takes the lock when there is none, when the holder is empty (released), or
// when the record has not changed for the record's lease duration as this
// candidate's own clock measured it (the holder's clock is never trusted);
// the holder renews every retry period and gives up (onStoppedLeading) when
// no renewal succeeded within the renew deadline, before any other candidate
// may take over. A candidate that lost goes back to acquiring (upstream's
// kube-controller-manager exits instead: here the API keeps serving). stop()
// releases a held lock (holder emptied, a one-second duration) so that
// another candidate takes over at once. Time and waiting come from a Clock,
// so the state machine runs under a test's clock.

export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  /** Milliseconds since the epoch. */
  acquireTime: number;
  renewTime: number;
  leaseTransitions: number;
}

export interface LockedRecord {
  record: LeaderElectionRecord;
  /** The version a conditional update names (the Lease's resourceVersion). */
  version: string;
}

/** Where the record lives (a coordination.k8s.io Lease: lease-lock.ts). Every call may throw (a conflict, storage down): the attempt fails. */
export interface ResourceLock {
  get(): Promise<LockedRecord | null>;
  create(record: LeaderElectionRecord): Promise<string>;
  update(record: LeaderElectionRecord, version: string): Promise<string>;
}

export interface Clock {
  now(): number;
  /** Resolves after ms, or at once when the signal is aborted. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(t);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const t = setTimeout(done, ms);
      signal.addEventListener('abort', done);
    }),
};

/** client-go's JitterFactor: a retry waits retryPeriod plus up to 1.2 times it. */
export const JITTER_FACTOR = 1.2;

export interface ElectionConfig {
  lock: ResourceLock;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  onStartedLeading(): void | Promise<void>;
  onStoppedLeading(): void | Promise<void>;
  /** client-go's RecordEvent: `became leader` once the lock is taken, `stopped leading` when a renewal deadline passed. */
  recordEvent?(message: string): void;
  /** Called once, with the answer of the loop's first attempt (before onStartedLeading when it won). */
  onFirstAttempt?(acquired: boolean): void;
  clock?: Clock;
  /** [0, 1) (default Math.random): the jitter of the acquire retries. */
  random?: () => number;
  log?: (msg: string) => void;
}

export class LeaderElectionConfigError extends Error {}

/** client-go's checks of the three durations (its texts). */
export function validateElectionTimings(leaseDurationMs: number, renewDeadlineMs: number, retryPeriodMs: number): void {
  if (leaseDurationMs <= renewDeadlineMs) throw new LeaderElectionConfigError('leaseDuration must be greater than renewDeadline');
  if (renewDeadlineMs <= JITTER_FACTOR * retryPeriodMs) throw new LeaderElectionConfigError('renewDeadline must be greater than retryPeriod*JitterFactor');
  if (leaseDurationMs < 1) throw new LeaderElectionConfigError('leaseDuration must be greater than zero');
  if (renewDeadlineMs < 1) throw new LeaderElectionConfigError('renewDeadline must be greater than zero');
  if (retryPeriodMs < 1) throw new LeaderElectionConfigError('retryPeriod must be greater than zero');
}

const sameRecord = (a: LeaderElectionRecord | undefined, b: LeaderElectionRecord): boolean =>
  !!a &&
  a.holderIdentity === b.holderIdentity &&
  a.leaseDurationSeconds === b.leaseDurationSeconds &&
  a.acquireTime === b.acquireTime &&
  a.renewTime === b.renewTime &&
  a.leaseTransitions === b.leaseTransitions;

export class LeaderElector {
  private readonly clock: Clock;
  /** The record last seen (read or written), the time this candidate saw it change, its version. */
  private observed: LeaderElectionRecord | undefined;
  private observedAt = 0;
  private observedVersion = '';
  private leading = false;
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  private firstAttempt = true;
  private started: Promise<void> = Promise.resolve();

  constructor(private readonly cfg: ElectionConfig) {
    validateElectionTimings(cfg.leaseDurationMs, cfg.renewDeadlineMs, cfg.retryPeriodMs);
    this.clock = cfg.clock ?? realClock;
  }

  /** Whether the last record seen names this candidate. */
  isLeader(): boolean {
    return this.observed?.holderIdentity === this.cfg.identity;
  }

  /** The holder of the last record seen ('' when none or released). */
  leader(): string {
    return this.observed?.holderIdentity ?? '';
  }

  /** Whether the callbacks consider this candidate leading (between onStartedLeading and onStoppedLeading). */
  get isLeading(): boolean {
    return this.leading;
  }

  /** One attempt to take or keep the lock (client-go's tryAcquireOrRenew); true when this candidate holds it now. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.clock.now();
    const desired: LeaderElectionRecord = {
      holderIdentity: this.cfg.identity,
      leaseDurationSeconds: Math.ceil(this.cfg.leaseDurationMs / 1000),
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    };
    let old: LockedRecord | null;
    try {
      old = await this.cfg.lock.get();
    } catch (err) {
      this.cfg.log?.(`error retrieving resource lock: ${(err as Error).message}`);
      return false;
    }
    if (!old) {
      try {
        const version = await this.cfg.lock.create(desired);
        this.observe(desired, version, now);
        return true;
      } catch (err) {
        this.cfg.log?.(`error initially creating leader election record: ${(err as Error).message}`);
        return false;
      }
    }
    if (!sameRecord(this.observed, old.record)) this.observe(old.record, old.version, now);
    else this.observedVersion = old.version;
    const valid = this.observedAt + old.record.leaseDurationSeconds * 1000 > now;
    if (old.record.holderIdentity !== '' && valid && !this.isLeader()) return false;
    if (this.isLeader()) {
      desired.acquireTime = old.record.acquireTime;
      desired.leaseTransitions = old.record.leaseTransitions;
    } else {
      desired.leaseTransitions = old.record.leaseTransitions + 1;
    }
    try {
      const version = await this.cfg.lock.update(desired, old.version);
      this.observe(desired, version, now);
      return true;
    } catch (err) {
      this.cfg.log?.(`failed to update lock: ${(err as Error).message}`);
      return false;
    }
  }

  private observe(record: LeaderElectionRecord, version: string, at: number): void {
    this.observed = record;
    this.observedVersion = version;
    this.observedAt = at;
  }

  /** Starts the election loop (once); the callbacks run as leadership comes and goes. */
  run(): void {
    this.running ??= this.loop().catch((err) => this.cfg.log?.(`leader election stopped: ${(err as Error).message}`));
  }

  /** Ends the loop; a leader stops leading and releases the lock. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
    if (this.leading) await this.stopLeading();
    if (this.isLeader()) await this.release();
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async loop(): Promise<void> {
    const { retryPeriodMs, renewDeadlineMs } = this.cfg;
    const random = this.cfg.random ?? Math.random;
    while (!this.stopped) {
      // acquire: an attempt every retry period, jittered
      for (;;) {
        if (this.stopped) return;
        const acquired = await this.tryAcquireOrRenew();
        if (this.firstAttempt) {
          this.firstAttempt = false;
          this.cfg.onFirstAttempt?.(acquired);
        }
        if (acquired) break;
        await this.clock.sleep(retryPeriodMs + random() * JITTER_FACTOR * retryPeriodMs, this.abort.signal);
      }
      if (this.stopped) return;
      this.cfg.log?.(`successfully acquired lease as ${this.cfg.identity}`);
      this.cfg.recordEvent?.('became leader');
      this.leading = true;
      // the callback runs beside the renewals (as client-go runs it in its own goroutine): a slow start does not let the lease lapse
      this.started = Promise.resolve()
        .then(() => this.cfg.onStartedLeading())
        .catch((err) => this.cfg.log?.(`starting to lead failed: ${(err as Error).message}`));
      // renew every retry period; no success within the renew deadline loses the lease
      let lastRenew = this.clock.now();
      for (;;) {
        await this.clock.sleep(retryPeriodMs, this.abort.signal);
        if (this.stopped) return;
        const left = lastRenew + renewDeadlineMs - this.clock.now();
        const attempt = left > 0 ? await this.withDeadline(this.tryAcquireOrRenew(), left) : false;
        if (this.stopped) return;
        if (attempt) {
          lastRenew = this.clock.now();
          continue;
        }
        if (this.clock.now() - lastRenew >= renewDeadlineMs) break;
      }
      this.cfg.log?.(`failed to renew lease: timed out waiting for the condition; ${this.cfg.identity} stopped leading`);
      this.cfg.recordEvent?.('stopped leading');
      await this.stopLeading();
    }
  }

  /** onStoppedLeading, once onStartedLeading has finished. */
  private async stopLeading(): Promise<void> {
    this.leading = false;
    await this.started;
    await this.cfg.onStoppedLeading();
  }

  /** The attempt's answer, or false once ms passed without one (the attempt is abandoned, as client-go cancels its context). */
  private async withDeadline(attempt: Promise<boolean>, ms: number): Promise<boolean> {
    const timer = new AbortController();
    const late = this.clock.sleep(ms, timer.signal).then(() => false);
    try {
      return await Promise.race([attempt, late]);
    } finally {
      timer.abort();
    }
  }

  /** client-go's release: the holder emptied, a one-second duration, the transitions kept. */
  private async release(): Promise<void> {
    if (!this.observed) return;
    const now = this.clock.now();
    const record: LeaderElectionRecord = { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: this.observed.leaseTransitions };
    try {
      const version = await this.cfg.lock.update(record, this.observedVersion);
      this.observe(record, version, now);
    } catch (err) {
      this.cfg.log?.(`failed to release lock: ${(err as Error).message}`);
    }
  }
}
