// The fan-out's sweeps, driven by hand (a fake scheduler: one step runs the
// slice that was scheduled; a fake clock: each delivery takes 1 ms, so a
// budget of n ms serves n watchers a turn; rows serve at least one a turn): batches, slices, watchers joining and leaving
// mid-sweep, flushing, clearing, a failing watcher, the rest between sweeps
// while items keep arriving, and which batches are
// settled (handed to every watcher, or to nobody). Each row is a script of steps
// and the deliveries expected after it.
import { describe, expect, it } from 'vitest';
import { Fanout } from './fanout.ts';

type Step =
  | ['pub', string] // publish an item
  | ['add', string] // add a watcher
  | ['del', string] // remove a watcher
  | ['turn'] // run the slice that was scheduled
  | ['flush'] // deliver everything now
  | ['clear']; // forget every watcher and what was not delivered

interface Row {
  name: string;
  /** The budget of a turn, in ms. */
  slice: number;
  steps: Step[];
  /** Deliveries, as `watcher:item,item`, in order. */
  want: string[];
  /** Slices still scheduled at the end. */
  scheduled?: number;
  /** A watcher whose delivery throws. */
  failing?: string;
  /** Batches told settled (no watcher will be handed them any more), as `1,2`, in order. */
  settled?: string[];
  /** busyShare, when not the default. */
  share?: number;
  /** maxRestMs, when not the default. */
  maxRest?: number;
  /** Rests asked for before a sweep (ms), in order. */
  rests?: number[];
  /** The budget of a turn while writes keep coming, when not the same as slice. */
  busySlice?: number;
}

const rows: Row[] = [
  {
    name: 'nothing is delivered on the publishing turn; one slice per turn',
    slice: 2,
    steps: [['add', 'a'], ['add', 'b'], ['add', 'c'], ['pub', '1'], ['turn']],
    want: ['a:1', 'b:1'],
    scheduled: 1,
    settled: [],
  },
  {
    name: 'a sweep reaches every watcher in order over several turns',
    slice: 2,
    steps: [['add', 'a'], ['add', 'b'], ['add', 'c'], ['pub', '1'], ['turn'], ['turn']],
    want: ['a:1', 'b:1', 'c:1'],
    scheduled: 0,
    settled: ['1'],
  },
  {
    name: 'items published during a sweep form the next batch, delivered together',
    slice: 1,
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['pub', '2'], ['pub', '3'], ['turn'], ['turn'], ['turn']],
    want: ['a:1', 'b:1', 'a:2,3', 'b:2,3'],
    scheduled: 0,
    settled: ['1', '2,3'],
  },
  {
    name: 'items published before the first turn are one batch',
    slice: 8,
    steps: [['add', 'a'], ['pub', '1'], ['pub', '2'], ['turn']],
    want: ['a:1,2'],
    scheduled: 0,
  },
  {
    name: 'a watcher added during a sweep joins from the next batch',
    slice: 1,
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['add', 'c'], ['turn'], ['pub', '2'], ['turn'], ['turn'], ['turn']],
    want: ['a:1', 'b:1', 'a:2', 'b:2', 'c:2'],
    scheduled: 0,
  },
  {
    name: 'a watcher removed during a sweep gets nothing more',
    slice: 1,
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['del', 'b'], ['turn'], ['pub', '2'], ['turn']],
    want: ['a:1', 'a:2'],
    scheduled: 0,
  },
  {
    name: 'with no watcher nothing is kept or scheduled',
    slice: 4,
    steps: [['pub', '1'], ['add', 'a'], ['pub', '2'], ['turn']],
    want: ['a:2'],
    scheduled: 0,
    settled: ['1', '2'],
  },
  {
    name: 'clear settles what the running sweep and the pending batch still held',
    slice: 1,
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['pub', '2'], ['clear'], ['pub', '3']],
    want: ['a:1'],
    settled: ['1,2', '3'],
  },
  {
    name: 'flush finishes the running sweep and the pending batch at once, in order',
    slice: 1,
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['pub', '2'], ['flush']],
    want: ['a:1', 'b:1', 'a:2', 'b:2'],
    settled: ['1', '2'],
  },
  {
    name: 'after a sweep during which items arrived, the next one rests nine times as long as the sweep took (a tenth of the time)',
    slice: 1,
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['pub', '2'], ['turn'], ['turn'], ['turn']],
    want: ['a:1', 'b:1', 'a:2', 'b:2'],
    scheduled: 0,
    rests: [18],
    settled: ['1', '2'],
  },
  {
    name: 'with a share of half it rests as long as the sweep took',
    slice: 1,
    share: 0.5,
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['pub', '2'], ['turn'], ['turn'], ['turn']],
    want: ['a:1', 'b:1', 'a:2', 'b:2'],
    rests: [2],
  },
  {
    name: 'the rest is cut to maxRestMs however long the sweep took',
    slice: 1,
    maxRest: 5,
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['pub', '2'], ['turn'], ['turn'], ['turn']],
    want: ['a:1', 'b:1', 'a:2', 'b:2'],
    rests: [5],
  },
  {
    name: 'items published while it rests join the waiting batch',
    slice: 1,
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['pub', '2'], ['turn'], ['pub', '3'], ['turn'], ['turn']],
    want: ['a:1', 'b:1', 'a:2,3', 'b:2,3'],
    scheduled: 0,
    rests: [18],
  },
  {
    name: 'an item published after a sweep that nothing interrupted goes out on the next turn',
    slice: 1,
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['turn'], ['pub', '2'], ['turn'], ['turn']],
    want: ['a:1', 'b:1', 'a:2', 'b:2'],
    scheduled: 0,
    rests: [],
  },
  {
    name: 'flush does not rest',
    slice: 1,
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['pub', '2'], ['turn'], ['flush']],
    want: ['a:1', 'b:1', 'a:2', 'b:2'],
    rests: [18],
    settled: ['1', '2'],
  },
  {
    name: 'a watcher whose delivery throws is dropped; the others still get theirs',
    slice: 8,
    failing: 'a',
    steps: [['add', 'a'], ['add', 'b'], ['pub', '1'], ['turn'], ['pub', '2'], ['turn']],
    want: ['b:1', 'b:2'],
    scheduled: 0,
  },
  {
    name: 'a batch of several items (writes keep coming) gets the short budget: the writers wait less between turns',
    slice: 4,
    busySlice: 1,
    steps: [['add', 'a'], ['add', 'b'], ['add', 'c'], ['pub', '1'], ['pub', '2'], ['turn']],
    want: ['a:1,2'],
    scheduled: 1,
  },
  {
    name: 'a single item gets the full budget, until more are published during its sweep',
    slice: 3,
    busySlice: 1,
    steps: [['add', 'a'], ['add', 'b'], ['add', 'c'], ['add', 'd'], ['add', 'e'], ['pub', '1'], ['turn'], ['pub', '2'], ['turn']],
    want: ['a:1', 'b:1', 'c:1', 'd:1'],
    scheduled: 1,
  },
  {
    name: 'the short budget is never longer than the full one',
    slice: 1,
    busySlice: 5,
    steps: [['add', 'a'], ['add', 'b'], ['add', 'c'], ['pub', '1'], ['pub', '2'], ['turn']],
    want: ['a:1,2'],
    scheduled: 1,
  },
];

