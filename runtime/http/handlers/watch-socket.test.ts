// The socket writer of a watch against a fake Node response: events waiting
// go out together, nothing is taken while the socket asks to wait, a closed
// response stops the stream, an ended stream ends the response, a failure
// becomes a last event. Each row is a script of steps and what the response
// saw. Chunks for a socket written directly are framed once (size, CRLF,
// bytes, CRLF), and the socket is written directly only when it is the
// response's own and the body is chunked.
import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../storage/stream/event-queue.ts';
import type { WatchEvent } from '../../storage/interface.ts';
import { chunkedSocketSink, chunkFrame, writeWatchToSocket, type ChunkedResponse, type SinkSocket, type WatchResponse } from './watch-socket.ts';

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
const encode = (events: readonly WatchEvent[]) => new TextEncoder().encode(events.map((e) => (e.type === 'ERROR' ? 'ERR' : e.object.metadata.name)).join(''));

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

describe('chunkFrame', () => {
  const bytes = (t: string) => new TextEncoder().encode(t);
  it.each([
    { name: 'one part', parts: ['{"a":1}\n'], framed: '8\r\n{"a":1}\n\r\n' },
    { name: 'several parts become one chunk', parts: ['ab', 'cd', 'e'], framed: '5\r\nabcde\r\n' },
    { name: 'the size is hexadecimal', parts: ['x'.repeat(26)], framed: `1a\r\n${'x'.repeat(26)}\r\n` },
    { name: 'multi-byte UTF-8 counts bytes, not characters', parts: ['é'], framed: '2\r\né\r\n' },
    { name: 'no bytes is no chunk (a zero-size chunk would end the body)', parts: [], framed: '' },
    { name: 'empty parts only: no chunk', parts: ['', ''], framed: '' },
  ])('$name', ({ parts, framed }) => {
    expect(Buffer.from(chunkFrame(parts.map(bytes))).toString('utf8')).toBe(framed);
  });
});

describe('chunkedSocketSink', () => {
  class FakeSocket implements SinkSocket {
    written: string[] = [];
    writable = true;
    writableNeedDrain = false;
    writableLength = 0;
    _httpMessage?: unknown;
    drains: (() => void)[] = [];
    write(chunk: Uint8Array): boolean {
      this.written.push(Buffer.from(chunk).toString());
      return !this.writableNeedDrain;
    }
    once(_event: 'drain', fn: () => void): void {
      this.drains.push(fn);
    }
  }
  class Res extends FakeResponse implements ChunkedResponse {
    socket: FakeSocket | null = new FakeSocket();
    headersSent = true;
    chunkedEncoding = true;
  }
  const own = () => {
    const res = new Res();
    res.socket!._httpMessage = res;
    return res;
  };
  it.each([
    { name: 'the response owns its socket, the body is chunked, the headers are out: the socket', res: own, sink: true },
    {
      name: 'no socket yet',
      res: () => Object.assign(own(), { socket: null }),
      sink: false,
    },
    {
      name: 'the socket still writes another response (pipelined)',
      res: () => {
        const r = own();
        r.socket!._httpMessage = {};
        return r;
      },
      sink: false,
    },
    { name: 'not chunked (an HTTP/1.0 client)', res: () => Object.assign(own(), { chunkedEncoding: false }), sink: false },
    { name: 'headers not sent', res: () => Object.assign(own(), { headersSent: false }), sink: false },
    {
      name: 'a socket no longer writable',
      res: () => {
        const r = own();
        r.socket!.writable = false;
        return r;
      },
      sink: false,
    },
  ])('$name', ({ res, sink }) => {
    expect(chunkedSocketSink(res()) !== undefined).toBe(sink);
  });

  it('writes to the socket, waits for its drain, and leaves ending and closing to the response', () => {
    const res = own();
    const socket = res.socket!;
    const sink = chunkedSocketSink(res)!;
    const q = new EventQueue(100);
    writeWatchToSocket(
      sink,
      q,
      (events) => chunkFrame([encode(events)]),
      () => chunkFrame([encode([{ type: 'ERROR', object: {} }])]),
      () => {},
    );
    q.pushAll([ev('a'), ev('b')]);
    expect(socket.written).toEqual(['2\r\nab\r\n']);
    expect(res.writes).toEqual([]);
    socket.writableNeedDrain = true;
    q.push(ev('c'));
    q.push(ev('d'));
    // the socket asked to wait: d waits for its drain
    expect(socket.written).toEqual(['2\r\nab\r\n', '1\r\nc\r\n']);
    socket.writableNeedDrain = false;
    for (const d of socket.drains.splice(0)) d();
    expect(socket.written).toEqual(['2\r\nab\r\n', '1\r\nc\r\n', '1\r\nd\r\n']);
    q.end();
    expect(res.ended).toBe(true);
  });

  it('a closed response stops the stream', () => {
    const res = own();
    const q = new EventQueue(100);
    writeWatchToSocket(
      chunkedSocketSink(res)!,
      q,
      (events) => chunkFrame([encode(events)]),
      () => new Uint8Array(),
      () => {},
    );
    res.emit('close');
    expect(q.closed).toBe(true);
  });
});
