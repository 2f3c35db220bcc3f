// The bounded event queue: taking what is buffered at once, and the cut-off
// bound counted the same way whether events were read one by one or taken
// together (initial events sit outside the bound); a batch is judged by the
// backlog it finds, not by its own size.
import { describe, expect, it } from 'vitest';
import { EventQueue } from './event-queue.ts';
import type { WatchEvent } from '../interface.ts';

const ev = (n: number): WatchEvent => ({ type: 'ADDED', object: { metadata: { name: `o${n}` } } });
const names = (evs: readonly WatchEvent[]) => evs.map((e) => e.object.metadata.name);

interface Row {
  name: string;
  bound: number;
  /** i<n>: pushInitial, p<n>: push, n: next(), t: takeBuffered() */
  steps: string[];
  taken: string[][];
  overflowed: boolean;
}

const rows: Row[] = [
  { name: 'takes everything buffered, in order', bound: 10, steps: ['p1', 'p2', 'p3', 't', 't'], taken: [['o1', 'o2', 'o3'], []], overflowed: false },
  { name: 'after a next(), takes the rest', bound: 10, steps: ['p1', 'p2', 'p3', 'n', 't'], taken: [['o1'], ['o2', 'o3']], overflowed: false },
  {
    name: 'taking frees room under the bound',
    bound: 2,
    steps: ['p1', 'p2', 't', 'p3', 'p4', 't'],
    taken: [
      ['o1', 'o2'],
      ['o3', 'o4'],
    ],
    overflowed: false,
  },
  { name: 'a push past the bound cuts the stream off; what was buffered is still taken', bound: 2, steps: ['p1', 'p2', 'p3', 't', 'p4', 't'], taken: [['o1', 'o2'], []], overflowed: true },
  { name: 'initial events are outside the bound, also when taken', bound: 1, steps: ['i1', 'i2', 'i3', 'p4', 't', 'p5', 't'], taken: [['o1', 'o2', 'o3', 'o4'], ['o5']], overflowed: false },
];

describe('EventQueue.takeBuffered', () => {
  it.each(rows)('$name', async (row) => {
    const q = new EventQueue(row.bound);
    const taken: string[][] = [];
    for (const s of row.steps) {
      if (s === 't') taken.push(names(q.takeBuffered()));
      else if (s === 'n') taken.push(names([(await q.next()).value as WatchEvent]));
      else if (s[0] === 'i') q.pushInitial(ev(Number(s.slice(1))));
      else q.push(ev(Number(s.slice(1))));
    }
    expect(taken).toEqual(row.taken);
    expect(q.overflowed).toBe(row.overflowed);
  });
});

interface AllRow {
  name: string;
  bound: number;
  /** events already pushed one by one */
  before: number;
  /** events pushed together */
  batch: number;
  accepted: boolean;
  /** how often the listener was told */
  wakes: number;
  taken: number;
  overflowed: boolean;
}

const allRows: AllRow[] = [
  { name: 'a batch wakes the consumer once', bound: 10, before: 0, batch: 5, accepted: true, wakes: 1, taken: 5, overflowed: false },
  { name: 'an empty batch does not wake it', bound: 10, before: 0, batch: 0, accepted: true, wakes: 0, taken: 0, overflowed: false },
  { name: 'a batch that fills the bound exactly is kept', bound: 4, before: 1, batch: 3, accepted: true, wakes: 2, taken: 4, overflowed: false },
  {
    name: 'a batch bigger than the bound is taken whole while the backlog is within it (a reader keeping up is not cut off)',
    bound: 4,
    before: 1,
    batch: 9,
    accepted: true,
    wakes: 2,
    taken: 10,
    overflowed: false,
  },
  { name: 'a batch for a stream already at its bound cuts it off; what it had is still taken', bound: 4, before: 4, batch: 2, accepted: false, wakes: 5, taken: 4, overflowed: true },
];

