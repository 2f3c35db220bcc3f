// The server process's heap policy, measured in a child process of its own
// (V8's flags are process-wide): while it holds the young generation, objects
// that survive pile up without the young generation growing past its initial
// size; once startupDone() is called it grows as V8's default does, up to
// its cap, watching scavenges only while under it. The chunks of streamed answers are freed once the answer ended,
// not left to a collection that an idle process never starts, those promoted
// to the old generation as well once a big answer ended.

import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FULL_COLLECT_AFTER_STREAMED_BYTES } from './heap.ts';

const heapModule = join(dirname(fileURLToPath(import.meta.url)), 'heap.ts');

/**
 * The young generation's size (MB) at start, after 40 MB of kept objects
 * under the policy, and after 40 MB more once released, allocated a slice
 * per turn of the event loop as a server's requests are; or, with policy
 * false, the same without it.
 */
function youngSizes(policy: boolean): { initial: number; held: number; released: number; cap: number; watching: boolean } {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    const { tuneServerHeap, startupDone, watchingScavenges, YOUNG_GENERATION_CAP_MB } = await import(${JSON.stringify(heapModule)});
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
    const kept = [];
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const allocate = async (mb) => {
      for (let i = 0; i < mb * 1024; i++) {
        kept.push({ i, text: 'x'.repeat(1000) + i });
        if (i % 64 === 63) await turn();
      }
    };
    const initial = young();
    if (${policy}) tuneServerHeap();
    await allocate(40);
    const held = young();
    if (${policy}) startupDone();
    await allocate(40);
    console.log(JSON.stringify({ initial, held, released: young(), cap: YOUNG_GENERATION_CAP_MB, watching: watchingScavenges() }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('server heap policy', () => {
  it('holds the young generation at its initial size until startupDone(), then lets it grow up to its cap', () => {
    const r = youngSizes(true);
    expect(r.held).toBe(r.initial);
    expect(r.released).toBeGreaterThan(r.initial);
    expect(r.released).toBeLessThanOrEqual(r.cap);
    // scavenges are watched only while under the cap (at it, a slow timer reads the size instead)
    expect(r.watching).toBe(r.released < r.cap);
  });
  it('without it, the same allocations grow the young generation, past the cap (what the policy prevents)', () => {
    const r = youngSizes(false);
    expect(r.held).toBeGreaterThan(r.initial);
    expect(r.released).toBeGreaterThan(r.cap);
  });
});

const streamedModule = join(dirname(fileURLToPath(import.meta.url)), '..', 'http', 'streamed-bytes.ts');

/**
 * The MB of buffers outside the heap after 12 MB of streamed chunks were
 * read and dropped: `before`, just after; `after`, once they fell under 4 MB
 * or 3 s passed (a collection frees them: the policy's, or none).
 */
function streamedLeftovers(policy: boolean): { before: number; after: number } {
  const script = `
    const { tuneServerHeap } = await import(${JSON.stringify(heapModule)});
    const { reportingStreamed } = await import(${JSON.stringify(streamedModule)});
    if (${policy}) tuneServerHeap();
    const mb = () => process.memoryUsage().arrayBuffers / 2 ** 20;
    function* chunks() { for (let i = 0; i < 48; i++) yield Buffer.allocUnsafe(256 * 1024).fill(i); }
    let sum = 0;
    for (const c of reportingStreamed(chunks())) sum += c[0];
    const before = mb();
    const deadline = Date.now() + 3000;
    while (mb() >= 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    console.log(JSON.stringify({ before, after: mb(), sum }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('streamed answers under the server heap policy', () => {
  it("frees a streamed answer's chunks once it ended", () => {
    const r = streamedLeftovers(true);
    expect(r.before).toBeGreaterThanOrEqual(12);
    expect(r.after).toBeLessThan(4);
  });
  it('without it, they stay until a collection V8 starts on its own (what the policy prevents)', () => {
    const r = streamedLeftovers(false);
    expect(r.after).toBeGreaterThanOrEqual(12);
  });
});

/**
 * The MB of buffers outside the heap after a streamed answer of 34 MB whose
 * chunks were all still held (as a socket holds those in flight) over two
 * scavenges, which promoted them to the old generation, and were dropped
 * as it ended: `before`, just after; `after`, once they fell under 4 MB or
 * 3 s passed.
 */
function promotedLeftovers(): { before: number; after: number } {
  const script = `
    const { tuneServerHeap } = await import(${JSON.stringify(heapModule)});
    const { reportingStreamed } = await import(${JSON.stringify(streamedModule)});
    tuneServerHeap();
    const mb = () => process.memoryUsage().arrayBuffers / 2 ** 20;
    function* chunks() { for (let i = 0; i < 136; i++) yield Buffer.allocUnsafe(256 * 1024).fill(i); }
    let held = [];
    for (const c of reportingStreamed(chunks())) {
      held.push(c);
      if (held.length === 130) { gc({ type: 'minor' }); gc({ type: 'minor' }); }
    }
    const sum = held.reduce((n, c) => n + c[0], 0);
    held = undefined;
    const before = mb();
    const deadline = Date.now() + 3000;
    while (mb() >= 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    console.log(JSON.stringify({ before, after: mb(), sum }));
  `;
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('big streamed answers under the server heap policy', () => {
  it(`frees chunks promoted to the old generation once ${FULL_COLLECT_AFTER_STREAMED_BYTES / 2 ** 20} MB were streamed (a full collection)`, () => {
    const r = promotedLeftovers();
    expect(r.before).toBeGreaterThanOrEqual(32);
    expect(r.after).toBeLessThan(4);
  });
});
