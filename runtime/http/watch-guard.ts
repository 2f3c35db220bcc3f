// Limits on watches, which are long-running and not counted by the
// in-flight limits: how many may be open in total and per user (429
// TooManyRequests beyond; these are this server's own limits, where
// kube-apiserver relies on priority and fairness), and how long a watch may
// wait for its client to take the data already sent. A client whose TCP
// window stays full (it stopped reading) is cut off after that time instead
// of holding its stream, buffers and socket until the watch timeout, even
// when no new events arrive to overflow its queue.

import type { UserInfo } from '../auth/user.ts';
import { errors } from '../api/errors.ts';

export interface WatchGuardOptions {
  /** Open watches in total before 429 (0: no limit; default 10000). */
  maxWatches?: number;
  /** Open watches of one user before 429 (0: no limit; default 1000). */
  maxWatchesPerUser?: number;
  /** How long a watch may wait for its client to take what was sent, in ms (0: forever; default 30 s). */
  stallTimeoutMs?: number;
}

export const WATCH_GUARD_DEFAULTS: Required<WatchGuardOptions> = { maxWatches: 10_000, maxWatchesPerUser: 1_000, stallTimeoutMs: 30_000 };

/** How a watch served over a socket is doing: writes waiting for the socket to drain, and a value that changes as it drains. */
export interface WriteProbe {
  blocked: boolean;
  progress: number;
}

/** One open watch: counted until released; watched for a client that stopped taking data. */
export class WatchSlot {
  /**
   * In-process streams: since when the watch has been waiting for its
   * client to take the data it has (undefined while the client asks for more).
   */
  waitingSince: number | undefined;
  /**
   * Streams over a socket: whether writes wait for the socket to drain, and
   * how much is buffered. The watch is stalled while writes stay blocked with
   * nothing drained, even when no new event is waiting to be sent.
   */
  probe: (() => WriteProbe) | undefined;
  /** Called once when the client took no data for the stall timeout; the slot is released first. */
  onStall: (() => void) | undefined;
  private released = false;
  private blockedSince: number | undefined;
  private lastProgress: number | undefined;

  constructor(
    readonly user: string,
    private readonly onRelease: (slot: WatchSlot) => void,
  ) {}

  /** Counts the watch out (idempotent). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease(this);
  }

  /**
   * Since when the client has taken nothing (undefined: it is taking data,
   * or has all there is). Over a socket, blocked writes count from the last
   * time anything drained; with writes not blocked, data left untaken by the
   * stream's reader counts as for an in-process stream.
   */
  stalledSince(now: number): number | undefined {
    if (!this.probe) return this.waitingSince;
    const { blocked, progress } = this.probe();
    if (!blocked) {
      this.blockedSince = undefined;
      this.lastProgress = progress;
      return this.waitingSince;
    }
    if (this.blockedSince === undefined || progress !== this.lastProgress) this.blockedSince = now;
    this.lastProgress = progress;
    return this.blockedSince;
  }

  /** Releases the slot and tells the watch to end. */
  stall(): void {
    if (this.released) return;
    this.release();
    this.onStall?.();
  }
}

export class WatchGuard {
  readonly maxWatches: number;
  readonly maxWatchesPerUser: number;
  readonly stallTimeoutMs: number;
  private readonly open = new Set<WatchSlot>();
  private readonly perUser = new Map<string, number>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(opts: WatchGuardOptions = {}) {
    this.maxWatches = opts.maxWatches ?? WATCH_GUARD_DEFAULTS.maxWatches;
    this.maxWatchesPerUser = opts.maxWatchesPerUser ?? WATCH_GUARD_DEFAULTS.maxWatchesPerUser;
    this.stallTimeoutMs = opts.stallTimeoutMs ?? WATCH_GUARD_DEFAULTS.stallTimeoutMs;
  }

  /** Counts a new watch of this user in, or throws 429 when a limit is reached. */
  enter(user: UserInfo): WatchSlot {
    if (this.maxWatches > 0 && this.open.size >= this.maxWatches) {
      throw errors.tooManyRequests(`too many watches: the server allows ${this.maxWatches} open watches`);
    }
    const mine = this.perUser.get(user.name) ?? 0;
    if (this.maxWatchesPerUser > 0 && mine >= this.maxWatchesPerUser) {
      throw errors.tooManyRequests(`too many watches: user "${user.name}" may have ${this.maxWatchesPerUser} open watches`);
    }
    const slot = new WatchSlot(user.name, (s) => this.leave(s));
    this.open.add(slot);
    this.perUser.set(user.name, mine + 1);
    if (this.stallTimeoutMs > 0 && !this.sweeper) {
      const every = Math.max(10, Math.min(1000, Math.floor(this.stallTimeoutMs / 4)));
      this.sweeper = setInterval(() => this.sweep(), every);
      this.sweeper.unref();
    }
    return slot;
  }

  /** Open watches in total, or of one user. */
  count(user?: string): number {
    return user === undefined ? this.open.size : (this.perUser.get(user) ?? 0);
  }

  private leave(slot: WatchSlot): void {
    if (!this.open.delete(slot)) return;
    const n = (this.perUser.get(slot.user) ?? 1) - 1;
    if (n > 0) this.perUser.set(slot.user, n);
    else this.perUser.delete(slot.user);
    if (this.open.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** Ends the watches whose client has taken no data for the stall timeout. */
  sweep(now = Date.now()): void {
    for (const slot of [...this.open]) {
      const since = slot.stalledSince(now);
      if (since !== undefined && now - since >= this.stallTimeoutMs) slot.stall();
    }
  }
}
