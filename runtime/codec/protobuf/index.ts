// The Kubernetes protobuf codec (application/vnd.kubernetes.protobuf) for the
// HTTP layer: objects, lists and Status to enveloped bytes and back, watch
// event frames. Messages come from generated/proto (protoc-gen-es descriptors
// plus conversion metadata); encoding writes straight from the JSON
// (encode.ts, writer.ts), decoding reads straight into JSON (reader.ts).
// Custom resources, Table and PartialObjectMetadata have no protobuf form.
// Content negotiation and HTTP status codes are the HTTP layer's.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { DescMessage } from '@bufbuild/protobuf';
import type { ProtoMessageMeta, ProtoPackage } from '../../../generated/proto/index.ts';
import { ProtobufError, ProtobufUnsupportedError } from './errors.ts';
import { Plans } from './plan.ts';
import { Encoder } from './encode.ts';
import { Reader } from './reader.ts';
import { Decoder } from './decode.ts';
import { envelopeAround, unwrap, varintLength, wrap, writeVarint } from './envelope.ts';
import { frame, readWatchEvent, watchEventBytes } from './watch.ts';

export { ProtobufError, ProtobufUnsupportedError } from './errors.ts';
export { splitFrames } from './watch.ts';

export interface KubeProtobuf {
  /** Whether a kind has a protobuf message (built-ins yes; CRDs, Table, PartialObjectMetadata no). */
  supports(apiVersion: string, kind: string): boolean;
  /** Object, list or Status -> `k8s\0` + runtime.Unknown{typeMeta, raw, "", ""}. */
  encode(obj: object): Uint8Array;
  /** Enveloped bytes -> JSON object as the JSON API shows it (apiVersion and kind from typeMeta). */
  decode(bytes: Uint8Array): Record<string, unknown>;
  /**
   * The message type of a list's items and one item's message bytes (no
   * envelope, no apiVersion/kind: the same for every version of the endpoint
   * that shares the message), for encodeListOf and encodeObjectOf.
   */
  listItemType(apiVersion: string, listKind: string): string;
  encodeListItem(apiVersion: string, listKind: string, item: object): Uint8Array;
  /**
   * encodeListItem's bytes as a view of the codec's own buffer, not a copy:
   * valid only until the codec's next call (copy them at once, or take their size).
   */
  encodeListItemView(apiVersion: string, listKind: string, item: object): Uint8Array;
  /** A list from its metadata and its items' bytes (encodeListItem): the bytes encode() gives for the whole list. */
  encodeListOf(apiVersion: string, listKind: string, metadata: object, items: Uint8Array[]): Uint8Array;
  /**
   * The same list in parts, for a writer that streams it: `head` (envelope
   * and the list's own fields), then for each item (in the order of
   * `itemSizes`) its prefix (writePrefix) and its bytes, then `tail`.
   */
  listParts(apiVersion: string, listKind: string, metadata: object, itemSizes: ArrayLike<number>): ListParts;
  /** An object from its message bytes (encodeListItem of its list): the bytes encode() gives for it. */
  encodeObjectOf(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array;
  /** One watch event as a frame: 4-byte big-endian length + WatchEvent{type, object.raw = enveloped object}. */
  encodeWatchEvent(type: string, obj: object): Uint8Array;
  /** One frame payload (without the length) -> event type and decoded object. */
  decodeWatchEvent(payload: Uint8Array): { type: string; object: Record<string, unknown> };
}

/** A protobuf list in parts (KubeProtobuf.listParts). */
export interface ListParts {
  head: Uint8Array;
  tail: Uint8Array;
  /** The size of the field tag and length before an item of `size` bytes. */
  prefixBytes(size: number): number;
  /** Writes that tag and length into out at `at`; returns the position after them. */
  writePrefix(out: Uint8Array, at: number, size: number): number;
}

/** The parts around the items of a list whose items are field `field` (1 to 15: a one-byte tag). */
class ItemFieldParts implements ListParts {
  private readonly tag: number;

  constructor(
    readonly head: Uint8Array,
    readonly tail: Uint8Array,
    field: number,
  ) {
    this.tag = (field << 3) | 2;
  }

  prefixBytes(size: number): number {
    return 1 + varintLength(size);
  }

  writePrefix(out: Uint8Array, at: number, size: number): number {
    out[at] = this.tag;
    return writeVarint(out, at + 1, size);
  }
}

/** Kinds that have upstream messages but that the API serves only as JSON. */
const JSON_ONLY = new Set(['PartialObjectMetadata', 'PartialObjectMetadataList', 'Table']);

/** What generated/proto/index.ts exports. */
export interface GeneratedProtoIndex {
  kinds: Record<string, string>;
  packageDeps: Record<string, string[]>;
  packages: Record<string, () => Promise<ProtoPackage>>;
}

export class Codec implements KubeProtobuf {
  private descs = new Map<string, DescMessage>();
  private meta = new Map<string, ProtoMessageMeta>();
  private plans = new Plans((t) => this.meta.get(t));
  private encoder = new Encoder(this.plans);
  private decoder = new Reader(this.plans, (b) => this.decode(b));
  private reflectDecoder = new Decoder(this.plans, (b) => this.decodeReflect(b));

