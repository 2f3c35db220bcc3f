// The backend modes over a fake writer: blocking writes as the event is
// taken (and waits for an asynchronous writer), ignoring failures;
// blocking-strict reports them; batch takes events at once and writes them
// later in batches (at the max size, after the max wait, throttled).
import { describe, expect, it } from 'vitest';
import type { AuditWriter, BatchConfig } from './buffered.ts';
import { joinText } from './sink.ts';
import type { AuditEvent } from './event.ts';
import { type BackendMode, modeBackend } from './modes.ts';

const ev = { auditID: 'x' } as AuditEvent;
const batch: BatchConfig = { bufferSize: 10, maxBatchSize: 2, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0, asyncDelegate: false };

function writer(result: () => boolean | Promise<boolean>) {
  const written: string[][] = [];
  const w: AuditWriter = {
    write: (items) => {
      written.push(items.map(joinText));
      return result();
    },
    close: () => {},
  };
  return { w, written };
}

describe('modeBackend', () => {
  it.each<[BackendMode, boolean, boolean]>([
    ['blocking', true, true],
    ['blocking', false, true],
    ['blocking-strict', true, true],
    ['blocking-strict', false, false],
  ])('%s with a write that succeeds: %s, answers %s, written before process returns', (mode, ok, stored) => {
    const { w, written } = writer(() => ok);
    const b = modeBackend({ plugin: 'log', mode, writer: w, format: (_e, json) => json, batch }, { warn: () => {} });
    expect(b.blocking).toBe(true);
    expect(b.process(ev, 'e1')).toBe(stored);
    expect(written).toEqual([['e1']]);
  });

  it.each<[BackendMode, boolean]>([
    ['blocking', true],
    ['blocking-strict', false],
  ])('%s waits for an asynchronous writer (a failed post answers %s)', async (mode, stored) => {
    let finish!: (ok: boolean) => void;
    const { w } = writer(() => new Promise<boolean>((r) => (finish = r)));
    const b = modeBackend({ plugin: 'webhook', mode, writer: w, format: (_e, json) => json, batch }, { warn: () => {} });
    const out = b.process(ev, 'e1');
    expect(out).toBeInstanceOf(Promise);
    let settled = false;
    void (out as Promise<boolean>).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    finish(false);
    expect(await out).toBe(stored);
  });

  it('batch: a full buffer drops events, one message per run of drops, each dropped event counted; a writer that throws counts its batch', async () => {
    const warnings: string[] = [];
    const failed: string[] = [];
    const deps = { warn: (m: string) => warnings.push(m), failed: (plugin: string, n: number) => failed.push(`${plugin} ${n}`) };
    const full = modeBackend({ plugin: 'log', mode: 'batch', writer: writer(() => true).w, format: (_e, json) => json, batch: { ...batch, bufferSize: 1, maxBatchWaitMs: 60_000 } }, deps);
    for (const id of ['a', 'b', 'c']) expect(full.process(ev, id)).toBe(true);
    await full.flush();
    expect(warnings).toEqual(["Error in audit plugin 'log' affecting 1 audit events: audit buffer queue blocked"]);
    expect(failed).toEqual(['log 1', 'log 1']);
    warnings.length = failed.length = 0;
    const throwing = modeBackend(
      {
        plugin: 'webhook',
        mode: 'batch',
        writer: writer(() => {
          throw new Error('boom');
        }).w,
        format: (_e, json) => json,
        batch,
      },
      deps,
    );
    for (const id of ['a', 'b']) expect(throwing.process(ev, id)).toBe(true);
    await throwing.flush();
    expect(warnings).toEqual(["Error in audit plugin 'webhook' affecting 2 audit events: boom"]);
    expect(failed).toEqual(['webhook 2']);
  });

  it('batch: takes events at once, writes them later in batches of the max size', async () => {
    const { w, written } = writer(() => true);
    const b = modeBackend({ plugin: 'log', mode: 'batch', writer: w, format: (_e, json) => `${json}\n`, batch }, { warn: () => {} });
    expect(b.blocking).toBeUndefined();
    for (const id of ['a', 'b', 'c']) expect(b.process(ev, id)).toBe(true);
    expect(written).toEqual([]);
    await b.flush();
    expect(written).toEqual([['a\n', 'b\n'], ['c\n']]);
  });

  it('batch: a writer that joins batches (the file) gets the batches waiting at one turn in one write; a throttle keeps them apart', async () => {
    for (const [throttleEnable, expected] of [
      [false, [['a\n', 'b\n', 'c\n', 'd\n', 'e\n']]],
      [true, [['a\n', 'b\n'], ['c\n', 'd\n'], ['e\n']]],
    ] as const) {
      const { w, written } = writer(() => true);
      w.joinsBatches = true;
      const cfg = { ...batch, throttleEnable, throttleQPS: 1000, throttleBurst: 100 };
      const b = modeBackend({ plugin: 'log', mode: 'batch', writer: w, format: (_e, json) => `${json}\n`, batch: cfg }, { warn: () => {} });
      for (const id of ['a', 'b', 'c', 'd', 'e']) void b.process(ev, id);
      await b.flush();
      expect(written).toEqual(expected);
    }
  });

  it('batch: a batch that is not full waits for the max wait; the throttle spaces batches', async () => {
    const sleeps: number[] = [];
    let t = 0;
    const { w, written } = writer(() => true);
    const b = modeBackend(
      {
        plugin: 'webhook',
        mode: 'batch',
        writer: w,
        format: (_e, json) => json,
        batch: { ...batch, maxBatchSize: 1, maxBatchWaitMs: 3_600_000, throttleEnable: true, throttleQPS: 2, throttleBurst: 1 },
      },
      {
        warn: () => {},
        now: () => t,
        sleep: async (ms) => {
          sleeps.push(ms);
          t += ms;
        },
      },
    );
    void b.process(ev, 'a');
    void b.process(ev, 'b');
    await b.flush();
    expect(written).toEqual([['a'], ['b']]);
    // a burst of one at 2 a second: the second batch waited half a second
    expect(sleeps).toEqual([500]);
  });
});
