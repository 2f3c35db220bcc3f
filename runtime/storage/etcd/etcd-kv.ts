// The KV contract (../interface.ts) on etcd v3, with etcd's own revisions:
// creates, updates and deletes are transactions comparing the key's
// create/mod revision (compare-and-swap), reads go at a revision, lists are
// ranges with a limit and a count, watches are gRPC watch streams from a
// revision with prev_kv (etcd-watch.ts). Keys are laid out as kube-apiserver
// lays them out (key-layout.ts), values as it stores them (value-codec.ts:
// protobuf in the `k8s\0` envelope for the kinds that have a message, JSON
// for the rest); the KV contract's values stay JSON text. What a write
// returns is the value as a read will give it (decoded from what was stored),
// and its watch event takes that text rather than decoding it again
// (written-values.ts).
//
// etcd has no call that reads the compacted revision. This store keeps the
// highest one it learnt of (its own compactions, the compacted revision a
// watch or read was refused with) and, for compactions made elsewhere (another
// server, kube-apiserver), reads the `compact_rev_key` key that the
// compaction loop of kube-apiserver (and ours, compactor.ts) writes before it
// compacts; compactedRevision() answers the larger of the two.
//
// Every unary call has a deadline. With several members (endpoints.ts) a
// call that could not be sent to one (no connection) goes to another, a
// write too; a read is sent again after any unavailability (a member lost,
// a leader election), a write that may have reached etcd is not. A call that
// still fails, or that etcd does not answer in time, fails with
// CommitFailedError carrying the client's text (a 500 Status, as
// kube-apiserver passes etcd errors on).
//
// Reads and writes (Range and Txn) go through this server's own small gRPC
// client (kv-client.ts: its HTTP/2 sessions and codec, a third of the etcd3
// client's CPU per call); watches, leases, compaction and the status call
// through the etcd3 client. Both share the members' health (endpoints.ts).
import type { Etcd3 } from 'etcd3';
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  KeyExistsError,
  NotFoundError,
  StorageError,
  type KV,
  type KeyValue,
  type KVListOptions,
  type KVListResult,
  type KVWatcher,
  type KVWatchOptions,
} from '../interface.ts';
import { CommitFailedError } from '../errors.ts';
import { KeyLayout, prefixEnd } from './key-layout.ts';
import { EtcdWatch, toKeyValue } from './etcd-watch.ts';
import { MemberHealth, retryableRead, unsent } from './endpoints.ts';
import { JSON_VALUES, type ValueCodec } from './value-codec.ts';
import { WrittenValues } from './written-values.ts';
import { EtcdKVClient } from './kv-client.ts';
import type { Compare, RangeResponse, RequestOp, TxnResponse } from './grpc/kv-messages.ts';

/** The key kube-apiserver's compactor keeps at the root of etcd (value: the revision compacted to). */
export const COMPACT_REV_KEY = 'compact_rev_key';

export interface EtcdKVOptions {
  /** Client URLs (http:// or https://). */
  endpoints: string[];
  /** Key prefix (default `/registry`). */
  prefix?: string;
  /** PEM files' contents for TLS to etcd. */
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer };
  /** Deadline of each request to etcd (default 10 s). */
  requestTimeoutMs?: number;
  /** How values are stored (default: JSON text; the server passes protobufValues, kube-apiserver's layout). */
  values?: ValueCodec;
  /** How long the first connection may take at open (default 20 s, as kube-apiserver's dial timeout). */
  dialTimeoutMs?: number;
}

const COMPACTED_TEXT = 'required revision has been compacted';
const FUTURE_TEXT = 'required revision is a future revision';

const buf = (s: string) => Buffer.from(s, 'utf8');

export class EtcdKV implements KV {
  readonly layout: KeyLayout;
  readonly values: ValueCodec;
  private compacted = 0;
  private closed = false;
  private watchers = new Set<EtcdWatch>();
  /** Whether etcd answers progress requests reliably (see progressReliable). */
  private progress = false;
  /** The etcd version the open found. */
  version = '';
  /** How many times a call may be sent (members + 1: every member once, and one more after a pass-over expired). */
  private attempts: number;
  private timeoutMs: number;
  /** What this store wrote lately (protobuf values only: JSON text reads as it is). */
  private written?: WrittenValues;

