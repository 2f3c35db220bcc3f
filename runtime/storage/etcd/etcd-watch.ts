// One KV watch on etcd: a gRPC Watch stream of its own, created from a
// revision with prev_kv, whose events are handed on in revision order. A
// stream that breaks (etcd restarted, a member lost) is opened again from the
// revision after the last one delivered, with a growing pause, as etcd's own
// clients do; a start revision etcd has compacted ends the watch with a
// CompactedError. A progress request is sent on the stream (etcd's
// RequestProgress) and its answer reported as onProgress.
import type { IWatchResponse, IWatchRequest } from 'etcd3';
import { CompactedError, type KVEvent, type KVWatcher, type KVWatchOptions, type KeyValue } from '../interface.ts';
import { JSON_VALUES, type ValueCodec } from './value-codec.ts';
import type { WrittenValues } from './written-values.ts';

/** The part of the etcd3 client a watch needs: a duplex Watch stream. */
export interface WatchStreamSource {
  watch(): Promise<WatchDuplex>;
}

export interface WatchDuplex {
  write(req: IWatchRequest): unknown;
  on(event: 'data', fn: (res: IWatchResponse) => void): unknown;
  on(event: 'error', fn: (err: Error) => void): unknown;
  on(event: 'end', fn: () => void): unknown;
  cancel(): void;
}

export interface EtcdWatchParams {
  source: WatchStreamSource;
  /** etcd range of the watch. */
  key: Buffer;
  rangeEnd: Buffer;
  /** Our key of an etcd key. */
  keyOf(etcdKey: string): string;
  opts: KVWatchOptions;
  /** Called when etcd reports the compacted revision. */
  noteCompacted(rev: number): void;
  /** Pause before the first reconnect (doubles up to 2 s). */
  retryMs?: number;
  /** How stored values read (default: JSON text). */
  values?: ValueCodec;
  /** Values this server wrote lately, read from there rather than decoded again. */
  written?: WrittenValues;
}

/** A key's value as etcd answers it (the etcd3 client's revisions are strings, this server's KV client's numbers). */
export interface StoredKeyValue {
  value?: Buffer;
  create_revision: string | number;
  mod_revision: string | number;
}

/** A KV entry of an etcd one: our key, the value as JSON text (as written, when `written` remembers it). */
export function toKeyValue(kv: StoredKeyValue, key: string, values: ValueCodec = JSON_VALUES, written?: WrittenValues): KeyValue {
  const modRevision = Number(kv.mod_revision);
  const value = kv.value?.length ? (written?.lookup(key, modRevision) ?? values.decode(kv.value)) : '';
  return { key, value, createRevision: Number(kv.create_revision), modRevision };
}

export class EtcdWatch implements KVWatcher {
  private stream?: WatchDuplex;
  private closed = false;
  /** The revision of the last event delivered. */
  private delivered: number;
  private retryMs: number;
  private timer?: NodeJS.Timeout;

  constructor(private p: EtcdWatchParams) {
    this.delivered = p.opts.afterRevision;
    this.retryMs = p.retryMs ?? 100;
    this.connect();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    this.stream?.cancel();
    this.stream = undefined;
  }

  requestProgress(): void {
    this.stream?.write({ progress_request: {} });
  }

  private connect(): void {
    if (this.closed) return;
    this.p.source.watch().then(
      (stream) => {
        // a cancelled stream reports CANCELLED as an error: expected once closed
        stream.on('error', () => undefined);
        if (this.closed) {
          stream.cancel();
          return;
        }
        this.stream = stream;
        let broken = false;
        const lost = () => {
          if (broken || this.stream !== stream) return;
          broken = true;
          this.stream = undefined;
          this.reconnect();
        };
        stream.on('data', (res) => this.onResponse(res));
        stream.on('error', lost);
        stream.on('end', lost);
        stream.write({
          create_request: {
            key: this.p.key,
            range_end: this.p.rangeEnd,
            start_revision: this.delivered + 1,
            prev_kv: true,
          },
        });
      },
      () => this.reconnect(),
    );
  }

  private reconnect(): void {
    if (this.closed) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(2000, this.retryMs * 2);
    this.timer = setTimeout(() => this.connect(), wait);
    this.timer.unref();
  }

  private fail(err: Error): void {
    if (this.closed) return;
    this.close();
    this.p.opts.onError?.(err);
  }

  private onResponse(res: IWatchResponse): void {
    if (this.closed) return;
    const compactRev = Number(res.compact_revision ?? 0);
    if (res.canceled || compactRev > 0) {
      if (compactRev > 0) {
        this.p.noteCompacted(compactRev);
        this.fail(new CompactedError(this.delivered, compactRev));
      } else {
        this.fail(new Error(`etcd watch canceled: ${res.cancel_reason || 'no reason given'}`));
      }
      return;
    }
    if (res.created) {
      this.retryMs = this.p.retryMs ?? 100;
      return;
    }
    const events = res.events ?? [];
    if (events.length === 0) {
      // a progress notification: every event up to the header's revision has been sent
      const rev = Number(res.header?.revision ?? 0);
      if (rev > 0) this.p.opts.onProgress?.(Math.max(rev, this.delivered));
      return;
    }
    const out: KVEvent[] = [];
    try {
      this.collect(events, out);
    } catch (err) {
      // a stored value that does not decode ends the watch (its reader lists again)
      this.fail(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (out.length === 0) return;
    this.delivered = out[out.length - 1].kv.modRevision;
    this.p.opts.onEvents(out);
  }

  private collect(events: NonNullable<IWatchResponse['events']>, out: KVEvent[]): void {
    const values = this.p.values ?? JSON_VALUES;
    for (const ev of events) {
      const rev = Number(ev.kv.mod_revision);
      // after a reconnect etcd starts at the revision asked for: nothing repeats, but be sure
      if (rev <= this.delivered) continue;
      const key = this.p.keyOf(ev.kv.key.toString('utf8'));
      const prevKv = ev.prev_kv ? toKeyValue(ev.prev_kv, key, values, this.p.written) : undefined;
      if (ev.type === 'Delete') {
        out.push({ type: 'DELETE', kv: { key, value: '', createRevision: prevKv?.createRevision ?? 0, modRevision: rev }, prevKv });
      } else {
        out.push({ type: 'PUT', kv: toKeyValue(ev.kv, key, values, this.p.written), prevKv });
      }
    }
  }
}
