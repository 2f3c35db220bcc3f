// Keeps the Node authorizer's graph (runtime/authz/node/graph.ts) current, as
// upstream's graph populator: watches of Pods (those bound to a node),
// PersistentVolumes, VolumeAttachments and, where served, ResourceSlices.
// startNodeGraph() resolves once every served kind has been listed into the
// graph; the server starts it before it listens, so nodes are only ever
// answered from a loaded graph. A resync after a watch restart drops what
// the new list no longer holds.

import type { NodeGraph, VertexType } from '../authz/node/graph.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { Obj, WatchEvent } from '../storage/interface.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';

interface Feed {
  group: string;
  kind: string;
  type: VertexType;
  add(g: NodeGraph, o: Obj): void;
  remove(g: NodeGraph, o: Obj): void;
}

const nameOf = (o: Obj): string => o.metadata?.name ?? '';
const nodeNameOf = (o: Obj): string => (typeof o.spec?.nodeName === 'string' ? o.spec.nodeName : '');

const FEEDS: Feed[] = [
  { group: '', kind: 'Pod', type: 'pod', add: (g, o) => g.addPod(o), remove: (g, o) => g.deletePod(o.metadata?.namespace ?? '', nameOf(o)) },
  { group: '', kind: 'PersistentVolume', type: 'pv', add: (g, o) => g.addPV(o), remove: (g, o) => g.deletePV(nameOf(o)) },
  {
    group: 'storage.k8s.io',
    kind: 'VolumeAttachment',
    type: 'volumeattachment',
    add: (g, o) => g.addVolumeAttachment(nameOf(o), typeof o.spec?.nodeName === 'string' ? o.spec.nodeName : ''),
    remove: (g, o) => g.deleteVolumeAttachment(nameOf(o)),
  },
  { group: 'resource.k8s.io', kind: 'ResourceSlice', type: 'resourceslice', add: (g, o) => g.addResourceSlice(nameOf(o), nodeNameOf(o)), remove: (g, o) => g.deleteResourceSlice(nameOf(o)) },
];

/** Fills `graph` from the served kinds and keeps it current; resolves once each kind was listed. */
export async function startNodeGraph(api: ApiIndex, graph: NodeGraph): Promise<WatchLoop> {
  const loops: WatchLoop[] = [];
  const loaded: Promise<void>[] = [];
  for (const feed of FEEDS) {
    const res = api.byKind(feed.group, feed.kind);
    if (!res) continue;
    let firstSync!: () => void;
    loaded.push(new Promise<void>((r) => (firstSync = r)));
    loops.push(
      startWatchLoop(res.store, '', {
        resync(items) {
          const present = new Set(items.map((o) => `${o.metadata?.namespace ?? ''}/${nameOf(o)}`));
          for (const v of graph.names(feed.type)) {
            if (!present.has(`${v.namespace}/${v.name}`)) feed.remove(graph, { metadata: { namespace: v.namespace, name: v.name } });
          }
          for (const o of items) feed.add(graph, o);
          firstSync();
        },
        event(ev: WatchEvent) {
          if (ev.type === 'DELETED') feed.remove(graph, ev.object);
          else feed.add(graph, ev.object);
        },
      }),
    );
  }
  await Promise.all(loaded);
  return {
    async stop() {
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
