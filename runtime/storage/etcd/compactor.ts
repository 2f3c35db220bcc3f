// The compaction loop kube-apiserver runs against etcd, so that one server
// among several compacts: every interval, a transaction puts the revision seen
// one interval ago into `compact_rev_key` if the key's version is still the
// one this server saw last (a compare-and-swap on the version, used as a
// logical clock); the server whose swap succeeds compacts etcd to that
// revision, the others adopt the key's new version and try again next
// interval. History of one to two intervals stays readable for watches and
// continue tokens.
import type { EtcdKV } from './etcd-kv.ts';
import { COMPACT_REV_KEY } from './etcd-kv.ts';

export class EtcdCompactor {
  /** The version of compact_rev_key this server saw last. */
  private version = 0;
  /** The revision seen at the previous round (what the next round compacts to). */
  private rev = 0;
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private kv: EtcdKV,
    private log: (msg: string) => void = () => {},
  ) {}

  /** Runs a round every intervalMs (0: never). */
  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.round().finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  /**
   * One round: the swap, and the compaction when it succeeded and an earlier
   * round saw a revision. Returns the revision compacted to, or 0.
   */
  async round(): Promise<number> {
    const key = Buffer.from(COMPACT_REV_KEY);
    let compacted = 0;
    try {
      const res = await this.kv.kv.txn({
        compare: [{ key, target: 'Version', result: 'Equal', version: this.version }],
        success: [{ request_put: { key, value: Buffer.from(String(this.rev)) } }],
        failure: [{ request_range: { key } }],
      });
      const current = res.header.revision;
      if (!res.succeeded) {
        // another server compacted (or started to): follow its clock
        this.version = res.responses[0]?.response_range?.kvs[0]?.version ?? 0;
      } else {
        this.version++;
        if (this.rev > 0) {
          await this.kv.compact(this.rev);
          compacted = this.rev;
        }
      }
      this.rev = current;
    } catch (err) {
      this.log(`etcd compaction: ${(err as Error).message}`);
    }
    return compacted;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
