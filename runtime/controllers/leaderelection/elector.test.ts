import { describe, expect, it } from 'vitest';
import { LeaderElector, validateElectionTimings, type Clock, type LeaderElectionRecord, type LockedRecord, type ResourceLock } from './elector.ts';

/** A clock whose time moves only when the test advances it; sleeps resolve when their time comes. */
class FakeClock implements Clock {
  t = 1_000_000;
  private timers: { at: number; resolve: () => void }[] = [];
  now(): number {
    return this.t;
  }
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const onAbort = () => {
        this.timers = this.timers.filter((x) => x !== entry);
        resolve();
      };
      const entry = {
        at: this.t + ms,
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.timers.push(entry);
      signal.addEventListener('abort', onAbort);
    });
  }
  /** Moves time forward step by step, running what each due timer starts. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await settle();
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.t = Math.max(this.t, due.at);
      this.timers = this.timers.filter((x) => x !== due);
      due.resolve();
    }
    this.t = end;
    await settle();
  }
}

/** Lets pending promise chains run (no time passes on the fake clock). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

/** One shared record with a version, as a Lease in storage; `down` makes every call fail. */
class MemoryLock implements ResourceLock {
  stored: LockedRecord | null = null;
  down = false;
  private n = 0;
  async get() {
    if (this.down) throw new Error('storage unavailable');
    return this.stored && { record: { ...this.stored.record }, version: this.stored.version };
  }
  async create(record: LeaderElectionRecord) {
    if (this.down) throw new Error('storage unavailable');
    if (this.stored) throw new Error('already exists');
    this.stored = { record: { ...record }, version: String(++this.n) };
    return this.stored.version;
  }
  async update(record: LeaderElectionRecord, version: string) {
    if (this.down) throw new Error('storage unavailable');
    if (!this.stored || this.stored.version !== version) throw new Error('conflict');
    this.stored = { record: { ...record }, version: String(++this.n) };
    return this.stored.version;
  }
}

const timings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

function candidate(id: string, lock: ResourceLock, clock: Clock) {
  const events: string[] = [];
  const e = new LeaderElector({
    ...timings,
    identity: id,
    lock,
    clock,
    random: () => 0,
    onStartedLeading: () => void events.push('started'),
    onStoppedLeading: () => void events.push('stopped'),
    recordEvent: (m) => void events.push(`event: ${m}`),
  });
  return { e, events };
}

describe('validateElectionTimings (client-go texts)', () => {
  const rows: [string, number, number, number, string | undefined][] = [
    ['the defaults', 15_000, 10_000, 2_000, undefined],
    ['lease not longer than the renew deadline', 10_000, 10_000, 2_000, 'leaseDuration must be greater than renewDeadline'],
    ['renew deadline within the jittered retry', 15_000, 2_400, 2_000, 'renewDeadline must be greater than retryPeriod*JitterFactor'],
    ['zero retry period', 15_000, 10_000, 0, 'retryPeriod must be greater than zero'],
  ];
  it.each(rows)('%s', (_n, lease, renew, retry, want) => {
    const run = () => validateElectionTimings(lease, renew, retry);
    if (want) expect(run).toThrow(want);
    else expect(run).not.toThrow();
  });
});

describe('tryAcquireOrRenew', () => {
  it('creates the record when there is none, then renews keeping acquireTime and the transitions', async () => {
    const clock = new FakeClock();
    const lock = new MemoryLock();
    const { e } = candidate('a', lock, clock);
    expect(await e.tryAcquireOrRenew()).toBe(true);
    expect(lock.stored!.record).toEqual({ holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: clock.t, renewTime: clock.t, leaseTransitions: 0 });
    const acquired = clock.t;
    clock.t += 2000;
    expect(await e.tryAcquireOrRenew()).toBe(true);
    expect(lock.stored!.record).toMatchObject({ holderIdentity: 'a', acquireTime: acquired, renewTime: clock.t, leaseTransitions: 0 });
    expect(e.isLeader()).toBe(true);
  });

  it('does not take a lease another holds until it has been unchanged for its duration by its own clock', async () => {
    const clock = new FakeClock();
    const lock = new MemoryLock();
    const a = candidate('a', lock, clock).e;
    const b = candidate('b', lock, clock).e;
    expect(await a.tryAcquireOrRenew()).toBe(true);
    expect(await b.tryAcquireOrRenew()).toBe(false);
    clock.t += 14_999;
    expect(await b.tryAcquireOrRenew()).toBe(false);
    clock.t += 1;
    expect(await b.tryAcquireOrRenew()).toBe(true);
    expect(lock.stored!.record).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1, acquireTime: clock.t });
    // a's next renewal sees b's record: it is no longer the leader and may not take it back
    expect(await a.tryAcquireOrRenew()).toBe(false);
    expect(a.isLeader()).toBe(false);
  });

  it('a renewal by the holder restarts the observer clock, whatever times the record carries', async () => {
    const clock = new FakeClock();
    const lock = new MemoryLock();
    const a = candidate('a', lock, clock).e;
    const b = candidate('b', lock, clock).e;
    await a.tryAcquireOrRenew();
    await b.tryAcquireOrRenew();
    clock.t += 10_000;
    await a.tryAcquireOrRenew();
    clock.t += 10_000;
    // 20 s since b first looked, 10 s since the record last changed
    expect(await b.tryAcquireOrRenew()).toBe(false);
  });

  it('takes a released lease (empty holder) at once', async () => {
    const clock = new FakeClock();
    const lock = new MemoryLock();
    lock.stored = { record: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: clock.t, renewTime: clock.t, leaseTransitions: 3 }, version: '9' };
    const b = candidate('b', lock, clock).e;
    expect(await b.tryAcquireOrRenew()).toBe(true);
    expect(lock.stored.record).toMatchObject({ holderIdentity: 'b', leaseTransitions: 4 });
  });

  it('fails the attempt when the lock cannot be read or the write conflicts', async () => {
    const clock = new FakeClock();
    const lock = new MemoryLock();
    const a = candidate('a', lock, clock).e;
    lock.down = true;
    expect(await a.tryAcquireOrRenew()).toBe(false);
    lock.down = false;
    const racing: ResourceLock = { get: () => lock.get(), create: (r) => lock.create(r), update: () => Promise.reject(new Error('conflict')) };
    lock.stored = { record: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: 0, renewTime: 0, leaseTransitions: 0 }, version: '1' };
    expect(await candidate('b', racing, clock).e.tryAcquireOrRenew()).toBe(false);
  });
});

