// The watch guard: total and per-user caps (429), release, and the stall
// sweep that ends watches whose client takes no data.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { WatchGuard } from './watch-guard.ts';

const alice = { name: 'alice', groups: ['system:authenticated'] };
const bob = { name: 'bob', groups: ['system:authenticated'] };
const admin = { name: 'admin', groups: ['system:masters'] };

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('not refused');
}

describe('WatchGuard', () => {
  it('refuses a user over the per-user cap with 429 and Retry-After, others still pass', () => {
    const g = new WatchGuard({ maxWatches: 10, maxWatchesPerUser: 2, stallTimeoutMs: 0 });
    g.enter(alice);
    const second = g.enter(alice);
    const err = refusal(() => g.enter(alice));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status()).toMatchObject({ code: 429, reason: 'TooManyRequests', message: 'too many watches: user "alice" may have 2 open watches', details: { retryAfterSeconds: 1 } });
    expect(err.headers).toEqual({ 'Retry-After': '1' });
    expect(() => g.enter(bob)).not.toThrow();
    second.release();
    second.release(); // idempotent
    expect(g.count('alice')).toBe(1);
    expect(() => g.enter(alice)).not.toThrow();
  });

  it('refuses everyone, system:masters included, over the total cap', () => {
    const g = new WatchGuard({ maxWatches: 2, maxWatchesPerUser: 0, stallTimeoutMs: 0 });
    g.enter(alice);
    const b = g.enter(bob);
    expect(refusal(() => g.enter(admin)).status()).toMatchObject({ code: 429, message: 'too many watches: the server allows 2 open watches' });
    b.release();
    expect(g.count()).toBe(1);
    expect(() => g.enter(admin)).not.toThrow();
  });

  it('0 disables the caps', () => {
    const g = new WatchGuard({ maxWatches: 0, maxWatchesPerUser: 0, stallTimeoutMs: 0 });
    for (let i = 0; i < 2000; i++) g.enter(alice);
    expect(g.count('alice')).toBe(2000);
  });

  it('the sweep ends only watches waiting on their client longer than the stall timeout', () => {
    const g = new WatchGuard({ stallTimeoutMs: 1000 });
    const stalled = g.enter(alice);
    const asking = g.enter(alice);
    const recent = g.enter(bob);
    const ended: string[] = [];
    stalled.onStall = () => ended.push('stalled');
    asking.onStall = () => ended.push('asking');
    recent.onStall = () => ended.push('recent');
    stalled.waitingSince = 0;
    asking.waitingSince = undefined;
    recent.waitingSince = 500;
    g.sweep(1200);
    expect(ended).toEqual(['stalled']);
    expect(g.count('alice')).toBe(1);
    g.sweep(1600);
    expect(ended).toEqual(['stalled', 'recent']);
    g.sweep(99_999);
    expect(ended).toEqual(['stalled', 'recent']);
    asking.release();
    expect(g.count()).toBe(0);
  });

  it('over a socket: stalled once writes stay blocked with nothing drained, even with no event waiting', () => {
    const g = new WatchGuard({ stallTimeoutMs: 1000 });
    const slot = g.enter(alice);
    let state = { blocked: false, progress: 0 };
    slot.probe = () => state;
    slot.waitingSince = undefined; // no event waiting: the pull-side signal says nothing
    let ended = false;
    slot.onStall = () => {
      ended = true;
    };
    g.sweep(0);
    state = { blocked: true, progress: 500 };
    g.sweep(100); // blocked from here
    g.sweep(1000);
    expect(ended).toBe(false);
    state = { blocked: true, progress: 300 }; // some of it drained: the client is reading, slowly
    g.sweep(1050);
    g.sweep(2000);
    expect(ended).toBe(false);
    g.sweep(2050);
    expect(ended).toBe(true);
    expect(g.count()).toBe(0);
  });

  it('over a socket: a client still draining a big event is not stalled, whatever the stream side says', () => {
    const g = new WatchGuard({ stallTimeoutMs: 1000 });
    const slot = g.enter(alice);
    let progress = 10_000;
    slot.probe = () => ({ blocked: true, progress: (progress -= 100) });
    slot.waitingSince = 0;
    let ended = false;
    slot.onStall = () => {
      ended = true;
    };
    for (let t = 0; t <= 10_000; t += 250) g.sweep(t);
    expect(ended).toBe(false);
  });

  it('over a socket with writes not blocked: data the stream reader never takes counts as a stall', () => {
    const g = new WatchGuard({ stallTimeoutMs: 1000 });
    const slot = g.enter(alice);
    slot.probe = () => ({ blocked: false, progress: 0 });
    let ended = false;
    slot.onStall = () => {
      ended = true;
    };
    slot.waitingSince = 100;
    g.sweep(1000);
    expect(ended).toBe(false);
    g.sweep(1100);
    expect(ended).toBe(true);
  });
});