describe('EventQueue.pushAll', () => {
  it.each(allRows)('$name', (row) => {
    const q = new EventQueue(row.bound);
    let wakes = 0;
    q.listen(() => wakes++);
    for (let i = 0; i < row.before; i++) q.push(ev(i));
    const batch = Array.from({ length: row.batch }, (_, i) => ev(row.before + i));
    expect(q.pushAll(batch)).toBe(row.accepted);
    expect(wakes).toBe(row.wakes);
    const taken = names(q.takeBuffered());
    expect(taken).toEqual(Array.from({ length: row.taken }, (_, i) => `o${i}`));
    expect(q.overflowed).toBe(row.overflowed);
    expect(q.closed).toBe(row.overflowed);
  });

  it('refuses a batch once the stream is stopped', () => {
    const q = new EventQueue(10);
    q.stop();
    expect(q.pushAll([ev(1)])).toBe(false);
    expect(q.takeBuffered()).toEqual([]);
  });
});

describe('EventQueue.mapEvents', () => {
  it('maps the events buffered and every event added later (push, pushAll, pushInitial), in order', async () => {
    const q = new EventQueue(10);
    q.push(ev(1));
    q.mapEvents((e) => ({ ...e, object: { metadata: { name: `${e.object.metadata.name}!` } } }));
    q.push(ev(2));
    q.pushAll([ev(3), ev(4)]);
    q.pushInitial(ev(5));
    expect(names(q.takeBuffered(2))).toEqual(['o1!', 'o2!']);
    expect((await q.next()).value.object.metadata.name).toBe('o3!');
    expect(names(q.takeBuffered())).toEqual(['o4!', 'o5!']);
  });

  it('composes a second mapping after the first', () => {
    const q = new EventQueue(10);
    q.mapEvents((e) => ({ ...e, type: 'MODIFIED' }));
    q.mapEvents((e) => ({ ...e, object: { metadata: { name: `${e.type}` } } }));
    q.push(ev(1));
    expect(names(q.takeBuffered())).toEqual(['MODIFIED']);
  });
});

describe('EventQueue.pushAll with nothing buffered keeps the batch as it came', () => {
  /** What each queue does after two queues were handed the same batch; the batch must come out unchanged. */
  const after: { name: string; step: (q: EventQueue) => Promise<unknown> | unknown; taken: string[] }[] = [
    { name: 'a push', step: (q) => q.push(ev(3)), taken: ['o1', 'o2', 'o3'] },
    { name: 'an initial event', step: (q) => q.pushInitial(ev(3)), taken: ['o1', 'o2', 'o3'] },
    { name: 'a second batch', step: (q) => q.pushAll([ev(3)]), taken: ['o1', 'o2', 'o3'] },
    { name: 'a mapping', step: (q) => q.mapEvents((e) => ({ ...e, object: { metadata: { name: `${e.object.metadata.name}!` } } })), taken: ['o1!', 'o2!'] },
    { name: 'a next()', step: (q) => q.next(), taken: ['o2'] },
    { name: 'taking part of it', step: (q) => q.takeBuffered(1), taken: ['o2'] },
  ];
  it.each(after)('$name copies it first', async ({ step, taken }) => {
    const batch = [ev(1), ev(2)];
    const [a, b] = [new EventQueue(10), new EventQueue(10)];
    a.pushAll(batch);
    b.pushAll(batch);
    await step(a);
    expect(names(a.takeBuffered())).toEqual(taken);
    expect(names(batch)).toEqual(['o1', 'o2']);
    // the other queue still hands out the very array
    expect(b.takeBuffered()).toBe(batch);
  });

  it('a batch that finds events buffered is added to them', () => {
    const q = new EventQueue(10);
    q.push(ev(0));
    const batch = [ev(1)];
    q.pushAll(batch);
    expect(names(q.takeBuffered())).toEqual(['o0', 'o1']);
    expect(names(batch)).toEqual(['o1']);
  });
});