describe('the election loop', () => {
  it('exactly one of two candidates leads; the other takes over within the lease duration after the leader dies', async () => {
    const clock = new FakeClock();
    const lock = new MemoryLock();
    const a = candidate('a', lock, clock);
    const b = candidate('b', lock, clock);
    a.e.run();
    await clock.advance(0);
    b.e.run();
    await clock.advance(30_000);
    expect(a.events).toEqual(['event: became leader', 'started']);
    expect(b.events).toEqual([]);
    expect(lock.stored!.record.holderIdentity).toBe('a');
    // a dies without releasing: its renewals stop
    const died = clock.t;
    (a.e as unknown as { abort: AbortController }).abort.abort();
    await clock.advance(20_000);
    expect(b.events).toEqual(['event: became leader', 'started']);
    expect(lock.stored!.record.holderIdentity).toBe('b');
    // b took over no later than one lease duration plus one jittered retry after a's last renewal
    expect(lock.stored!.record.acquireTime - died).toBeLessThanOrEqual(15_000 + 2_000);
    await b.e.stop();
  });

  it('stops leading when no renewal succeeds within the renew deadline, and leads again once it can', async () => {
    const clock = new FakeClock();
    const lock = new MemoryLock();
    const a = candidate('a', lock, clock);
    a.e.run();
    await clock.advance(0);
    expect(a.events).toEqual(['event: became leader', 'started']);
    lock.down = true;
    await clock.advance(9_000);
    expect(a.events).toEqual(['event: became leader', 'started']);
    await clock.advance(2_000);
    expect(a.events).toEqual(['event: became leader', 'started', 'event: stopped leading', 'stopped']);
    expect(a.e.isLeading).toBe(false);
    lock.down = false;
    await clock.advance(5_000);
    // its own record: it renews it as the holder
    expect(a.events).toEqual(['event: became leader', 'started', 'event: stopped leading', 'stopped', 'event: became leader', 'started']);
    await a.e.stop();
  });

  it('keeps renewing while onStartedLeading is still running; stops leading only after it finished', async () => {
    const clock = new FakeClock();
    const lock = new MemoryLock();
    const events: string[] = [];
    let finishStart: () => void = () => {};
    const e = new LeaderElector({
      ...timings,
      identity: 'a',
      lock,
      clock,
      random: () => 0,
      onStartedLeading: () => new Promise<void>((r) => (finishStart = () => (events.push('started'), r()))),
      onStoppedLeading: () => void events.push('stopped'),
    });
    e.run();
    await clock.advance(0);
    const acquired = lock.stored!.record.renewTime;
    await clock.advance(20_000);
    // the start is slow, the renewals went on
    expect(lock.stored!.record.renewTime - acquired).toBe(20_000);
    expect(events).toEqual([]);
    const stopping = e.stop();
    await settle();
    expect(events).toEqual([]);
    finishStart();
    await stopping;
    expect(events).toEqual(['started', 'stopped']);
  });

  it('stop() releases the lease so that another candidate takes it on its next attempt', async () => {
    const clock = new FakeClock();
    const lock = new MemoryLock();
    const a = candidate('a', lock, clock);
    const b = candidate('b', lock, clock);
    a.e.run();
    await clock.advance(0);
    b.e.run();
    await clock.advance(4_000);
    await a.e.stop();
    expect(a.events).toEqual(['event: became leader', 'started', 'stopped']);
    expect(lock.stored!.record).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    await clock.advance(2_000);
    expect(b.events).toEqual(['event: became leader', 'started']);
    await b.e.stop();
  });
});