describe('Fanout', () => {
  it.each(rows)('$name', (row) => {
    const queue: (() => void)[] = [];
    const got: string[] = [];
    const settled: string[] = [];
    const rests: number[] = [];
    let clock = 0;
    const f = new Fanout<string, string>({
      sliceMs: row.slice,
      busySliceMs: row.busySlice ?? row.slice,
      sliceMin: 1,
      clockStride: 1,
      busyShare: row.share,
      maxRestMs: row.maxRest,
      schedule: (run) => queue.push(run),
      scheduleAfter: (run, ms) => {
        rests.push(ms);
        queue.push(run);
      },
      now: () => clock,
      deliver: (w, items) => {
        clock += 1;
        if (w === row.failing) throw new Error('broken');
        got.push(`${w}:${items.join(',')}`);
      },
      settled: (items) => settled.push(items.join(',')),
    });
    for (const step of row.steps) {
      if (step[0] === 'pub') f.publish(step[1]);
      else if (step[0] === 'add') f.add(step[1]);
      else if (step[0] === 'del') f.delete(step[1]);
      else if (step[0] === 'flush') f.flush();
      else if (step[0] === 'clear') f.clear();
      else queue.shift()?.();
    }
    expect(got).toEqual(row.want);
    if (row.scheduled !== undefined) expect(queue.length).toBe(row.scheduled);
    if (row.failing) expect(f.has(row.failing)).toBe(false);
    if (row.settled) expect(settled).toEqual(row.settled);
    if (row.rests) expect(rests).toEqual(row.rests);
  });

  it('serves at least one watcher a turn however long a delivery takes; is idle once every batch went out', () => {
    const queue: (() => void)[] = [];
    let clock = 0;
    const f = new Fanout<number, string>({ sliceMs: 1, sliceMin: 1, schedule: (run) => queue.push(run), now: () => clock, deliver: () => (clock += 5) });
    f.add('a');
    f.add('b');
    f.publish(1);
    expect(f.busy).toBe(true);
    queue.shift()!();
    expect(f.busy).toBe(true);
    queue.shift()!();
    expect(f.busy).toBe(false);
    expect(queue).toEqual([]);
  });

  it.each([
    { name: 'a 0.25 ms budget', sliceMs: 0.25 },
    { name: 'the default budgets (1 ms, 0.25 ms while writes keep coming)', sliceMs: undefined },
  ])('1,000 watchers and a burst, $name: no turn goes over 0.25 ms, every watcher gets every item once and in order, and deliveries follow sweeps, not items', ({ sliceMs }) => {
    const queue: (() => void)[] = [];
    let clock = 0;
    let served = 0;
    const got = new Map<string, number[]>();
    const deliveries = new Map<string, number>();
    const f = new Fanout<number, string>({
      sliceMs,
      schedule: (run) => queue.push(run),
      scheduleAfter: (run) => queue.push(run),
      now: () => clock,
      deliver: (w, items) => {
        // a socket write: 10 µs whatever the batch holds
        clock += 0.01;
        served++;
        got.get(w)!.push(...items);
        deliveries.set(w, (deliveries.get(w) ?? 0) + 1);
      },
    });
    for (let i = 0; i < 1000; i++) {
      f.add(`w${i}`);
      got.set(`w${i}`, []);
    }
    const items = 2000;
    let published = 0;
    let most = 0;
    while (published < items || queue.length) {
      // writers publish between turns while the burst lasts
      for (let i = 0; i < 20 && published < items; i++) f.publish(published++);
      served = 0;
      queue.shift()?.();
      most = Math.max(most, served);
      clock += 0.05;
    }
    // a turn serves what fits in 0.25 ms (the watcher that crosses it included), never the whole 1,000
    expect(most).toBeLessThanOrEqual(26);
    const all = Array.from({ length: items }, (_, i) => i);
    for (const g of got.values()) expect(g).toEqual(all);
    // items published during a sweep go out together: a watcher gets a handful of deliveries, not one per item
    expect(Math.max(...deliveries.values())).toBeLessThanOrEqual(10);
    expect(f.busy).toBe(false);
  });

  it('a turn serves at least sliceMin watchers however long each takes (a busy machine interrupting slices), so a sweep of 1,000 takes a bounded number of turns', () => {
    const queue: (() => void)[] = [];
    let clock = 0;
    let served = 0;
    const perTurn: number[] = [];
    // every delivery looks slow: the process was interrupted
    const f = new Fanout<number, number>({ sliceMs: 0.25, schedule: (run) => queue.push(run), now: () => clock, deliver: () => ((clock += 1), served++) });
    for (let i = 0; i < 1000; i++) f.add(i);
    f.publish(1);
    while (queue.length) {
      served = 0;
      queue.shift()!();
      perTurn.push(served);
    }
    // the default minimum, 16 a turn: 63 turns, not 1,000
    expect(perTurn.slice(0, -1).every((n) => n === 16)).toBe(true);
    expect(perTurn.length).toBe(Math.ceil(1000 / 16));
  });

  it.each([
    { items: 1, perTurn: 16 },
    { items: 4, perTurn: 4 },
    { items: 5, perTurn: 4 },
    { items: 16, perTurn: 1 },
    { items: 200, perTurn: 1 },
  ])('the minimum counts item deliveries: a batch of $items serves $perTurn watchers a turn when each delivery is slow', ({ items, perTurn }) => {
    const queue: (() => void)[] = [];
    let clock = 0;
    let served = 0;
    const counts: number[] = [];
    const f = new Fanout<number, number>({ sliceMs: 0.25, schedule: (run) => queue.push(run), now: () => clock, deliver: () => ((clock += 1), served++) });
    for (let i = 0; i < 100; i++) f.add(i);
    for (let i = 0; i < items; i++) f.publish(i);
    while (queue.length) {
      served = 0;
      queue.shift()!();
      counts.push(served);
    }
    expect(counts.slice(0, -1).every((n) => n === perTurn)).toBe(true);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(100);
  });

  it.each([
    { name: 'one item: the clock is read every 8 watchers', items: 1, stride: 8, reads: [16, 24, 32] },
    { name: 'two items: every 4 watchers', items: 2, stride: 8, reads: [8, 12, 16] },
    { name: 'a batch as long as the stride: after each watcher', items: 8, stride: 8, reads: [2, 3, 4] },
    { name: 'a stride of 1: after each watcher', items: 1, stride: 1, reads: [16, 17, 18] },
  ])('$name once the least is served, and a turn stops at the first reading past its budget', ({ items, stride, reads }) => {
    const queue: (() => void)[] = [];
    let served = 0;
    const readAt: number[] = [];
    const f = new Fanout<number, number>({
      sliceMs: 0.25,
      busySliceMs: 0.25,
      clockStride: stride,
      schedule: (run) => queue.push(run),
      // the budget is spent at the third reading after the turn's start
      now: () => {
        readAt.push(served);
        return readAt.length >= 4 ? 1 : 0;
      },
      deliver: () => served++,
    });
    for (let i = 0; i < 100; i++) f.add(i);
    for (let i = 0; i < items; i++) f.publish(i);
    readAt.length = 0;
    queue.shift()!();
    // readings: the start of the turn, then after `least` deliveries and every stride's worth of items
    expect(readAt.slice(1, 4)).toEqual(reads);
    expect(served).toBe(reads[2]);
  });
});
