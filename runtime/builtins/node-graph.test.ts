// The graph populator over fake stores: the first list is in the graph when
// start resolves, events keep it current, and a resync after a watch restart
// drops what the new list no longer holds; unserved kinds are skipped.
import { describe, expect, it } from 'vitest';
import { NodeGraph } from '../authz/node/graph.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { Obj, WatchEvent, WatchStream } from '../storage/interface.ts';
import { startNodeGraph } from './node-graph.ts';

/** A store whose list answers `items` and whose watch yields what push() sends until end() closes it. */
function fakeStore(items: Obj[]) {
  let push: ((ev: WatchEvent | null) => void) | undefined;
  const queue: (WatchEvent | null)[] = [];
  let lists = 0;
  const store = {
    async list() {
      lists++;
      return { items: structuredClone(items), resourceVersion: '1' };
    },
    async watch(): Promise<WatchStream> {
      let stopped = false;
      return {
        stop() {
          stopped = true;
          push?.(null);
        },
        async *[Symbol.asyncIterator]() {
          while (!stopped) {
            const ev = queue.shift() ?? (await new Promise<WatchEvent | null>((r) => (push = r)));
            push = undefined;
            if (ev === null) return;
            yield ev;
          }
        },
      };
    },
  };
  return {
    store,
    items,
    lists: () => lists,
    send(ev: WatchEvent | null) {
      if (push) push(ev);
      else queue.push(ev);
    },
  };
}

const pod = (name: string, nodeName: string, secret: string): Obj => ({ metadata: { namespace: 'ns', name }, spec: { nodeName, volumes: [{ name: 'v', secret: { secretName: secret } }] } });
/** Waits for the loop to catch up (it pauses before listing again); the bound only ends a hung run. */
const until = async (check: () => boolean) => {
  const deadline = Date.now() + 20000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('startNodeGraph', () => {
  it('loads the first list before it resolves, follows events and resyncs after a restart', async () => {
    const pods = fakeStore([pod('a', 'n1', 'sa')]);
    const pvs = fakeStore([{ metadata: { name: 'pv' }, spec: { claimRef: { namespace: 'ns', name: 'c' }, csi: { driver: 'd', nodePublishSecretRef: { namespace: 'ns', name: 'pvs' } } } }]);
    const api = {
      byKind: (group: string, kind: string) => (group === '' && kind === 'Pod' ? { store: pods.store } : group === '' && kind === 'PersistentVolume' ? { store: pvs.store } : undefined),
    } as unknown as ApiIndex;
    const g = new NodeGraph();
    const loop = await startNodeGraph(api, g);
    try {
      expect(g.hasPathFrom('n1', 'secret', 'ns', 'sa')).toBe(true);
      expect(g.has('pv', '', 'pv')).toBe(true);

      pods.send({ type: 'ADDED', object: pod('b', 'n2', 'sb') });
      await until(() => g.hasPathFrom('n2', 'secret', 'ns', 'sb'));
      pods.send({ type: 'DELETED', object: pod('a', 'n1', 'sa') });
      await until(() => !g.hasPathFrom('n1', 'secret', 'ns', 'sa'));

      // the watch ends (a storage restart): the new list holds only c; b must go
      pods.items.splice(0, pods.items.length, pod('c', 'n3', 'sc'));
      pods.send(null);
      await until(() => pods.lists() === 2 && g.hasPathFrom('n3', 'secret', 'ns', 'sc'));
      expect(g.has('pod', 'ns', 'b')).toBe(false);
      expect(g.has('pv', '', 'pv')).toBe(true);
    } finally {
      await loop.stop();
    }
  });
});
