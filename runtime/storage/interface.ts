// The storage contracts of specserver. Two layers, both etcd-shaped:
//
// - KV: a key-value store with one global revision (etcd's model). Backends:
//   runtime/storage/sqlite (append-only revision log), later etcd. A backend
//   knows nothing of Kubernetes objects.
// - Storage: the object-level interface the registry uses (k8s.io/apiserver's
//   storage.Interface): JSON objects under keys, resourceVersion = revision,
//   preconditions, selectors, chunked lists, watches. Implemented by
//   runtime/storage/kvstore (over any KV) and by runtime/storage/cacher (over
//   any Storage), so a test suite written once runs against each.
//
// This file holds types only.

import type { Maybe } from '../api/maybe.ts';

// ---------------------------------------------------------------------------
// KV layer
// ---------------------------------------------------------------------------

export interface KeyValue {
  key: string;
  /** Serialized object (JSON text). */
  value: string;
  createRevision: number;
  modRevision: number;
}

export interface KVListOptions {
  /** List keys in [start, end) ; `end` defaults to the prefix end of `start`. */
  end?: string;
  /** Read at this revision (0 or absent: latest). Compacted: throws CompactedError. */
  revision?: number;
  /** Maximum number of keys (0 or absent: no limit). */
  limit?: number;
  /** Also report how many keys in range exist in total at that revision. */
  count?: boolean;
}

export interface KVListResult {
  kvs: KeyValue[];
  /** The revision the list was served at. */
  revision: number;
  /** More keys exist in range after the last returned. */
  more: boolean;
  /** Keys in the whole range, when asked for. */
  count?: number;
}

export type KVEventType = 'PUT' | 'DELETE';

export interface KVEvent {
  type: KVEventType;
  /** For PUT: the new value; for DELETE: key with modRevision = the delete revision, value = ''. */
  kv: KeyValue;
  /** The value before this event (absent on a create). */
  prevKv?: KeyValue;
}

export interface KVWatcher {
  /** Stop delivery; idempotent. */
  close(): void;
  /**
   * Ask for an onProgress call once every event up to the store's current
   * revision has been delivered (etcd's RequestProgress). Optional.
   */
  requestProgress?(): void;
}

export interface KVWatchOptions {
  /** Deliver events with revision > afterRevision. Compacted: throws CompactedError. */
  afterRevision: number;
  onEvents(events: KVEvent[]): void;
  /** Called once if the watch ends on its own (backend closed, error). */
  onError?(err: Error): void;
  /**
   * Progress notification: every event with revision <= `revision` has been
   * delivered (sent after requestProgress). Optional.
   */
  onProgress?(revision: number): void;
}

export interface KV {
  currentRevision(): Promise<number>;
  /** Optional: the current revision when it is known in memory (the revision of the last acknowledged write). */
  revisionNow?(): number;
  /** Oldest revision still readable. */
  compactedRevision(): Promise<number>;
  get(key: string, revision?: number): Promise<KeyValue | null>;
  list(start: string, opts?: KVListOptions): Promise<KVListResult>;
  /** Fails with KeyExistsError when the key exists. */
  create(key: string, value: string): Promise<KeyValue>;
  /** Put only if the key's modRevision equals expected; else ConflictError (or NotFoundError). */
  update(key: string, value: string, expectedModRevision: number): Promise<KeyValue>;
  /** Delete, optionally only if modRevision equals expected. Returns the deleted value. */
  delete(key: string, expectedModRevision?: number): Promise<KeyValue>;
  /** Watch keys with the prefix. */
  watch(prefix: string, opts: KVWatchOptions): KVWatcher;
  /** Drop history at or below revision (current values stay readable). */
  compact(revision: number): Promise<void>;
  /**
   * Optional (etcd: a lease granted for the key): put a value that goes away
   * ttlSeconds after this write unless written again. Absent on a store one
   * process owns (SQLite), where nothing outlives its writer unseen.
   */
  putWithTTL?(key: string, value: string, ttlSeconds: number): Promise<void>;
  close(): Promise<void>;
}

export class StorageError extends Error {}
export class KeyExistsError extends StorageError {
  constructor(public key: string) {
    super(`key exists: ${key}`);
  }
}
export class NotFoundError extends StorageError {
  constructor(public key: string) {
    super(`key not found: ${key}`);
  }
}
export class ConflictError extends StorageError {
  constructor(
    public key: string,
    message?: string,
  ) {
    super(message ?? `modRevision mismatch: ${key}`);
  }
}
/** A revision older than the compacted one was asked for. */
export class CompactedError extends StorageError {
  constructor(
    public requested: number,
    public compacted: number,
  ) {
    super(`revision ${requested} has been compacted (oldest ${compacted})`);
  }
}
/** A revision newer than the store's was asked for (the caller should wait or fail with a timeout). */
export class FutureRevisionError extends StorageError {
  constructor(
    public requested: number,
    public current: number,
  ) {
    super(`revision ${requested} is newer than current ${current}`);
  }
}
/** An invalid request to the object layer (bad continue token, bad RV), mapped to 400. */
export class InvalidRequestError extends StorageError {}
/** A precondition (uid or resourceVersion) of a delete or update failed, mapped to 409. */
export class PreconditionError extends StorageError {}

// ---------------------------------------------------------------------------
// Object layer
// ---------------------------------------------------------------------------

/** A Kubernetes object as JSON (apiVersion, kind, metadata, ...). */
// Its values stay `any` on purpose: every strategy, formatter and controller
// reads the fields of the kinds it knows by path (about 800 places); typing
// them is a change of its own (per-kind types or unknown with narrowing).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Obj = Record<string, any>;

