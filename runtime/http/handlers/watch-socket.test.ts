// The socket writer of a watch against a fake Node response: events waiting
// go out together, nothing is taken while the socket asks to wait, a closed
// response stops the stream, an ended stream ends the response, a failure
// becomes a last event. Each row is a script of steps and what the response
// saw.
import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../storage/stream/event-queue.ts';
import type { WatchEvent } from '../../storage/interface.ts';
import { writeWatchToSocket, type WatchResponse } from './watch-socket.ts';

class FakeResponse implements WatchResponse {
  writes: string[] = [];
  ended = false;
  destroyed = false;
  /** write() answers false (the socket asks to wait) while this is set. */
  full = false;
  private handlers: Record<string, (() => void)[]> = {};
  get writableEnded(): boolean {
    return this.ended;
  }
  write(chunk: Uint8Array): boolean {
    this.writes.push(new TextDecoder().decode(chunk));
    return !this.full;
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  once(event: 'drain' | 'close', fn: () => void): void {
    (this.handlers[event] ??= []).push(fn);
  }
  emit(event: 'drain' | 'close'): void {
    const hs = this.handlers[event] ?? [];
    this.handlers[event] = [];
    for (const h of hs) h();
  }
}

const ev = (name: string): WatchEvent => ({ type: 'ADDED', object: { metadata: { name } } });
const encode = (events: WatchEvent[]) => new TextEncoder().encode(events.map((e) => (e.type === 'ERROR' ? 'ERR' : e.object.metadata.name)).join(''));

type Step = ['push', string] | ['pushAll', string[]] | ['full', boolean] | ['drain'] | ['close'] | ['end'] | ['stop'] | ['poison'];
interface Row {
  name: string;
  /** pushed before the writer starts */
  before?: string[];
  steps: Step[];
  writes: string[];
  ended: boolean;
  /** stream stopped (no longer accepts events) */
  streamClosed: boolean;
  ends?: number;
}

const rows: Row[] = [
  { name: 'what is waiting at the start goes out in one write', before: ['a', 'b', 'c'], steps: [], writes: ['abc'], ended: false, streamClosed: false },
  {
    name: 'events arriving later are written as they come',
    steps: [
      ['push', 'a'],
      ['push', 'b'],
    ],
    writes: ['a', 'b'],
    ended: false,
    streamClosed: false,
  },
  {
    name: 'while the socket asks to wait nothing is taken; on drain what waits goes out together',
    steps: [['full', true], ['push', 'a'], ['push', 'b'], ['push', 'c'], ['full', false], ['drain']],
    writes: ['a', 'bc'],
    ended: false,
    streamClosed: false,
  },
  {
    name: "a sweep's events handed over together go out in one write",
    steps: [
      ['pushAll', ['a', 'b', 'c']],
      ['push', 'd'],
    ],
    writes: ['abc', 'd'],
    ended: false,
    streamClosed: false,
  },
  { name: 'an ended stream ends the response after its last events', steps: [['push', 'a'], ['end']], writes: ['a'], ended: true, streamClosed: true, ends: 1 },
  { name: 'a stopped stream (timeout) ends the response', steps: [['stop']], writes: [], ended: true, streamClosed: true, ends: 1 },
  { name: 'a closed response stops the stream without ending it', steps: [['push', 'a'], ['close'], ['push', 'b']], writes: ['a'], ended: false, streamClosed: true, ends: 1 },
  { name: 'a failure to encode is written as an error event and ends the response', steps: [['push', 'a'], ['poison']], writes: ['a', 'ERR'], ended: true, streamClosed: true, ends: 1 },
];

describe('writeWatchToSocket', () => {
  it.each(rows)('$name', (row) => {
    const q = new EventQueue(100);
    for (const n of row.before ?? []) q.push(ev(n));
    const out = new FakeResponse();
    let ends = 0;
    let poisoned = false;
    writeWatchToSocket(
      out,
      q,
      (events) => {
        if (poisoned) throw new Error('cannot encode');
        return encode(events);
      },
      () => encode([{ type: 'ERROR', object: {} }]),
      () => ends++,
    );
    for (const step of row.steps) {
      if (step[0] === 'push') q.push(ev(step[1]));
      else if (step[0] === 'pushAll') q.pushAll(step[1].map(ev));
      else if (step[0] === 'full') out.full = step[1];
      else if (step[0] === 'drain') out.emit('drain');
      else if (step[0] === 'close') out.emit('close');
      else if (step[0] === 'end') q.end();
      else if (step[0] === 'stop') q.stop();
      else {
        poisoned = true;
        q.push(ev('x'));
      }
    }
    expect(out.writes).toEqual(row.writes);
    expect(out.ended).toBe(row.ended);
    expect(q.closed).toBe(row.streamClosed);
    if (row.ends !== undefined) expect(ends).toBe(row.ends);
  });

  it('a client that does not read backs up into the bounded queue, which cuts the watch off', () => {
    const q = new EventQueue(3);
    const out = new FakeResponse();
    out.full = true;
    writeWatchToSocket(
      out,
      q,
      encode,
      () => new Uint8Array(),
      () => {},
    );
    for (const n of ['a', 'b', 'c', 'd', 'e']) q.push(ev(n));
    expect(out.writes).toEqual(['a']);
    expect(q.overflowed).toBe(true);
    out.full = false;
    out.emit('drain');
    // what was buffered before the cut-off still goes out, then the response ends
    expect(out.writes).toEqual(['a', 'bcd']);
    expect(out.ended).toBe(true);
  });
});
