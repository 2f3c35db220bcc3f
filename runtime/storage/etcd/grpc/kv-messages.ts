// etcd's KV messages on the wire (etcdserverpb's rpc.proto and mvccpb's
// kv.proto, etcd 3.x; field numbers as there): the requests this server sends
// (RangeRequest, PutRequest, DeleteRangeRequest, TxnRequest with its Compare
// and RequestOp) encoded as gRPC frames (the 5-byte prefix: not compressed,
// the length), the answers (ResponseHeader, KeyValue, RangeResponse,
// PutResponse, DeleteRangeResponse, TxnResponse with its ResponseOp) decoded
// from a message. Field names are etcd's (as the etcd3 client names them);
// int64s are numbers. Not decoded: the header's cluster_id and member_id and
// a KeyValue's lease (uint64/int64 ids that can pass 2^53; nothing here reads
// them), nested transactions (never sent).
import { DecodeError, LEN, Reader, int64, lenFieldSize, varintFieldSize, writeBytesField, writeLenHeader, writeVarintField } from './protobuf.ts';

// ---------------------------------------------------------------- requests

export interface RangeRequest {
  key: Buffer;
  range_end?: Buffer;
  limit?: number;
  revision?: number;
  serializable?: boolean;
  keys_only?: boolean;
  count_only?: boolean;
}

export interface PutRequest {
  key: Buffer;
  value: Buffer;
  prev_kv?: boolean;
}

export interface DeleteRangeRequest {
  key: Buffer;
  range_end?: Buffer;
  prev_kv?: boolean;
}

export type CompareTarget = 'Version' | 'Create' | 'Mod' | 'Value' | 'Lease';
export type CompareResult = 'Equal' | 'Greater' | 'Less' | 'NotEqual';

/** A comparison of one key: its target's value (the field the target names) against the key's. */
export interface Compare {
  key: Buffer;
  target: CompareTarget;
  result: CompareResult;
  version?: number;
  create_revision?: number;
  mod_revision?: number;
  value?: Buffer;
  lease?: number;
  range_end?: Buffer;
}

/** One operation of a transaction: exactly one of the three. */
export interface RequestOp {
  request_range?: RangeRequest;
  request_put?: PutRequest;
  request_delete_range?: DeleteRangeRequest;
}

export interface TxnRequest {
  compare?: Compare[];
  success?: RequestOp[];
  failure?: RequestOp[];
}

const TARGETS: Record<CompareTarget, number> = { Version: 0, Create: 1, Mod: 2, Value: 3, Lease: 4 };
const RESULTS: Record<CompareResult, number> = { Equal: 0, Greater: 1, Less: 2, NotEqual: 3 };
/** The target_union field of each target (Compare: version 4, create_revision 5, mod_revision 6, value 7, lease 8). */
const TARGET_FIELD = [4, 5, 6, 7, 8] as const;

const bytesSize = (field: number, b: Uint8Array | undefined): number => (b?.length ? lenFieldSize(field, b.length) : 0);
/** A true bool field below field 16: a 1-byte key and a 1-byte value (false is not written). */
const boolSize = (b: boolean | undefined): number => (b ? 2 : 0);
const writeBool = (buf: Buffer, pos: number, field: number, b: boolean | undefined): number => writeVarintField(buf, pos, field, b ? 1 : 0);

function rangeSize(m: RangeRequest): number {
  return (
    bytesSize(1, m.key) +
    bytesSize(2, m.range_end) +
    varintFieldSize(3, int64(m.limit ?? 0, 'limit')) +
    varintFieldSize(4, int64(m.revision ?? 0, 'revision')) +
    boolSize(m.serializable) +
    boolSize(m.keys_only) +
    boolSize(m.count_only)
  );
}
function writeRange(buf: Buffer, pos: number, m: RangeRequest): number {
  pos = writeBytesField(buf, pos, 1, m.key);
  pos = writeBytesField(buf, pos, 2, m.range_end);
  pos = writeVarintField(buf, pos, 3, m.limit ?? 0);
  pos = writeVarintField(buf, pos, 4, m.revision ?? 0);
  pos = writeBool(buf, pos, 7, m.serializable);
  pos = writeBool(buf, pos, 8, m.keys_only);
  return writeBool(buf, pos, 9, m.count_only);
}

function putSize(m: PutRequest): number {
  return bytesSize(1, m.key) + bytesSize(2, m.value) + boolSize(m.prev_kv);
}
function writePut(buf: Buffer, pos: number, m: PutRequest): number {
  pos = writeBytesField(buf, pos, 1, m.key);
  pos = writeBytesField(buf, pos, 2, m.value);
  return writeBool(buf, pos, 4, m.prev_kv);
}