  constructor(
    /** The etcd3 client: watches, leases, compaction, status. */
    readonly client: Etcd3,
    /** The KV service's client: ranges and transactions. */
    readonly kv: EtcdKVClient,
    opts: EtcdKVOptions,
  ) {
    this.layout = new KeyLayout(opts.prefix ?? '/registry');
    this.attempts = Math.max(2, opts.endpoints.length + 1);
    this.timeoutMs = opts.requestTimeoutMs ?? 10_000;
    this.values = opts.values ?? JSON_VALUES;
    if (this.values !== JSON_VALUES) this.written = new WrittenValues();
  }

  /** Reads compact_rev_key once, so that a store opened after a compaction knows it. */
  async init(): Promise<void> {
    await this.compactedRevision();
    const st = await this.call(() => this.client.maintenance.status(), true);
    this.version = st.version;
    this.progress = progressReliable(st.version);
  }

  async currentRevision(): Promise<number> {
    const res = await this.call(() => this.kv.range({ key: buf(COMPACT_REV_KEY), keys_only: true }), true);
    return Number(res.header.revision);
  }

  async compactedRevision(): Promise<number> {
    const res = await this.call(() => this.kv.range({ key: buf(COMPACT_REV_KEY) }), true);
    const v = res.kvs[0] ? Number(res.kvs[0].value.toString('utf8')) : 0;
    if (Number.isSafeInteger(v) && v > this.compacted) this.compacted = v;
    return this.compacted;
  }

  /** The compacted revision as far as this store knows it without asking etcd. */
  knownCompactedRevision(): number {
    return this.compacted;
  }

  /** Notes a compacted revision learnt from etcd (an error, a watch). */
  noteCompacted(rev: number): void {
    if (rev > this.compacted) this.compacted = rev;
  }

  async get(key: string, revision?: number): Promise<KeyValue | null> {
    const res = await this.read(() => this.kv.range({ key: buf(this.layout.toEtcd(key)), revision: revision || 0 }), revision ?? 0);
    return res.kvs.length ? toKeyValue(res.kvs[0], key, this.values) : null;
  }

  async list(start: string, opts: KVListOptions = {}): Promise<KVListResult> {
    const end = opts.end ?? prefixEnd(start);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const rev = opts.revision ?? 0;
    const res = await this.read(
      () =>
        this.kv.range({
          key: buf(this.layout.toEtcd(start)),
          range_end: buf(this.layout.endToEtcd(end)),
          revision: rev,
          limit,
        }),
      rev,
    );
    const kvs = res.kvs.map((kv) => toKeyValue(kv, this.layout.fromEtcd(kv.key.toString('utf8'), start), this.values));
    const out: KVListResult = { kvs, revision: rev || res.header.revision, more: res.more };
    if (opts.count) out.count = res.count;
    return out;
  }

  async create(key: string, value: string): Promise<KeyValue> {
    const k = buf(this.layout.toEtcd(key));
    const stored = this.values.encode(value);
    const res = await this.txn([{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }], [{ request_put: { key: k, value: stored } }]);
    if (!res.succeeded) throw new KeyExistsError(key);
    const rev = res.header.revision;
    return { key, value: this.asRead(key, rev, value, stored), createRevision: rev, modRevision: rev };
  }

  async update(key: string, value: string, expectedModRevision: number): Promise<KeyValue> {
    const k = buf(this.layout.toEtcd(key));
    const stored = this.values.encode(value);
    const res = await this.txn(
      [{ key: k, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision }],
      [{ request_put: { key: k, value: stored, prev_kv: true } }],
      [{ request_range: { key: k, keys_only: true } }],
    );
    if (!res.succeeded) throw this.casFailure(key, res);
    const prev = res.responses[0]?.response_put?.prev_kv;
    const rev = res.header.revision;
    return { key, value: this.asRead(key, rev, value, stored), createRevision: prev ? prev.create_revision : rev, modRevision: rev };
  }

