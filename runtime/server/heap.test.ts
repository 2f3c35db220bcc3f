// The server process's heap policy, measured in a child process of its own
// (V8's flags are process-wide): while it holds the young generation, objects
// that survive pile up without the young generation growing past its initial
// size; once startupDone() is called it grows as V8's default does.

import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const heapModule = join(dirname(fileURLToPath(import.meta.url)), 'heap.ts');

/** The young generation's size (MB) at start, after 40 MB of kept objects under the policy, and after 40 MB more once released; or, with policy false, the same without it. */
function youngSizes(policy: boolean): { initial: number; held: number; released: number } {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    const { tuneServerHeap, startupDone } = await import(${JSON.stringify(heapModule)});
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
    const kept = [];
    const allocate = (mb) => { for (let i = 0; i < mb * 1024; i++) kept.push({ i, text: 'x'.repeat(1000) + i }); };
    const initial = young();
    if (${policy}) tuneServerHeap();
    allocate(40);
    const held = young();
    if (${policy}) startupDone();
    allocate(40);
    console.log(JSON.stringify({ initial, held, released: young() }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('server heap policy', () => {
  it('holds the young generation at its initial size until startupDone(), then lets it grow', () => {
    const r = youngSizes(true);
    expect(r.held).toBe(r.initial);
    expect(r.released).toBeGreaterThan(r.initial);
  });
  it('without it, the same allocations grow the young generation (what the policy prevents)', () => {
    const r = youngSizes(false);
    expect(r.held).toBeGreaterThan(r.initial);
  });
});