function deleteSize(m: DeleteRangeRequest): number {
  return bytesSize(1, m.key) + bytesSize(2, m.range_end) + boolSize(m.prev_kv);
}
function writeDelete(buf: Buffer, pos: number, m: DeleteRangeRequest): number {
  pos = writeBytesField(buf, pos, 1, m.key);
  pos = writeBytesField(buf, pos, 2, m.range_end);
  return writeBool(buf, pos, 3, m.prev_kv);
}

/** The value a comparison compares with (its oneof: written even when 0 or empty). */
function compareOperand(m: Compare): number | Buffer {
  switch (m.target) {
    case 'Version':
      return int64(m.version ?? 0, 'version');
    case 'Create':
      return int64(m.create_revision ?? 0, 'create_revision');
    case 'Mod':
      return int64(m.mod_revision ?? 0, 'mod_revision');
    case 'Value':
      return m.value ?? Buffer.alloc(0);
    case 'Lease':
      return int64(m.lease ?? 0, 'lease');
  }
}
function compareSize(m: Compare): number {
  const target = TARGETS[m.target];
  if (target === undefined || RESULTS[m.result] === undefined) throw new RangeError(`unknown comparison ${m.target} ${m.result}`);
  const operand = compareOperand(m);
  const field = TARGET_FIELD[target];
  return (
    varintFieldSize(1, RESULTS[m.result]) +
    varintFieldSize(2, target) +
    bytesSize(3, m.key) +
    (typeof operand === 'number' ? varintFieldSize(field, operand, true) : lenFieldSize(field, operand.length)) +
    bytesSize(64, m.range_end)
  );
}
function writeCompare(buf: Buffer, pos: number, m: Compare): number {
  const target = TARGETS[m.target];
  const operand = compareOperand(m);
  const field = TARGET_FIELD[target];
  pos = writeVarintField(buf, pos, 1, RESULTS[m.result]);
  pos = writeVarintField(buf, pos, 2, target);
  pos = writeBytesField(buf, pos, 3, m.key);
  pos = typeof operand === 'number' ? writeVarintField(buf, pos, field, operand, true) : writeBytesField(buf, pos, field, operand, true);
  return writeBytesField(buf, pos, 64, m.range_end);
}

/** The operation's field number and content size. */
function opParts(op: RequestOp): [number, number] {
  if (op.request_range) return [1, rangeSize(op.request_range)];
  if (op.request_put) return [2, putSize(op.request_put)];
  if (op.request_delete_range) return [3, deleteSize(op.request_delete_range)];
  throw new RangeError('a transaction operation must be a range, a put or a delete');
}
function opSize(op: RequestOp): number {
  const [, size] = opParts(op);
  return lenFieldSize(1, size);
}
function writeOp(buf: Buffer, pos: number, op: RequestOp): number {
  const [field, size] = opParts(op);
  pos = writeLenHeader(buf, pos, field, size);
  if (op.request_range) return writeRange(buf, pos, op.request_range);
  if (op.request_put) return writePut(buf, pos, op.request_put);
  return writeDelete(buf, pos, op.request_delete_range!);
}

function txnSize(m: TxnRequest): number {
  let size = 0;
  for (const c of m.compare ?? []) size += lenFieldSize(1, compareSize(c));
  for (const op of m.success ?? []) size += lenFieldSize(2, opSize(op));
  for (const op of m.failure ?? []) size += lenFieldSize(3, opSize(op));
  return size;
}
/** A gRPC frame (5-byte prefix, then the message) of size bytes written by write. */
function frame(size: number, write: (buf: Buffer, pos: number) => number): Buffer {
  const buf = Buffer.allocUnsafe(5 + size);
  buf[0] = 0;
  buf.writeUInt32BE(size, 1);
  const end = write(buf, 5);
  if (end !== buf.length) throw new Error(`protobuf encoding wrote ${end - 5} bytes of ${size}`);
  return buf;
}

export const rangeFrame = (m: RangeRequest): Buffer => frame(rangeSize(m), (buf, pos) => writeRange(buf, pos, m));
export const putFrame = (m: PutRequest): Buffer => frame(putSize(m), (buf, pos) => writePut(buf, pos, m));
export const txnFrame = (m: TxnRequest): Buffer =>
  frame(txnSize(m), (buf, pos) => {
    for (const c of m.compare ?? []) pos = writeCompare(buf, writeLenHeader(buf, pos, 1, compareSize(c)), c);
    for (const [field, ops] of [
      [2, m.success ?? []],
      [3, m.failure ?? []],
    ] as const) {
      for (const op of ops) pos = writeOp(buf, writeLenHeader(buf, pos, field, opSize(op)), op);
    }
    return pos;
  });

// --------------------------------------------------------------- responses

export interface ResponseHeader {
  revision: number;
  raft_term: number;
}

export interface KeyValue {
  key: Buffer;
  create_revision: number;
  mod_revision: number;
  version: number;
  value: Buffer;
}