  async delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    const k = buf(this.layout.toEtcd(key));
    const cmp: Compare =
      expectedModRevision === undefined ? { key: k, target: 'Create', result: 'Greater', create_revision: 0 } : { key: k, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision };
    const res = await this.txn([cmp], [{ request_delete_range: { key: k, prev_kv: true } }], [{ request_range: { key: k, keys_only: true } }]);
    if (!res.succeeded) throw this.casFailure(key, res);
    const prev = res.responses[0]?.response_delete_range?.prev_kvs[0];
    if (!prev) throw new NotFoundError(key);
    return { key, value: this.values.decode(prev.value), createRevision: prev.create_revision, modRevision: res.header.revision };
  }

  /** The JSON a read of a value just written at key and revision gives: the text itself when it was stored as text. */
  private asRead(key: string, revision: number, value: string, stored: Buffer): string {
    if (!this.written) return value;
    const json = this.values.decode(stored);
    this.written.remember(key, revision, json);
    return json;
  }

  watch(prefix: string, opts: KVWatchOptions): KVWatcher {
    if (this.closed) throw new StorageError('storage closed');
    if (opts.afterRevision < this.compacted) throw new CompactedError(opts.afterRevision, this.compacted);
    const w = new EtcdWatch({
      source: this.client.watchClient,
      key: buf(this.layout.toEtcd(prefix)),
      rangeEnd: buf(this.layout.endToEtcd(prefixEnd(prefix))),
      keyOf: (etcdKey) => this.layout.fromEtcd(etcdKey, prefix),
      opts: {
        ...opts,
        onError: (err) => {
          this.watchers.delete(w);
          opts.onError?.(err);
        },
      },
      noteCompacted: (rev) => this.noteCompacted(rev),
      values: this.values,
      written: this.written,
    });
    this.watchers.add(w);
    const watcher: KVWatcher = {
      close: () => {
        this.watchers.delete(w);
        w.close();
      },
    };
    if (this.progress) watcher.requestProgress = () => w.requestProgress();
    return watcher;
  }

  /** A put attached to a lease granted for ttlSeconds (each write its own lease; the previous one expires with nothing on it). */
  async putWithTTL(key: string, value: string, ttlSeconds: number): Promise<void> {
    const lease = await this.call(() => this.client.leaseClient.leaseGrant({ TTL: ttlSeconds }));
    await this.call(() => this.client.kv.put({ key: buf(this.layout.toEtcd(key)), value: buf(value), lease: lease.ID }));
  }

  async compact(revision: number): Promise<void> {
    try {
      await this.call(() => this.client.kv.compact({ revision }));
    } catch (err) {
      if (err instanceof CompactedError) return;
      throw err;
    }
    this.noteCompacted(revision);
  }

  /**
   * A short read with the health-check deadline: null when etcd answered, else
   * why not. A member that cannot be reached is passed over (etcd is healthy
   * while a quorum of its members answers).
   */
  async health(timeoutMs: number): Promise<Error | null> {
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.kv.range({ key: buf(`${this.layout.prefix}/health`), keys_only: true }, deadline);
        return null;
      } catch (err) {
        if (unsent(err) && attempt < this.attempts && Date.now() < deadline) continue;
        return err instanceof Error ? err : new Error(String(err));
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.watchers) w.close();
    this.watchers.clear();
    this.kv.close();
    this.client.close();
  }

  // -------------------------------------------------------------------------

  private txn(compare: Compare[], success: RequestOp[], failure: RequestOp[] = []): Promise<TxnResponse> {
    return this.call(() => this.kv.txn({ compare, success, failure }));
  }

  /** Why a compare failed: the key is missing (NotFound) or at another revision (Conflict). */
  private casFailure(key: string, res: TxnResponse): StorageError {
    const found = res.responses[0]?.response_range?.kvs.length ?? 0;
    return found ? new ConflictError(key) : new NotFoundError(key);
  }

  /** A range at a revision, with etcd's refusals turned into the contract's errors. */
  private async read(fn: () => Promise<RangeResponse>, revision: number): Promise<RangeResponse> {
    try {
      return await this.call(fn, true);
    } catch (err) {
      if (err instanceof CompactedError) throw new CompactedError(revision, Math.max(this.compacted, revision + 1));
      if (err instanceof FutureRevisionError) throw new FutureRevisionError(revision, await this.currentRevision());
      throw err;
    }
  }

  /**
   * Runs one request, sent again while that is safe (never sent; or a read,
   * after any unavailability) and the deadline allows; maps etcd's errors
   * (compacted, future revision, unavailable).
   */
  private async call<T>(fn: () => Promise<T>, read = false): Promise<T> {
    if (this.closed) throw new StorageError('storage closed');
    const end = Date.now() + this.timeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        const text = err instanceof Error ? err.message : String(err);
        if (text.includes(COMPACTED_TEXT)) throw new CompactedError(0, this.compacted);
        if (text.includes(FUTURE_TEXT)) throw new FutureRevisionError(0, 0);
        const again = unsent(err) || (read && retryableRead(err));
        if (!again || attempt >= this.attempts || Date.now() >= end || this.closed) throw new CommitFailedError('etcd', text);
        // a member that was not reached is passed over at once; a read after an election waits a little for the new leader
        if (!unsent(err)) await new Promise((r) => setTimeout(r, 50 * attempt));
      }
    }
  }
}

