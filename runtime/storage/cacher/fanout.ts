// Fan-out of a resource type's changes to its watchers, off the writer's
// path. Items (changes, bookmarks) are published in order and delivered in
// sweeps: a sweep takes every item published since the previous one and hands
// that whole batch to each watcher in turn, a slice of watchers per turn of
// the event loop (as many as fit in a small time budget, at least a few), so a
// write's answer never waits for the watchers and other work (the next
// request, the next commit) waits at most one slice. Items
// published while a sweep runs form the next batch: the busier the writers,
// the more items a watcher gets in one delivery, and the number of
// deliveries stays bounded by how fast sweeps go round.
// Watchers added during a sweep join from the next one; a removed watcher
// gets nothing more.
// While writes keep coming (items arrived during the sweep that just ended),
// the next sweep waits so that sweeps take at most a share of the time (by
// default a tenth): every watcher costs a socket write a sweep whatever the
// batch holds, so under a stream of writes the batches grow instead of the
// writes to watchers multiplying, and the writers keep the rest of the time.
// The wait is at most 200 ms however long the sweep took (a machine so busy
// that a sweep takes long must not leave the watchers seconds behind).
// Such a backlog sweep (a batch of several items, or items arriving while it
// runs) takes shorter turns: a writer's next step (its commit, its answer,
// its next request) waits for the turn in progress, and a long batch makes
// each watcher's delivery long, so the least a turn does is counted in item
// deliveries, not watchers.
// An item published when no sweep ran just before goes out on the next turn.
// The clock is read every few item deliveries, not after each watcher: a
// delivery of one small item costs about as much as reading the clock.

export interface FanoutOptions<I, W> {
  /** Hands a batch of items, in publication order, to one watcher. */
  deliver: (watcher: W, items: readonly I[]) => void;
  /** Time a turn of the event loop may spend delivering, in ms (default 1). */
  sliceMs?: number;
  /** The budget of a turn while writes keep coming (the sweep's batch holds several items, or items were published since it began), in ms (default 0.25, at most sliceMs): a writer's next step waits at most about this long. */
  busySliceMs?: number;
  /** Item deliveries a turn makes whatever the time they take (default 16; a watcher's delivery of a batch counts its items): on a busy machine, where a slice is often interrupted, a sweep still takes a bounded number of turns, and a watcher handed a long batch fills a turn alone. */
  sliceMin?: number;
  /** Runs a slice later (default setImmediate: after pending I/O is looked at). */
  schedule?: (run: () => void) => void;
  /** Runs a sweep after a rest of ms milliseconds (default setTimeout). */
  scheduleAfter?: (run: () => void, ms: number) => void;
  /** The largest share of the time back-to-back sweeps take while items keep arriving (default 0.1). */
  busyShare?: number;
  /** The longest wait before a sweep while items keep arriving, in ms (default 200): above it sweeps take a bigger share. */
  maxRestMs?: number;
  /** Item deliveries between readings of the clock within a turn (default 8; a watcher's delivery of a batch counts its items): a turn may run over its budget by this many small deliveries. */
  clockStride?: number;
  /** Clock in ms (default performance.now). */
  now?: () => number;
  /** Told of items no watcher will be handed any more (delivered to all, or nobody to deliver to), in publication order. */
  settled?: (items: readonly I[]) => void;
}

interface Sweep<I, W> {
  items: I[];
  targets: W[];
  next: number;
}

export class Fanout<I, W> {
  private readonly members = new Set<W>();
  private pending: I[] = [];
  private sweep: Sweep<I, W> | null = null;
  private scheduled = false;
  private readonly deliver: (watcher: W, items: readonly I[]) => void;
  private readonly sliceMs: number;
  private readonly busySliceMs: number;
  private readonly sliceMin: number;
  private readonly schedule: (run: () => void) => void;
  private readonly scheduleAfter: (run: () => void, ms: number) => void;
  private readonly restFactor: number;
  private readonly maxRestMs: number;
  private readonly clockStride: number;
  /** Time the running sweep's slices took so far, in ms. */
  private cost = 0;
  /** No sweep starts before this time (set after a sweep during which items arrived). */
  private restUntil = -Infinity;
  private readonly now: () => number;
  private readonly settled: (items: readonly I[]) => void;

