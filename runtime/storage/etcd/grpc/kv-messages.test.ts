// The codec against the etcd3 client's own protobuf encoding of the same
// messages (its rpc.proto through its proto loader): what this codec encodes
// decodes there to the same request, what it encodes decodes here to the same
// answer.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeRangeResponse, decodeTxnResponse, decodePutResponse, putFrame, rangeFrame, txnFrame, type TxnRequest } from './kv-messages.ts';
import { DecodeError } from './protobuf.ts';

interface Method {
  requestDeserialize(b: Buffer): Record<string, unknown>;
  responseSerialize(o: unknown): Buffer;
}
const require = createRequire(import.meta.url);
const etcd3Main = require.resolve('etcd3');
const loader = createRequire(etcd3Main)('@grpc/proto-loader') as { loadSync(path: string, o: object): Record<string, Record<string, Method>> };
const KV = loader.loadSync(join(etcd3Main, '../../proto/rpc.proto'), { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true })['etcdserverpb.KV'];

const b = (s: string) => Buffer.from(s);
/** The message of a gRPC frame, after checking its prefix. */
function message(frame: Buffer): Buffer {
  expect(frame[0]).toBe(0);
  expect(frame.readUInt32BE(1)).toBe(frame.length - 5);
  return frame.subarray(5);
}

describe('etcd KV requests', () => {
  it.each([
    ['a key', { key: b('/registry/a') }, { key: b('/registry/a'), range_end: Buffer.alloc(0), limit: '0', revision: '0', keys_only: false }],
    [
      'a page of a range at a revision',
      { key: b('/registry/'), range_end: b('/registry0'), limit: 500, revision: 2 ** 40 + 3, keys_only: true, count_only: true, serializable: true },
      { key: b('/registry/'), range_end: b('/registry0'), limit: '500', revision: String(2 ** 40 + 3), keys_only: true, count_only: true, serializable: true },
    ],
  ])('Range: %s', (_name, req, want) => {
    expect(KV.Range.requestDeserialize(message(rangeFrame(req)))).toMatchObject(want);
  });

  it('Put', () => {
    const value = Buffer.from([0x6b, 0x38, 0x73, 0x00, 0xff, 0x00]);
    expect(KV.Put.requestDeserialize(message(putFrame({ key: b('k'), value, prev_kv: true })))).toMatchObject({ key: b('k'), value, prev_kv: true, lease: '0' });
  });

  const rows: [string, TxnRequest, unknown][] = [
    [
      'a create',
      { compare: [{ key: b('k'), target: 'Create', result: 'Equal', create_revision: 0 }], success: [{ request_put: { key: b('k'), value: b('v') } }] },
      {
        compare: [{ key: b('k'), target: 'Create', result: 'Equal', create_revision: '0', target_union: 'create_revision' }],
        success: [{ request_put: { key: b('k'), value: b('v'), prev_kv: false }, request: 'request_put' }],
        failure: [],
      },
    ],
    [
      'an update',
      {
        compare: [{ key: b('k'), target: 'Mod', result: 'Equal', mod_revision: 123456789012 }],
        success: [{ request_put: { key: b('k'), value: b('v2'), prev_kv: true } }],
        failure: [{ request_range: { key: b('k'), keys_only: true } }],
      },
      {
        compare: [{ target: 'Mod', result: 'Equal', mod_revision: '123456789012', target_union: 'mod_revision' }],
        success: [{ request_put: { value: b('v2'), prev_kv: true } }],
        failure: [{ request_range: { key: b('k'), keys_only: true }, request: 'request_range' }],
      },
    ],
    [
      'a delete',
      { compare: [{ key: b('k'), target: 'Create', result: 'Greater', create_revision: 0 }], success: [{ request_delete_range: { key: b('k'), prev_kv: true } }] },
      { compare: [{ target: 'Create', result: 'Greater' }], success: [{ request_delete_range: { key: b('k'), prev_kv: true }, request: 'request_delete_range' }] },
    ],
    [
      'the compactor: version, value, lease, a range end',
      {
        compare: [
          { key: b('compact_rev_key'), target: 'Version', result: 'Equal', version: 7 },
          { key: b('a'), target: 'Value', result: 'NotEqual', value: Buffer.alloc(0) },
          { key: b('a'), target: 'Lease', result: 'Less', lease: 9, range_end: b('b') },
        ],
        success: [{ request_put: { key: b('compact_rev_key'), value: b('42') } }],
      },
      {
        compare: [
          { key: b('compact_rev_key'), target: 'Version', result: 'Equal', version: '7', target_union: 'version' },
          { target: 'Value', result: 'NotEqual', value: Buffer.alloc(0), target_union: 'value' },
          { target: 'Lease', result: 'Less', lease: '9', range_end: b('b'), target_union: 'lease' },
        ],
      },
    ],
  ];
  it.each(rows)('Txn: %s', (_name, req, want) => {
    expect(KV.Txn.requestDeserialize(message(txnFrame(req)))).toMatchObject(want as object);
  });

  it('refuses a revision it cannot send exactly and an empty operation', () => {
    expect(() => rangeFrame({ key: b('k'), revision: -1 })).toThrow(RangeError);
    expect(() => txnFrame({ success: [{}] })).toThrow(RangeError);
  });
});

