// A WatchStream fed by pushes: a bounded buffer between a producer (a KV
// watch, the watch cache's fan-out) and one consumer iterating with
// for-await. When the consumer falls behind by more than the bound, the
// stream is cut off: no more events are accepted and, once the buffered ones
// are read, iteration ends (the client re-watches from its last version).
// A consumer that writes synchronously (a watch served over a socket) may
// instead be told at once when events arrive, and take them in batches.
// A reader above storage may have each event mapped as it comes in
// (mapEvents), so the consumer still takes them from the queue.
// A batch that arrives while nothing is buffered is kept as it came, not
// copied: the fan-out hands the same array to every watcher of a sweep, so
// a socket writer takes that very array (and its encoding, shared by
// array); the queue copies it only before changing it.
import type { WatchEvent, WatchStream } from '../interface.ts';

export class EventQueue implements WatchStream {
  private buf: WatchEvent[] = [];
  /** buf is a batch as pushAll was handed it (shared with its producer and other queues): copied before it is changed. */
  private borrowed = false;
  private head = 0;
  private waiter: (() => void) | null = null;
  private listener: (() => void) | undefined;
  private ended = false;
  private stopped = false;
  /** True once the stream was cut off for being too slow. */
  overflowed = false;
  /** False when the producer cannot answer progress requests. */
  progressSupported?: boolean;
  private forced = 0;
  private consumed = 0;
  private map: ((ev: WatchEvent) => WatchEvent) | undefined;

  constructor(
    private maxBuffered: number,
    private onStop: () => void = () => {},
    private onProgressRequest?: () => void,
  ) {}

  get buffered(): number {
    return this.buf.length - this.head;
  }
  get closed(): boolean {
    return this.ended || this.stopped;
  }

  /**
   * Maps every event from now on as it is added, and the ones already
   * buffered: fn runs synchronously in the producer (it should be cheap or
   * remember its answers, as one event goes to many queues).
   */
  mapEvents(fn: (ev: WatchEvent) => WatchEvent): void {
    const prev = this.map;
    this.map = prev ? (ev) => fn(prev(ev)) : fn;
    this.own();
    for (let i = this.head; i < this.buf.length; i++) this.buf[i] = fn(this.buf[i]);
  }

  /** Adds an event outside the bound (the initial state of a watch). */
  pushInitial(ev: WatchEvent): void {
    if (this.ended || this.stopped) return;
    this.forced++;
    this.own();
    this.buf.push(this.map ? this.map(ev) : ev);
    this.wake();
  }

  /** Adds an event; false when the stream no longer accepts events. */
  push(ev: WatchEvent): boolean {
    if (this.ended || this.stopped) return false;
    if (this.buffered >= this.maxBuffered + Math.max(0, this.forced - this.consumed)) {
      this.overflowed = true;
      this.end();
      return false;
    }
    this.own();
    this.buf.push(this.map ? this.map(ev) : ev);
    this.wake();
    return true;
  }

  /**
   * Adds a batch of events in order and tells the consumer once: a socket
   * writer then takes them all in one write. The bound is about the
   * consumer's backlog, not the batch: a batch is what the producer held
   * back and hands over together (the fan-out's sweep), so it is taken
   * whole while the consumer is within its bound, however many events it
   * holds; a consumer already at the bound when a batch comes is cut off
   * (what it had is still read). Returns false when the stream did not
   * take the batch.
   */
  pushAll(events: readonly WatchEvent[]): boolean {
    if (this.ended || this.stopped) return false;
    if (events.length === 0) return true;
    if (this.buffered >= this.maxBuffered + Math.max(0, this.forced - this.consumed)) {
      this.overflowed = true;
      this.end();
      return false;
    }
    const map = this.map;
    if (!map && this.head === this.buf.length) {
      // nothing buffered: the batch itself is the buffer
      this.buf = events as WatchEvent[];
      this.head = 0;
      this.borrowed = true;
    } else {
      this.own();
      if (map) for (const ev of events) this.buf.push(map(ev));
      else for (const ev of events) this.buf.push(ev);
    }
    this.wake();
    return true;
  }

  /** No more events; iteration ends after the buffered ones. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onStop();
    this.wake();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.buf = [];
    this.borrowed = false;
    this.head = 0;
    if (!this.ended) {
      this.ended = true;
      this.onStop();
    }
    this.wake();
  }

  requestProgress(): void {
    if (!this.closed) this.onProgressRequest?.();
  }

  /** Calls fn synchronously whenever events arrive or the stream ends (undefined: no longer). */
  listen(fn: (() => void) | undefined): void {
    this.listener = fn;
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
    this.listener?.();
  }

  /** The buffer as the queue's own array (a borrowed batch is copied first). */
  private own(): void {
    if (!this.borrowed) return;
    this.buf = this.buf.slice(this.head);
    this.head = 0;
    this.borrowed = false;
  }

  /**
   * Takes the events already buffered (at most max), without waiting: for a
   * consumer that writes them out together. The array may be a batch shared
   * with other queues (the same array for every watcher of a sweep): it is
   * not to be changed.
   */
  takeBuffered(max = Infinity): readonly WatchEvent[] {
    const n = Math.min(this.buf.length - this.head, max);
    if (n <= 0) return [];
    let out: readonly WatchEvent[];
    if (this.head === 0 && n === this.buf.length) {
      out = this.buf;
      this.buf = [];
      this.borrowed = false;
    } else {
      out = this.buf.slice(this.head, this.head + n);
      this.head += n;
      if (this.head === this.buf.length) {
        this.buf = [];
        this.borrowed = false;
        this.head = 0;
      } else if (this.head > 1024 && this.head * 2 > this.buf.length) {
        this.buf = this.buf.slice(this.head);
        this.borrowed = false;
        this.head = 0;
      }
    }
    this.consumed += n;
    return out;
  }

  async next(): Promise<IteratorResult<WatchEvent>> {
    for (;;) {
      if (this.head < this.buf.length) {
        this.own();
        const value = this.buf[this.head];
        this.consumed++;
        this.buf[this.head++] = undefined as unknown as WatchEvent;
        if (this.head > 1024 && this.head * 2 > this.buf.length) {
          this.buf = this.buf.slice(this.head);
          this.head = 0;
        }
        return { value, done: false };
      }
      if (this.ended || this.stopped) return { value: undefined, done: true };
      await new Promise<void>((r) => {
        this.waiter = r;
      });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return {
      next: () => this.next(),
      return: async () => {
        this.stop();
        return { value: undefined, done: true };
      },
    };
  }
}
