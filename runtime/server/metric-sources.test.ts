// ObjectCountPoller: nothing is counted at start; the first scrape before a
// period ended counts (once, however many scrapes wait for it); each period
// counts again; a stopped poller counts no more.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { ObjectCountPoller } from './metric-sources.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** A poller over a counter that answers its call number as the count of `pods`. */
function poller(periodMs: number) {
  let calls = 0;
  const p = new ObjectCountPoller(async () => new Map([['pods', ++calls]]), periodMs);
  return { p, calls: () => calls };
}

describe('ObjectCountPoller', () => {
  it('counts nothing when started', async () => {
    const { p, calls } = poller(60_000);
    p.start();
    await new Promise((r) => setImmediate(r));
    expect(calls()).toBe(0);
    p.stop();
  });

  it.each([
    { name: 'one scrape', scrapes: 1 },
    { name: 'three scrapes at once', scrapes: 3 },
  ])('counts once on the first scrape before a period: $name', async ({ scrapes }) => {
    const { p, calls } = poller(60_000);
    p.start();
    const seen = await Promise.all(Array.from({ length: scrapes }, () => p.latest()));
    for (const counts of seen) expect(counts.get('pods')).toBe(1);
    expect(await p.latest()).toEqual(new Map([['pods', 1]]));
    expect(calls()).toBe(1);
    p.stop();
  });

  it('counts every period, and a scrape then reads the last count', async () => {
    vi.useFakeTimers();
    const { p, calls } = poller(1000);
    p.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls()).toBe(2);
    expect((await p.latest()).get('pods')).toBe(2);
    expect(calls()).toBe(2);
    p.stop();
  });

  it('counts no more once stopped', async () => {
    vi.useFakeTimers();
    const { p, calls } = poller(1000);
    p.start();
    p.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(await p.latest()).toEqual(new Map());
    expect(calls()).toBe(0);
  });
});