describe('etcd KV answers', () => {
  const kv = (key: string, rev: number, value: string) => ({ key: b(key), create_revision: String(rev), mod_revision: String(rev + 1), version: '2', value: b(value), lease: '9223372036854775807' });
  const header = { cluster_id: '18446744073709551615', member_id: '12345678901234567890', revision: String(2 ** 52 + 1), raft_term: '4' };

  it('Range: the header, the kvs (values are views of the message), more and count', () => {
    const msg = KV.Range.responseSerialize({ header, kvs: [kv('/a', 5, 'x'), kv('/b', 6, '')], more: true, count: '1000' });
    const res = decodeRangeResponse(msg);
    expect(res.header).toEqual({ revision: 2 ** 52 + 1, raft_term: 4 });
    expect(res.kvs.map((k) => [k.key.toString(), k.create_revision, k.mod_revision, k.version, k.value.toString()])).toEqual([
      ['/a', 5, 6, 2, 'x'],
      ['/b', 6, 7, 2, ''],
    ]);
    expect(res.kvs[0].value.buffer).toBe(msg.buffer);
    expect([res.more, res.count]).toEqual([true, 1000]);
  });

  it('Range: an empty answer', () => {
    expect(decodeRangeResponse(KV.Range.responseSerialize({}))).toEqual({ header: { revision: 0, raft_term: 0 }, kvs: [], more: false, count: 0 });
  });

  it('Put: the previous value', () => {
    const res = decodePutResponse(KV.Put.responseSerialize({ header, prev_kv: kv('/a', 3, 'old') }));
    expect([res.header.revision, res.prev_kv?.value.toString(), res.prev_kv?.create_revision]).toEqual([2 ** 52 + 1, 'old', 3]);
  });

  it('Txn: succeeded, and each operation’s answer', () => {
    const res = decodeTxnResponse(
      KV.Txn.responseSerialize({
        header,
        succeeded: true,
        responses: [
          { response_put: { header, prev_kv: kv('/a', 3, 'old') } },
          { response_range: { header, kvs: [kv('/a', 3, 'old')], count: '1' } },
          { response_delete_range: { header, deleted: '1', prev_kvs: [kv('/d', 8, 'gone')] } },
        ],
      }),
    );
    expect(res.succeeded).toBe(true);
    expect(res.header.revision).toBe(2 ** 52 + 1);
    expect(res.responses[0].response_put?.prev_kv?.mod_revision).toBe(4);
    expect(res.responses[1].response_range?.kvs[0].key.toString()).toBe('/a');
    expect(res.responses[2].response_delete_range?.deleted).toBe(1);
    expect(res.responses[2].response_delete_range?.prev_kvs[0].value.toString()).toBe('gone');
  });

  it('Txn: a failed compare', () => {
    const res = decodeTxnResponse(KV.Txn.responseSerialize({ header, succeeded: false, responses: [{ response_range: { header, kvs: [] } }] }));
    expect(res.succeeded).toBe(false);
    expect(res.responses[0].response_range?.kvs).toEqual([]);
  });

  it('refuses a truncated answer', () => {
    const msg = KV.Range.responseSerialize({ header, kvs: [kv('/a', 5, 'some value')] });
    for (const cut of [1, 3, msg.length - 1]) expect(() => decodeRangeResponse(msg.subarray(0, cut))).toThrow(DecodeError);
  });
});
