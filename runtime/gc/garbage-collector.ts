// The garbage collector: acts on ownerReferences the way kube-controller-
// manager's does, in process.
// - Background: when an owner is gone, a dependent none of whose owners
//   exist any more is deleted; one that still has a live owner loses the
//   dangling reference.
// - Orphan: an owner being deleted with the `orphan` finalizer has its
//   references removed from every dependent, then loses the finalizer.
// - Foreground: an owner being deleted with `foregroundDeletion` has its
//   dependents deleted; when none is left it loses the finalizer.
// It watches every stored resource (those of CustomResourceDefinitions too,
// as they are served and dropped) to keep the set of every object's uid
// (whether an owner exists; uid-set.ts keeps them compact), a node for each
// object that can need its work (one with owner references, finalizers or a
// deletion timestamp; the rest cost their uid only), and the dependents of
// each owner uid; work is queued and done one item at a time.

import { ANNOTATION_INITIAL_EVENTS_END, FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../api/k8s-names.ts';
import { ApiError } from '../api/errors.ts';
import { nextTurn } from '../api/next-turn.ts';
import type { RegistryStore } from '../registry/store.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { Obj, WatchStream } from '../storage/interface.ts';
import { GARBAGE_COLLECTOR_WRITER } from '../registry/write-services.ts';
import { UidSet } from './uid-set.ts';
import { serverLogger } from '../logging/logger.ts';

interface Node {
  uid: string;
  store: RegistryStore;
  namespace: string;
  name: string;
  owners: string[];
  deleting: boolean;
  finalizers: string[];
}

export class GarbageCollector {
  /** The uid of every object seen and not deleted. */
  private readonly uids = new UidSet();
  /** Objects with owner references, finalizers or a deletion timestamp, by uid. */
  private readonly nodes = new Map<string, Node>();
  private readonly dependents = new Map<string, Set<string>>();
  private readonly streams = new Map<RegistryStore, WatchStream>();
  private stopWatchingIndex: (() => void) | undefined;
  private following: Promise<void> = Promise.resolve();
  private readonly queue: (() => Promise<void>)[] = [];
  private running = false;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];
  /**
   * Dependents with an owner reference of a kind not served (a custom kind
   * whose definition is not established yet, or a mistyped one): kept, as
   * upstream retries them until discovery knows the kind; checked again when
   * the served kinds change.
   */
  private readonly unresolved = new Set<string>();
  /** Until every resource's initial state is indexed, an absent owner may just not be seen yet. */
  private synced = false;
  private unsynced = 0;

  constructor(private readonly api: ApiIndex) {}

  async start(): Promise<void> {
    const stores = new Set<RegistryStore>();
    for (const s of this.api.served) if (!s.def.virtual && s.def.verbs.includes('watch')) stores.add(s.store);
    this.unsynced = stores.size;
    // a turn of the event loop after each (its initial state is read from storage): requests arriving meanwhile are not held behind them all
    for (const store of stores) {
      await this.watchStore(store, true);
      await nextTurn();
    }
    if (stores.size === 0) this.markSynced();
    // resources of CustomResourceDefinitions come and go while serving
    this.stopWatchingIndex = this.api.onChange(() => {
      // one change at a time, in order
      // then the dependents whose owner kinds were unknown are checked again
      this.following = this.following
        .then(() => this.followIndex())
        .then(() => this.servedKindsChanged())
        .catch(() => {});
    });
  }

  private async watchStore(store: RegistryStore, initial: boolean): Promise<void> {
    // the initial state ends with a BOOKMARK annotated initial-events-end
    const stream = await store.watch('', { resourceVersion: '', resourceVersionMatch: 'NotOlderThan', sendInitialEvents: true, allowWatchBookmarks: true });
    if (this.stopped) {
      stream.stop();
      return;
    }
    this.streams.set(store, stream);
    void this.consume(store, stream, initial);
  }

  /** Watches the stores the index gained; forgets those it lost (their objects are no longer served). */
  private async followIndex(): Promise<void> {
    const current = new Set<RegistryStore>();
    for (const s of this.api.served) if (!s.def.virtual && s.def.verbs.includes('watch')) current.add(s.store);
    for (const [store, stream] of this.streams) {
      if (current.has(store)) continue;
      stream.stop();
      this.streams.delete(store);
      for (const [uid, n] of this.nodes) if (n.store === store) this.nodes.delete(uid);
    }
    for (const store of current) if (!this.streams.has(store) && !this.stopped) await this.watchStore(store, false);
  }

  private markSynced(): void {
    this.synced = true;
    for (const n of this.nodes.values()) {
      if (n.owners.length) this.enqueue(() => this.checkDependent(n.uid));
      if (n.deleting) this.enqueue(() => this.checkOwner(n.uid));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopWatchingIndex?.();
    for (const s of this.streams.values()) s.stop();
  }

  /** The served kinds changed: the dependents whose owner kinds were unknown are checked again. */
  servedKindsChanged(): void {
    const waiting = [...this.unresolved];
    this.unresolved.clear();
    for (const uid of waiting) this.enqueue(() => this.checkDependent(uid));
  }

  /** Objects known and objects with a node (for tests and metrics). */
  get graphSize(): { objects: number; nodes: number; owners: number } {
    return { objects: this.uids.size, nodes: this.nodes.size, owners: this.dependents.size };
  }

  /** Resolves when no work is queued (for tests). */
  idle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private async consume(store: RegistryStore, stream: WatchStream, initial: boolean): Promise<void> {
    try {
      // a store watched after start does not hold up the first sync
      let initialDone = !initial;
      for await (const ev of stream) {
        if (ev.type === 'BOOKMARK') {
          if (!initialDone && ev.object.metadata?.annotations?.[ANNOTATION_INITIAL_EVENTS_END] === 'true') {
            initialDone = true;
            if (--this.unsynced === 0) this.markSynced();
          }
          continue;
        }
        if (ev.type === 'ERROR') continue;
        this.observe(store, ev.type, ev.object);
      }
    } catch {
      /* the watch ended (server stopping) */
    }
  }

  private observe(store: RegistryStore, type: string, obj: Obj): void {
    const md = obj.metadata ?? {};
    const uid: string | undefined = md.uid;
    if (!uid) return;
    const old = this.nodes.get(uid);
    if (old) for (const o of old.owners) this.forgetDependent(o, uid);
    if (type === 'DELETED') {
      this.uids.delete(uid);
      this.unresolved.delete(uid);
      this.nodes.delete(uid);
      // its dependents may now be orphans of a vanished owner
      const deps = this.dependents.get(uid);
      if (deps?.size) for (const d of deps) this.enqueue(() => this.checkDependent(d));
      // a foreground owner waiting for this dependent may be done
      for (const o of old?.owners ?? []) this.enqueue(() => this.checkOwner(o));
      return;
    }
    this.uids.add(uid);
    const refs: { uid?: string }[] = md.ownerReferences ?? [];
    const deleting = !!md.deletionTimestamp;
    const finalizers: string[] = md.finalizers ?? [];
    if (refs.length === 0 && finalizers.length === 0 && !deleting) {
      // nothing to do for it but to know it exists
      if (old) this.nodes.delete(uid);
      return;
    }
    const node: Node = {
      uid,
      store,
      namespace: md.namespace ?? '',
      name: md.name,
      owners: refs.map((r) => r.uid).filter((u): u is string => !!u),
      deleting,
      finalizers,
    };
    this.nodes.set(uid, node);
    for (const o of node.owners) {
      let set = this.dependents.get(o);
      if (!set) this.dependents.set(o, (set = new Set()));
      set.add(uid);
    }
    if (node.deleting && (node.finalizers.includes(FINALIZER_ORPHAN) || node.finalizers.includes(FINALIZER_FOREGROUND))) {
      this.enqueue(() => this.checkOwner(uid));
    }
    // a dependent created after its owners vanished (or pointing at none that exist)
    if (node.owners.length && node.owners.every((o) => !this.uids.has(o))) this.enqueue(() => this.checkDependent(uid));
  }

  /** uid is no longer a dependent of owner (an owner left with none is forgotten). */
  private forgetDependent(owner: string, uid: string): void {
    const set = this.dependents.get(owner);
    if (!set) return;
    set.delete(uid);
    if (set.size === 0) this.dependents.delete(owner);
  }

  private enqueue(work: () => Promise<void>): void {
    if (this.stopped || !this.synced) return;
    this.queue.push(work);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length && !this.stopped) {
      const work = this.queue.shift()!;
      try {
        await work();
      } catch (err) {
        // conflicts and vanished objects are normal: a later event re-queues what still matters
        if (!(err instanceof ApiError && (err.code === 404 || err.code === 409))) serverLogger().errorS(err, 'Garbage collector failed');
      }
    }
    this.running = false;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /**
   * Whether an owner exists, asking storage when the index has not seen it:
   * events of different resources arrive independently, so the index may lag.
   */
  private async ownerExists(dependent: Node, ref: { apiVersion?: string; kind?: string; name?: string; uid: string }): Promise<boolean> {
    if (this.uids.has(ref.uid)) return true;
    const group = ref.apiVersion?.includes('/') ? ref.apiVersion.split('/')[0] : '';
    const served = ref.kind ? this.api.byKind(group, ref.kind) : undefined;
    if (!served) {
      // an unknown kind proves nothing about the owner: keep the dependent
      this.unresolved.add(dependent.uid);
      return true;
    }
    if (!ref.name) return false;
    try {
      const obj = await served.store.get(served.def.namespaced ? dependent.namespace : '', ref.name);
      return obj.metadata?.uid === ref.uid;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return false;
      throw err;
    }
  }

  /** A dependent whose owners may have gone. */
  private async checkDependent(uid: string): Promise<void> {
    const node = this.nodes.get(uid);
    if (!node || node.deleting) return;
    const refs = await this.ownerRefs(node);
    const liveUids = new Set<string>();
    for (const r of refs) if (await this.ownerExists(node, r)) liveUids.add(r.uid);
    const live = node.owners.filter((o) => liveUids.has(o));
    if (live.length === 0) {
      await node.store.delete(node.namespace, node.name, { preconditions: { uid }, propagationPolicy: 'Background', writer: GARBAGE_COLLECTOR_WRITER });
      return;
    }
    if (live.length < node.owners.length) {
      await this.removeOwnerRefs(node, (ref) => !liveUids.has(ref));
    }
  }

  private async ownerRefs(node: Node): Promise<{ apiVersion?: string; kind?: string; name?: string; uid: string }[]> {
    try {
      const obj = await node.store.get(node.namespace, node.name);
      return obj.metadata?.uid === node.uid ? (obj.metadata.ownerReferences ?? []) : [];
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return [];
      throw err;
    }
  }

  /** An owner being deleted with the orphan or foreground finalizer. */
  private async checkOwner(uid: string): Promise<void> {
    const owner = this.nodes.get(uid);
    if (!owner || !owner.deleting) return;
    const deps = [...(this.dependents.get(uid) ?? [])].map((d) => this.nodes.get(d)).filter((n): n is Node => !!n);
    if (owner.finalizers.includes(FINALIZER_ORPHAN)) {
      for (const d of deps) await this.removeOwnerRefs(d, (ref) => ref === uid);
      await this.removeFinalizer(owner, FINALIZER_ORPHAN);
      return;
    }
    if (owner.finalizers.includes(FINALIZER_FOREGROUND)) {
      for (const d of deps) {
        if (!d.deleting) await d.store.delete(d.namespace, d.name, { preconditions: { uid: d.uid }, propagationPolicy: 'Foreground', writer: GARBAGE_COLLECTOR_WRITER });
      }
      const remaining = [...(this.dependents.get(uid) ?? [])].filter((d) => this.nodes.has(d));
      if (remaining.length === 0) await this.removeFinalizer(owner, FINALIZER_FOREGROUND);
    }
  }

  private async removeOwnerRefs(node: Node, drop: (ownerUid: string) => boolean): Promise<void> {
    await node.store.update(
      node.namespace,
      node.name,
      (live) => {
        if (!live || live.metadata.uid !== node.uid) throw new ApiError(404, 'NotFound', 'gone');
        const refs: { uid: string }[] = live.metadata.ownerReferences ?? [];
        const kept = refs.filter((r) => !drop(r.uid));
        if (kept.length) live.metadata.ownerReferences = kept;
        else delete live.metadata.ownerReferences;
        return live;
      },
      { writer: GARBAGE_COLLECTOR_WRITER },
    );
  }

  private async removeFinalizer(node: Node, finalizer: string): Promise<void> {
    await node.store.update(
      node.namespace,
      node.name,
      (live) => {
        if (!live || live.metadata.uid !== node.uid) throw new ApiError(404, 'NotFound', 'gone');
        const f: string[] = (live.metadata.finalizers ?? []).filter((x: string) => x !== finalizer);
        if (f.length) live.metadata.finalizers = f;
        else delete live.metadata.finalizers;
        return live;
      },
      { writer: GARBAGE_COLLECTOR_WRITER },
    );
  }
}
