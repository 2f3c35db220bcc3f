// Protobuf in the HTTP layer: which kinds have a protobuf form (answered
// from the generated kinds index, available at once) and the codec itself
// (runtime/codec/protobuf), loaded with the first protobuf request; the
// message packages of each kind load with the first request that needs them.

import type { GeneratedProtoIndex, KubeProtobuf, LazyKubeProtobuf } from '../codec/protobuf/index.ts';

export interface ProtobufSupport {
  supports(apiVersion: string, kind: string): boolean;
  /** The codec, with the messages of this kind (and meta/v1's: Status, WatchEvent) loaded. */
  codec(apiVersion: string, kind: string): Promise<KubeProtobuf>;
  /** The codec at once when codec() has already loaded this kind's messages; undefined until then. */
  codecNow?(apiVersion: string, kind: string): KubeProtobuf | undefined;
  /** Decodes a request body, loading the messages of the kind its envelope names. */
  decode(bytes: Uint8Array): Promise<Record<string, unknown>>;
}

/** Kinds the API serves only as JSON even though upstream has messages for them. */
const JSON_ONLY = new Set(['PartialObjectMetadata', 'PartialObjectMetadataList', 'Table']);

/** `loadIndex` gives the generated protobuf index, undefined for an API generated without protobuf (everything is JSON). */
export async function protobufSupport(loadIndex: () => Promise<GeneratedProtoIndex | undefined>): Promise<ProtobufSupport> {
  const index = await loadIndex();
  const kinds: Record<string, string> = index?.kinds ?? {};
  let loading: Promise<LazyKubeProtobuf> | undefined;
  // the codec and @bufbuild/protobuf load with the first protobuf request, the messages per kind as requests need them
  const lazy = () => {
    if (!index) return Promise.reject(new Error('the API was generated without protobuf'));
    loading ??= import('../codec/protobuf/index.ts').then((m) => new m.LazyKubeProtobuf(index));
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
  // the kinds whose messages are loaded, with the codec: later requests for them need not wait
  const loaded = new Map<string, KubeProtobuf>();
  return {
    supports: (apiVersion, kind) => !JSON_ONLY.has(kind) && kinds[`${apiVersion}/${kind}`] !== undefined,
    codec: async (apiVersion, kind) => {
      const codec = await (await lazy()).forKind(apiVersion, kind);
      loaded.set(`${apiVersion}/${kind}`, codec);
      return codec;
    },
    codecNow: (apiVersion, kind) => loaded.get(`${apiVersion}/${kind}`),
    decode: async (bytes) => (await lazy()).decode(bytes),
  };
}
