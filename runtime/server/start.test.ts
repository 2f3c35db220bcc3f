// startAfterReady(): what startServer() starts once it is ready runs on the
// event loop's next turn, after the callbacks already due.

import { describe, expect, it } from 'vitest';
import { startAfterReady } from './start.ts';

describe('startAfterReady', () => {
  it('runs after what was queued before it, not in the same turn', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('queued before'));
    const done = startAfterReady(async () => {
      order.push('started');
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    await done;
    expect(order).toEqual(['queued before', 'started']);
  });
});