export interface RangeResponse {
  header: ResponseHeader;
  kvs: KeyValue[];
  more: boolean;
  count: number;
}

export interface PutResponse {
  header: ResponseHeader;
  prev_kv?: KeyValue;
}

export interface DeleteRangeResponse {
  header: ResponseHeader;
  deleted: number;
  prev_kvs: KeyValue[];
}

export interface ResponseOp {
  response_range?: RangeResponse;
  response_put?: PutResponse;
  response_delete_range?: DeleteRangeResponse;
}

export interface TxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: ResponseOp[];
}

const EMPTY = Buffer.alloc(0);

/** A field's key as read: field number * 8 + wire type. */
const V = (f: number) => f * 8;
const L = (f: number) => f * 8 + LEN;

function readHeader(r: Reader, end: number): ResponseHeader {
  const h: ResponseHeader = { revision: 0, raft_term: 0 };
  while (r.pos < end) {
    const t = r.varint();
    if (t === V(3)) h.revision = r.varint();
    else if (t === V(4)) h.raft_term = r.varint();
    else r.skip(t & 7);
  }
  return h;
}

function readKeyValue(r: Reader, end: number): KeyValue {
  const kv: KeyValue = { key: EMPTY, create_revision: 0, mod_revision: 0, version: 0, value: EMPTY };
  while (r.pos < end) {
    const t = r.varint();
    if (t === L(1)) kv.key = r.bytes();
    else if (t === V(2)) kv.create_revision = r.varint();
    else if (t === V(3)) kv.mod_revision = r.varint();
    else if (t === V(4)) kv.version = r.varint();
    else if (t === L(5)) kv.value = r.bytes();
    else r.skip(t & 7);
  }
  return kv;
}

/** A nested message's content (its key was read). */
function nested<T>(r: Reader, read: (r: Reader, end: number) => T): T {
  const end = r.lenEnd();
  const out = read(r, end);
  if (r.pos !== end) throw new DecodeError('a nested message overran its length');
  return out;
}

const NO_HEADER = (): ResponseHeader => ({ revision: 0, raft_term: 0 });

function readRange(r: Reader, end: number): RangeResponse {
  const m: RangeResponse = { header: NO_HEADER(), kvs: [], more: false, count: 0 };
  while (r.pos < end) {
    const t = r.varint();
    if (t === L(1)) m.header = nested(r, readHeader);
    else if (t === L(2)) m.kvs.push(nested(r, readKeyValue));
    else if (t === V(3)) m.more = r.bool();
    else if (t === V(4)) m.count = r.varint();
    else r.skip(t & 7);
  }
  return m;
}

function readPut(r: Reader, end: number): PutResponse {
  const m: PutResponse = { header: NO_HEADER() };
  while (r.pos < end) {
    const t = r.varint();
    if (t === L(1)) m.header = nested(r, readHeader);
    else if (t === L(2)) m.prev_kv = nested(r, readKeyValue);
    else r.skip(t & 7);
  }
  return m;
}

function readDelete(r: Reader, end: number): DeleteRangeResponse {
  const m: DeleteRangeResponse = { header: NO_HEADER(), deleted: 0, prev_kvs: [] };
  while (r.pos < end) {
    const t = r.varint();
    if (t === L(1)) m.header = nested(r, readHeader);
    else if (t === V(2)) m.deleted = r.varint();
    else if (t === L(3)) m.prev_kvs.push(nested(r, readKeyValue));
    else r.skip(t & 7);
  }
  return m;
}

function readOp(r: Reader, end: number): ResponseOp {
  const m: ResponseOp = {};
  while (r.pos < end) {
    const t = r.varint();
    if (t === L(1)) m.response_range = nested(r, readRange);
    else if (t === L(2)) m.response_put = nested(r, readPut);
    else if (t === L(3)) m.response_delete_range = nested(r, readDelete);
    else r.skip(t & 7);
  }
  return m;
}

function readTxn(r: Reader, end: number): TxnResponse {
  const m: TxnResponse = { header: NO_HEADER(), succeeded: false, responses: [] };
  while (r.pos < end) {
    const t = r.varint();
    if (t === L(1)) m.header = nested(r, readHeader);
    else if (t === V(2)) m.succeeded = r.bool();
    else if (t === L(3)) m.responses.push(nested(r, readOp));
    else r.skip(t & 7);
  }
  return m;
}

/** A decoder of a whole message; a message that ends inside a field is refused (DecodeError). */
const decoder =
  <T>(read: (r: Reader, end: number) => T) =>
  (msg: Buffer): T => {
    const r = new Reader(msg);
    const out = read(r, msg.length);
    if (r.pos !== msg.length) throw new DecodeError('truncated message');
    return out;
  };

export const decodeRangeResponse = decoder(readRange);
export const decodePutResponse = decoder(readPut);
export const decodeTxnResponse = decoder(readTxn);