/**
 * Whether an etcd version answers a watch's progress request only after every
 * earlier event: etcd fixed the ordering in 3.4.31 and 3.5.13 (its issues
 * 15220 and 17507); kube-apiserver uses progress requests (consistent reads
 * from the watch cache) only from those versions on, and so does this store.
 */
export function progressReliable(version: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  const [maj, min, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (maj !== 3) return maj > 3;
  if (min === 4) return patch >= 31;
  if (min === 5) return patch >= 13;
  return min > 5;
}

/** Opens the etcd client (the etcd3 module is loaded only now) and checks that etcd answers. */
export async function openEtcdKV(opts: EtcdKVOptions): Promise<EtcdKV> {
  const { Etcd3 } = await import('etcd3');
  const timeout = opts.requestTimeoutMs ?? 10_000;
  // the client's own retries are off: EtcdKV.call decides what is sent again; each member's policy is endpoints.ts's
  type Policy = NonNullable<NonNullable<NonNullable<ConstructorParameters<typeof Etcd3>[0]>['faultHandling']>['global']>;
  const passThrough = { execute: async <T>(fn: () => T): Promise<Awaited<T>> => await fn() } as unknown as Policy;
  const members = new MemberHealth(opts.endpoints);
  const client = new Etcd3({
    hosts: opts.endpoints,
    credentials: opts.tls?.ca ? { rootCertificate: opts.tls.ca, privateKey: opts.tls.key, certChain: opts.tls.cert } : undefined,
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + timeout }),
    dialTimeout: opts.dialTimeoutMs ?? 20_000,
    faultHandling: { host: (h) => members.policy(h) as unknown as Policy, global: passThrough },
    // an unpaged range (a big resource's list, a watch cache's first list) is one message: no 4 MiB cap, as kube-apiserver's client (MaxInt32)
    grpcOptions: { 'grpc.max_receive_message_length': 2147483647 },
  });
  const kv = new EtcdKV(client, new EtcdKVClient(opts.endpoints, members, timeout, opts.tls), opts);
  const deadline = Date.now() + (opts.dialTimeoutMs ?? 20_000);
  for (;;) {
    try {
      await kv.init();
      return kv;
    } catch (err) {
      if (Date.now() >= deadline) {
        await kv.close();
        throw new StorageError(`cannot reach etcd at ${opts.endpoints.join(',')}: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
