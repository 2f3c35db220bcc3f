// The garbage collector's index over a fake store fed by hand: objects with
// nothing for it to do (no owner references, finalizers or deletion
// timestamp) cost their uid only, the others get a node, an owner left with
// no dependents is forgotten, and the collection still works: a dependent of
// a plain owner that goes is deleted, one whose owner never existed is
// deleted, one whose owner is plain and live is kept, and an orphaning
// owner's dependents lose the reference.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { ANNOTATION_INITIAL_EVENTS_END } from '../api/k8s-names.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { RegistryStore } from '../registry/store.ts';
import type { Obj, WatchEvent } from '../storage/interface.ts';
import { EventQueue } from '../storage/stream/event-queue.ts';
import { GarbageCollector } from './garbage-collector.ts';

/** One namespaced ConfigMap-like resource: objects by name, the calls the collector made, and the watch it is fed through. */
class FakeStore {
  readonly objects = new Map<string, Obj>();
  readonly deleted: string[] = [];
  readonly updated: string[] = [];
  readonly stream = new EventQueue(1_000_000);

  watch(): Promise<EventQueue> {
    return Promise.resolve(this.stream);
  }
  get(_ns: string, name: string): Promise<Obj> {
    const o = this.objects.get(name);
    if (!o) return Promise.reject(new ApiError(404, 'NotFound', `${name} not found`));
    return Promise.resolve(structuredClone(o));
  }
  delete(_ns: string, name: string): Promise<void> {
    this.deleted.push(name);
    this.emit('DELETED', this.objects.get(name)!);
    this.objects.delete(name);
    return Promise.resolve();
  }
  async update(_ns: string, name: string, fn: (live: Obj) => Obj): Promise<void> {
    const next = fn(await this.get('', name));
    this.objects.set(name, next);
    this.updated.push(name);
    this.emit('MODIFIED', next);
  }
  put(o: Obj): Obj {
    const type = this.objects.has(o.metadata.name) ? 'MODIFIED' : 'ADDED';
    this.objects.set(o.metadata.name, o);
    this.emit(type, o);
    return o;
  }
  remove(name: string): void {
    const o = this.objects.get(name)!;
    this.objects.delete(name);
    this.emit('DELETED', o);
  }
  emit(type: WatchEvent['type'], object: Obj): void {
    this.stream.push({ type, object: structuredClone(object) });
  }
}

/** A UUID per name, as the server makes them (one name, 'odd', has a uid of another shape). */
const uids = new Map<string, string>();
const uidOf = (name: string) => (name === 'odd' ? 'odd-uid' : (uids.get(name) ?? (uids.set(name, randomUUID()), uids.get(name)!)));
const cm = (name: string, extra: Record<string, unknown> = {}): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', uid: uidOf(name), ...extra } });
const ref = (owner: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: owner, uid: uidOf(owner) });

/** Kinds served beside ConfigMap (as group/Kind), changed by tests to stand for a custom kind being established. */
const extraKinds = new Set<string>();
/** The index's change listeners (what serving a CustomResourceDefinition fires). */
const indexListeners = new Set<() => void>();
const servedKindsChanged = () => {
  for (const l of indexListeners) l();
};

async function started(store: FakeStore, initial: Obj[] = []): Promise<GarbageCollector> {
  const served = { def: { group: '', kind: 'ConfigMap', namespaced: true, verbs: ['watch'], virtual: false }, store: store as unknown as RegistryStore };
  const api = {
    served: [served],
    byKind: (group: string, kind: string) => ((group === '' && kind === 'ConfigMap') || extraKinds.has(`${group}/${kind}`) ? served : undefined),
    onChange: (l: () => void) => {
      indexListeners.add(l);
      return () => indexListeners.delete(l);
    },
  } as unknown as ApiIndex;
  for (const o of initial) store.objects.set(o.metadata.name, o);
  for (const o of initial) store.stream.push({ type: 'ADDED', object: o });
  store.stream.push({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '1', annotations: { [ANNOTATION_INITIAL_EVENTS_END]: 'true' } } } });
  const gc = new GarbageCollector(api);
  await gc.start();
  return gc;
}

