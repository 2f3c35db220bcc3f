// etcd's KV service (Range, Put, Txn) for the store's reads and writes, over
// this server's own gRPC channels (grpc/channel.ts, one HTTP/2 session per
// member) and message codec (grpc/kv-messages.ts): the hot path of every
// create, update, delete, get and list. Watches, leases, compaction and the
// maintenance status stay on the etcd3 client.
//
// Which member a call goes to: the members in turn, passing over one that a
// call could not reach moments ago (endpoints.ts's MemberHealth, shared with
// the etcd3 client's watches and leases), so that while a member is dead calls
// go to the living ones and one that comes back is used again. A call is sent
// once; EtcdKV.call decides what is sent again (to the next member).
import { GrpcChannel, type ChannelTLS } from './grpc/channel.ts';
import {
  decodePutResponse,
  decodeRangeResponse,
  decodeTxnResponse,
  putFrame,
  rangeFrame,
  txnFrame,
  type PutRequest,
  type PutResponse,
  type RangeRequest,
  type RangeResponse,
  type TxnRequest,
  type TxnResponse,
} from './grpc/kv-messages.ts';
import type { MemberHealth } from './endpoints.ts';

export class EtcdKVClient {
  private channels: GrpcChannel[];
  private next = 0;

  constructor(
    endpoints: string[],
    private members: MemberHealth,
    /** Deadline of a call that names none (ms from its start). */
    private timeoutMs: number,
    tls?: ChannelTLS,
  ) {
    // as the etcd3 client: TLS when a CA is given (and the URL is https)
    this.channels = endpoints.map((url) => new GrpcChannel(url, tls?.ca ? tls : undefined));
  }

  range(req: RangeRequest, deadline?: number): Promise<RangeResponse> {
    return this.unary('/etcdserverpb.KV/Range', rangeFrame(req), deadline, decodeRangeResponse);
  }

  put(req: PutRequest, deadline?: number): Promise<PutResponse> {
    return this.unary('/etcdserverpb.KV/Put', putFrame(req), deadline, decodePutResponse);
  }

  txn(req: TxnRequest, deadline?: number): Promise<TxnResponse> {
    return this.unary('/etcdserverpb.KV/Txn', txnFrame(req), deadline, decodeTxnResponse);
  }

  close(): void {
    for (const c of this.channels) c.close();
  }

  private async unary<T>(path: string, frame: Buffer, deadline: number | undefined, decode: (msg: Buffer) => T): Promise<T> {
    const channel = this.pick();
    try {
      return await channel.unary(path, frame, deadline ?? Date.now() + this.timeoutMs, decode);
    } catch (err) {
      this.members.noteFailure(channel.url, err);
      throw err;
    }
  }

  /** The next member in turn that is not passed over (with one member: that one). */
  private pick(): GrpcChannel {
    const n = this.channels.length;
    for (let i = 0; i < n; i++) {
      const c = this.channels[(this.next + i) % n];
      if (!this.members.passOver(c.url)) {
        this.next = (this.next + i + 1) % n;
        return c;
      }
    }
    return this.channels[this.next++ % n];
  }
}
