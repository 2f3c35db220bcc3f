// nextTurn(): the awaiting code goes on on a later turn of the event loop,
// after the callbacks already due, and the I/O that arrives meanwhile is
// handled (a loop awaiting it receives a socket's data).

import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { nextTurn } from './next-turn.ts';

describe('nextTurn', () => {
  it('resolves after callbacks already due, not in the same turn', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('queued before'));
    const done = nextTurn().then(() => order.push('resumed'));
    await Promise.resolve();
    expect(order).toEqual([]);
    await done;
    expect(order).toEqual(['queued before', 'resumed']);
  });

  it('lets waiting I/O be handled: work that only awaits it still receives data', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const socket = await accepted;
    let received = false;
    socket.on('data', () => (received = true));
    client.write('x');
    // a loop of microtasks would never see the data; turns of the event loop do
    let turns = 0;
    while (!received && turns < 10_000) {
      await nextTurn();
      turns++;
    }
    expect(received).toBe(true);
    client.destroy();
    socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