  constructor(
    private index: GeneratedProtoIndex,
    loaded: ProtoPackage[],
  ) {
    this.add(loaded);
  }

  /** Adds message packages (before any message that uses them is encoded or decoded). */
  add(loaded: ProtoPackage[]): void {
    for (const p of loaded) {
      for (const [name, m] of Object.entries(p.meta.messages)) this.meta.set(name, m);
      for (const d of p.file.messages) this.descs.set(d.typeName, d);
    }
  }

  private message(apiVersion: string, kind: string): DescMessage | undefined {
    if (JSON_ONLY.has(kind)) return undefined;
    const name = this.index.kinds[`${apiVersion}/${kind}`];
    return name ? this.descs.get(name) : undefined;
  }

  supports(apiVersion: string, kind: string): boolean {
    return this.message(apiVersion, kind) !== undefined;
  }

  encode(obj: object): Uint8Array {
    const { apiVersion, kind } = (obj ?? {}) as { apiVersion?: unknown; kind?: unknown };
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') throw new ProtobufError('object has no apiVersion or kind');
    const desc = this.message(apiVersion, kind);
    if (!desc) throw new ProtobufUnsupportedError(`${apiVersion}, Kind=${kind} has no protobuf encoding`);
    return wrap(apiVersion, kind, this.encoder.encode(desc, obj));
  }

  decode(bytes: Uint8Array): Record<string, unknown> {
    const env = unwrap(bytes);
    if (env.kind === '') throw new ProtobufError('invalid protobuf envelope: the object has no kind');
    const desc = this.message(env.apiVersion, env.kind);
    if (!desc) throw new ProtobufError(`no protobuf message for ${env.apiVersion}, Kind=${env.kind}`);
    const body = this.decoder.decode(desc, env.raw) as Record<string, unknown>;
    return { apiVersion: env.apiVersion, kind: env.kind, ...body };
  }

  /** decode() through protobuf-es fromBinary and reflection: the oracle the tests hold the fast reader to. */
  decodeReflect(bytes: Uint8Array): Record<string, unknown> {
    const env = unwrap(bytes);
    const desc = this.message(env.apiVersion, env.kind);
    if (!desc) throw new ProtobufError(`no protobuf message for ${env.apiVersion}, Kind=${env.kind}`);
    return { apiVersion: env.apiVersion, kind: env.kind, ...(this.reflectDecoder.decode(desc, env.raw) as Record<string, unknown>) };
  }

  /** The list message and its repeated `items` field. */
  private listItems(apiVersion: string, listKind: string): { list: DescMessage; field: number; item: DescMessage } {
    const list = this.message(apiVersion, listKind);
    if (!list) throw new ProtobufUnsupportedError(`${apiVersion}, Kind=${listKind} has no protobuf encoding`);
    const f = list.fields.find((x) => x.localName === 'items' || x.name === 'items');
    if (!f || f.fieldKind !== 'list' || f.listKind !== 'message') throw new ProtobufError(`${apiVersion}, Kind=${listKind} has no items`);
    return { list, field: f.number, item: f.message };
  }

  listItemType(apiVersion: string, listKind: string): string {
    return this.listItems(apiVersion, listKind).item.typeName;
  }

  encodeListItem(apiVersion: string, listKind: string, item: object): Uint8Array {
    return this.encoder.encode(this.listItems(apiVersion, listKind).item, item);
  }

  encodeListItemView(apiVersion: string, listKind: string, item: object): Uint8Array {
    return this.encoder.encodeView(this.listItems(apiVersion, listKind).item, item);
  }

  encodeListOf(apiVersion: string, listKind: string, metadata: object, items: Uint8Array[]): Uint8Array {
    const sizes = new Array<number>(items.length);
    for (let i = 0; i < items.length; i++) sizes[i] = items[i].length;
    const parts = this.listParts(apiVersion, listKind, metadata, sizes);
    let size = parts.head.length + parts.tail.length;
    for (const b of items) size += parts.prefixBytes(b.length) + b.length;
    const out = new Uint8Array(size);
    out.set(parts.head, 0);
    let at = parts.head.length;
    for (const b of items) {
      at = parts.writePrefix(out, at, b.length);
      out.set(b, at);
      at += b.length;
    }
    out.set(parts.tail, at);
    return out;
  }