/** Lets the collector read what was pushed and finish its work. */
async function settle(gc: GarbageCollector): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setImmediate(r));
    await gc.idle();
  }
}

describe('garbage collector index', () => {
  it.each([
    ['plain objects: their uids only', [cm('a'), cm('b')], { objects: 2, nodes: 0, owners: 0 }],
    ['a dependent: a node, and its owner known as one', [cm('a'), cm('d', { ownerReferences: [ref('a')] })], { objects: 2, nodes: 1, owners: 1 }],
    ['finalizers: a node', [cm('f', { finalizers: ['example.com/x'] })], { objects: 1, nodes: 1, owners: 0 }],
    ['being deleted: a node', [cm('g', { finalizers: ['orphan'], deletionTimestamp: '2024-01-01T00:00:00Z' })], { objects: 1, nodes: 1, owners: 0 }],
  ])('%s', async (_name, objects, want) => {
    const store = new FakeStore();
    const gc = await started(store, objects);
    await settle(gc);
    expect(gc.graphSize).toEqual(want);
    await gc.stop();
  });

  it('forgets the node of an object that no longer needs one, and an owner left without dependents', async () => {
    const store = new FakeStore();
    const gc = await started(store, [cm('a'), cm('d', { ownerReferences: [ref('a')] })]);
    await settle(gc);
    store.put(cm('d'));
    await settle(gc);
    expect(gc.graphSize).toEqual({ objects: 2, nodes: 0, owners: 0 });
    await gc.stop();
  });
});

describe('garbage collection with plain owners', () => {
  it('deletes the dependent of a plain owner that goes, and keeps one whose owner is live', async () => {
    const store = new FakeStore();
    const gc = await started(store, [cm('a'), cm('b'), cm('odd'), cm('d1', { ownerReferences: [ref('a')] }), cm('d2', { ownerReferences: [ref('b')] }), cm('d3', { ownerReferences: [ref('odd')] })]);
    await settle(gc);
    store.remove('a');
    store.remove('odd');
    await settle(gc);
    expect(store.deleted).toEqual(['d1', 'd3']);
    expect(store.objects.has('d2')).toBe(true);
    await gc.stop();
  });

  it('deletes a dependent created for an owner that never existed, not one created for a plain live owner', async () => {
    const store = new FakeStore();
    const gc = await started(store, [cm('a')]);
    await settle(gc);
    store.put(cm('d-live', { ownerReferences: [ref('a')] }));
    store.put(cm('d-none', { ownerReferences: [ref('nobody')] }));
    await settle(gc);
    expect(store.deleted).toEqual(['d-none']);
    await gc.stop();
  });

  it('an orphaning owner: its dependents lose the reference, then the owner its finalizer', async () => {
    const store = new FakeStore();
    const gc = await started(store, [cm('o'), cm('d', { ownerReferences: [ref('o')] })]);
    await settle(gc);
    store.put(cm('o', { finalizers: ['orphan'], deletionTimestamp: '2024-01-01T00:00:00Z' }));
    await settle(gc);
    expect(store.objects.get('d')!.metadata.ownerReferences).toBeUndefined();
    expect(store.objects.get('o')!.metadata.finalizers).toBeUndefined();
    expect(store.deleted).toEqual([]);
    await gc.stop();
  });

  it('keeps a dependent whose owner is of a kind not served, and collects it once the kind is served and the owner is absent', async () => {
    extraKinds.clear();
    const store = new FakeStore();
    const gc = await started(store, [cm('a')]);
    await settle(gc);
    const widgetRef = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: randomUUID() };
    store.put(cm('d-widget', { ownerReferences: [widgetRef] }));
    store.put(cm('d-none', { ownerReferences: [ref('nobody')] }));
    await settle(gc);
    expect(store.deleted).toEqual(['d-none']);
    servedKindsChanged();
    await settle(gc);
    expect(store.deleted).toEqual(['d-none']);
    extraKinds.add('example.com/Widget');
    servedKindsChanged();
    await settle(gc);
    expect(store.deleted).toEqual(['d-none', 'd-widget']);
    extraKinds.clear();
    await gc.stop();
  });
});
