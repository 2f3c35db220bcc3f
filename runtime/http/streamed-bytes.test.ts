// The report of a streamed answer's bytes: the chunks pass unchanged, and
// the hook hears their total once, when the answer ended or was let go
// (one never started sent nothing and reports nothing).

import { afterEach, describe, expect, it } from 'vitest';
import { onStreamedBytes, reportingStreamed } from './streamed-bytes.ts';

function* chunksOf(...sizes: number[]): Generator<Buffer> {
  for (const n of sizes) yield Buffer.alloc(n, n % 256);
}

afterEach(() => onStreamedBytes(undefined));

describe('reportingStreamed', () => {
  const cases: { name: string; sizes: number[]; take: number; reported: number[] }[] = [
    { name: 'read to the end', sizes: [10, 20, 30], take: Infinity, reported: [60] },
    { name: 'let go after two chunks', sizes: [10, 20, 30], take: 2, reported: [30] },
    { name: 'let go before it started', sizes: [10], take: 0, reported: [] },
    { name: 'no chunks', sizes: [], take: Infinity, reported: [0] },
  ];
  it.each(cases)('$name: the chunks unchanged, their bytes reported', ({ sizes, take, reported }) => {
    const heard: number[] = [];
    onStreamedBytes((b) => heard.push(b));
    const it = reportingStreamed(chunksOf(...sizes));
    const got: Buffer[] = [];
    for (let i = 0; i < take; i++) {
      const next = it.next();
      if (next.done) break;
      got.push(next.value);
    }
    if (take !== Infinity) it.return(undefined);
    expect(got.map((c) => c.byteLength)).toEqual(sizes.slice(0, Math.min(take, sizes.length)));
    expect(got.every((c) => c.every((x) => x === c.byteLength % 256))).toBe(true);
    expect(heard).toEqual(reported);
  });

  it('without a hook, the chunks pass all the same', () => {
    expect([...reportingStreamed(chunksOf(5, 6))].map((c) => c.byteLength)).toEqual([5, 6]);
  });
});