  listParts(apiVersion: string, listKind: string, metadata: object, itemSizes: ArrayLike<number>): ListParts {
    const { list, field } = this.listItems(apiVersion, listKind);
    // fields go out in number order: the list's own fields (metadata), then each item as field `field`
    if (field < 1 || field > 15 || list.fields.some((f) => f.number > field)) throw new ProtobufError(`${apiVersion}, Kind=${listKind}: items is not the last field`);
    const own = this.encoder.encode(list, { metadata });
    let rawSize = own.length;
    for (let i = 0; i < itemSizes.length; i++) rawSize += 1 + varintLength(itemSizes[i]) + itemSizes[i];
    const env = envelopeAround(apiVersion, listKind, rawSize);
    const head = new Uint8Array(env.head.length + own.length);
    head.set(env.head, 0);
    head.set(own, env.head.length);
    return new ItemFieldParts(head, env.tail, field);
  }

  encodeObjectOf(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
    if (!this.message(apiVersion, kind)) throw new ProtobufUnsupportedError(`${apiVersion}, Kind=${kind} has no protobuf encoding`);
    return wrap(apiVersion, kind, raw);
  }

  encodeWatchEvent(type: string, obj: object): Uint8Array {
    return frame(watchEventBytes(type, this.encode(obj)));
  }

  decodeWatchEvent(payload: Uint8Array): { type: string; object: Record<string, unknown> } {
    const e = readWatchEvent(payload);
    return { type: e.type, object: this.decode(e.object) };
  }
}

const byDir = new Map<string, Promise<KubeProtobuf>>();
const byIndex = new WeakMap<GeneratedProtoIndex, Promise<KubeProtobuf>>();

/** The codec of an index: every message package loaded (in parallel: encode/decode are synchronous). */
function codecOf(index: GeneratedProtoIndex): Promise<KubeProtobuf> {
  let p = byIndex.get(index);
  if (!p) {
    p = Promise.all(Object.values(index.packages).map((load) => load())).then((loaded) => new Codec(index, loaded));
    byIndex.set(index, p);
    p.catch(() => byIndex.delete(index));
  }
  return p;
}

const META_PACKAGE = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/**
 * The codec of a generated protobuf index with its message packages loaded
 * as kinds need them: a kind's package and the packages it uses, and always
 * meta/v1's (Status, WatchEvent, DeleteOptions). What a server holds is the
 * messages of the group-versions its clients asked for in protobuf.
 */
export class LazyKubeProtobuf {
  private readonly codec: Codec;
  private readonly loads = new Map<string, Promise<void>>();

  constructor(private readonly index: GeneratedProtoIndex) {
    this.codec = new Codec(index, []);
  }

  private load(pkg: string): Promise<void> {
    let p = this.loads.get(pkg);
    if (!p) {
      const loader = this.index.packages[pkg];
      p = loader ? loader().then((loaded) => this.codec.add([loaded])) : Promise.resolve();
      this.loads.set(pkg, p);
      p.catch(() => this.loads.delete(pkg));
    }
    return p;
  }

  private packagesOf(pkg: string): string[] {
    return this.index.packageDeps[pkg] ?? [pkg];
  }

  /** The codec, with the messages of `apiVersion`, `kind` loaded. */
  async forKind(apiVersion: string, kind: string): Promise<KubeProtobuf> {
    const packages = [...this.packagesOf(META_PACKAGE)];
    const message = this.index.kinds[`${apiVersion}/${kind}`];
    if (message) packages.push(...this.packagesOf(message.slice(0, message.lastIndexOf('.'))));
    await Promise.all(packages.map((p) => this.load(p)));
    return this.codec;
  }

  /** Enveloped bytes -> JSON, loading the messages of the kind the envelope names first (and every package when an embedded object needs another). */
  async decode(bytes: Uint8Array): Promise<Record<string, unknown>> {
    const env = unwrap(bytes);
    await this.forKind(env.apiVersion, env.kind);
    try {
      return this.codec.decode(bytes);
    } catch (err) {
      if (!(err instanceof ProtobufError) || this.loads.size === Object.keys(this.index.packages).length) throw err;
      await Promise.all(Object.keys(this.index.packages).map((p) => this.load(p)));
      return this.codec.decode(bytes);
    }
  }
}

/**
 * The codec of a generated protobuf index: the project's generated/proto
 * (no argument), another codegen output directory's, or an index already
 * imported. Cached per directory and per index.
 */
export function loadKubeProtobuf(source?: string | GeneratedProtoIndex): Promise<KubeProtobuf> {
  if (typeof source === 'object') return codecOf(source);
  const key = source ?? '';
  let p = byDir.get(key);
  if (!p) {
    p = (async () => {
      const index = (source === undefined ? await import('../../../generated/proto/index.ts') : await import(pathToFileURL(join(source, 'proto', 'index.ts')).href)) as GeneratedProtoIndex;
      return codecOf(index);
    })();
    byDir.set(key, p);
    p.catch(() => byDir.delete(key));
  }
  return p;
}