  constructor(opts: FanoutOptions<I, W>) {
    this.deliver = opts.deliver;
    this.sliceMs = opts.sliceMs ?? 1;
    this.busySliceMs = Math.min(this.sliceMs, opts.busySliceMs ?? 0.25);
    this.sliceMin = Math.max(1, opts.sliceMin ?? 16);
    this.schedule = opts.schedule ?? ((run) => setImmediate(run));
    this.scheduleAfter = opts.scheduleAfter ?? ((run, ms) => setTimeout(run, ms));
    const share = Math.min(1, Math.max(0.05, opts.busyShare ?? 0.1));
    this.restFactor = (1 - share) / share;
    this.maxRestMs = opts.maxRestMs ?? 200;
    this.clockStride = Math.max(1, opts.clockStride ?? 8);
    this.now = opts.now ?? (() => performance.now());
    this.settled = opts.settled ?? (() => undefined);
  }

  get size(): number {
    return this.members.size;
  }
  /** True while items wait for delivery. */
  get busy(): boolean {
    return this.sweep !== null || this.pending.length > 0;
  }

  add(watcher: W): void {
    this.members.add(watcher);
  }
  delete(watcher: W): void {
    this.members.delete(watcher);
  }
  has(watcher: W): boolean {
    return this.members.has(watcher);
  }
  [Symbol.iterator](): IterableIterator<W> {
    return this.members[Symbol.iterator]();
  }
  /** Forgets every watcher, and what was not yet delivered. */
  clear(): void {
    this.members.clear();
    const dropped = [...(this.sweep?.items ?? []), ...this.pending];
    this.pending = [];
    this.sweep = null;
    if (dropped.length) this.settled(dropped);
  }

  /** Queues an item for every watcher; delivery starts on a later turn. */
  publish(item: I): void {
    // with no watcher and no sweep running there is nobody to tell
    if (this.members.size === 0 && !this.sweep) return this.settled([item]);
    this.pending.push(item);
    this.kick();
  }

  /** Delivers everything published so far, now (before ending watchers, so none misses an event it was owed). */
  flush(): void {
    while (this.sweep || this.pending.length) {
      if (!this.sweep) this.begin();
      this.runSlice(Infinity);
    }
  }

  private kick(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const rest = this.sweep ? 0 : this.restUntil - this.now();
    if (rest > 0) this.scheduleAfter(() => this.turn(), rest);
    else this.schedule(() => this.turn());
  }

  private begin(): void {
    this.cost = 0;
    this.sweep = { items: this.pending, targets: [...this.members], next: 0 };
    this.pending = [];
  }

  private turn(): void {
    this.scheduled = false;
    if (!this.sweep) {
      if (this.pending.length === 0) return;
      this.begin();
    }
    const s = this.sweep!;
    // a batch of several items, or items published since it began: writes keep coming, and a writer is likely waiting for its next step
    this.runSlice(s.items.length > 1 || this.pending.length ? this.busySliceMs : this.sliceMs);
    if (this.sweep || this.pending.length) this.kick();
  }

  private runSlice(budgetMs: number): void {
    const s = this.sweep!;
    const start = budgetMs === Infinity ? 0 : this.now();
    // the minimum counts item deliveries: a long batch fills a turn with fewer watchers
    const batch = Math.max(1, s.items.length);
    const least = Math.ceil(this.sliceMin / batch);
    // watchers served between readings of the clock, once the least is served
    const stride = Math.ceil(this.clockStride / batch);
    let served = 0;
    while (s.next < s.targets.length) {
      if (served >= least && budgetMs !== Infinity && (served - least) % stride === 0 && this.now() - start >= budgetMs) break;
      served++;
      const w = s.targets[s.next++];
      // a slice must not stop because one watcher's delivery failed
      if (this.members.has(w)) {
        try {
          this.deliver(w, s.items);
        } catch {
          this.members.delete(w);
        }
      }
    }
    if (budgetMs !== Infinity) this.cost += this.now() - start;
    if (s.next >= s.targets.length) {
      this.sweep = null;
      // items that came in while it ran: writes keep coming, so the next sweep waits its turn
      if (this.pending.length && budgetMs !== Infinity) this.restUntil = this.now() + Math.min(this.maxRestMs, this.cost * this.restFactor);
      this.settled(s.items);
    }
  }
}