/** What a selector sees of an object. */
export interface ObjectAttrs {
  labels: Record<string, string>;
  /** Field-selector fields, e.g. `metadata.name`, `metadata.namespace`, `type`. */
  fields: Record<string, string>;
}

export interface Predicate {
  /** Parsed label selector; absent or empty matches everything. */
  label?: { matches(labels: Record<string, string>): boolean; empty(): boolean };
  field?: { matches(fields: Record<string, string>): boolean; empty(): boolean };
  /** Extracts labels and fields from an object (per resource type). */
  attrs(obj: Obj): ObjectAttrs;
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface GetOptions {
  /** '' or absent: consistent (latest); '0': any; other: not older than. */
  resourceVersion?: string;
}

export interface ListOptions {
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan' | '';
  limit?: number;
  continue?: string;
  predicate?: Predicate;
}

export interface ListResult {
  items: Obj[];
  /** The list's resourceVersion (revision served at). */
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/**
 * One object as the JSON a read serves: `json` is the same string as
 * JSON.stringify of the object get() or list() would return (with
 * metadata.resourceVersion), made without parsing where the store can.
 */
export interface EncodedObject {
  /** The JSON text; where `bytes` is kept instead (the watch cache), decoded from them on each read. */
  readonly json: string;
  /** The object's apiVersion (the version it is stored in); '' when it has none. */
  readonly apiVersion: string;
  /** The same JSON as UTF-8 bytes, where that is how it is kept: a view to read (never to write), made on each read. */
  readonly bytes?: Uint8Array;
  /** Where the bytes are kept: their size, and a copy of them into out at `at` (returning the size), without a view made for it. */
  readonly byteLength?: number;
  copyBytes?(out: Uint8Array, at: number): number;
}

export interface EncodedListResult extends Omit<ListResult, 'items'> {
  items: EncodedObject[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  /** The object (with metadata.resourceVersion set); for ERROR a Status object. */
  object: Obj;
  /**
   * Per-format serialization cache shared by every watcher that receives this
   * event: serialize once per wire format (`json`, `protobuf`, ...).
   */
  encoded?: Map<string, Uint8Array>;
  /** JSON.stringify(object), when the source had it without serializing (KVStorage, the cache). */
  json?: string;
}

export interface WatchOptions {
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | '';
  sendInitialEvents?: boolean;
  allowWatchBookmarks?: boolean;
  predicate?: Predicate;
  /** Watch every key under the prefix (true) or one key. */
  recursive: boolean;
}

export interface WatchStream extends AsyncIterable<WatchEvent> {
  /** Stop the watch; the iterator ends. Idempotent. */
  stop(): void;
  /**
   * Ask for a BOOKMARK carrying the current revision once every earlier event
   * has been delivered (only with allowWatchBookmarks). Optional.
   */
  requestProgress?(): void;
  /**
   * False when requestProgress cannot be answered (the backend's watch has no
   * reliable progress notification): a reader waiting for freshness then
   * gives up at once. Absent: it can.
   */
  progressSupported?: boolean;
  /**
   * Takes the events already buffered, without waiting, so that a consumer
   * can write several out at once (an array not to be changed: it may be
   * shared with other streams). Optional.
   */
  takeBuffered?(max?: number): readonly WatchEvent[];
}

/**
 * Receives the current object (or null when missing, for ignoreNotFound) and
 * returns the object to store. Throwing aborts the update with that error.
 */
export type UpdateFunc = (current: Obj | null) => Obj | Promise<Obj>;

export interface GuaranteedUpdateOptions {
  preconditions?: Preconditions;
  ignoreNotFound?: boolean;
  tryUpdate: UpdateFunc;
  cached?: Obj;
}

export interface Storage {
  /** Store a new object; sets metadata.resourceVersion on the returned copy. KeyExistsError if present. */
  create(key: string, obj: Obj): Promise<Obj>;
  get(key: string, opts?: GetOptions): Promise<Obj | null>;
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;
  watch(keyOrPrefix: string, opts: WatchOptions): Promise<WatchStream>;
  /**
   * Read, apply tryUpdate, write conditionally; on a concurrent write re-read
   * and retry. With ignoreNotFound a missing object is passed as null (create).
   * An update that changes nothing is not written (returns the current object).
   * With `cached` (the object as the caller last had it from storage, with its
   * resourceVersion: upstream's cachedExistingObject) the first try starts
   * from it instead of a read; when it proves stale (the write conflicts, a
   * precondition fails, or nothing would change) the object is read and tried again.
   */
  guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions): Promise<Obj>;
  /**
   * Delete; validateDeletion may throw to refuse (e.g. a finalizer check).
   * Returns the last state of the object.
   */
  delete(
    key: string,
    opts?: {
      preconditions?: Preconditions;
      validateDeletion?: (current: Obj) => void | Promise<void>;
    },
  ): Promise<Obj>;
  /**
   * Optional: get() answered as JSON (same options, errors, consistency and
   * null for a missing object), for readers that only send the object on.
   */
  getEncoded?(key: string, opts?: GetOptions): Maybe<EncodedObject | null>;
  /** Optional: list() answered as JSON items (same options, errors, consistency, paging). */
  listEncoded?(prefix: string, opts?: ListOptions): Promise<EncodedListResult>;
  count(prefix: string): Promise<number>;
  /** The store's current revision. */
  currentRevision(): Promise<number>;
  /** Optional: the store's current revision when it is known in memory (what currentRevision() would answer now); undefined when not. */
  revisionNow?(): number | undefined;
  close(): Promise<void>;
}
