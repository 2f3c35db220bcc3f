// Protobuf in the HTTP layer: which kinds have a protobuf form (answered
// from the generated kinds index, available at once) and the codec itself
// (runtime/codec/protobuf), loaded in the background at start-up so that
// start-up does not wait for every message package.

import type { GeneratedProtoIndex, KubeProtobuf } from '../codec/protobuf/index.ts';

export interface ProtobufSupport {
  supports(apiVersion: string, kind: string): boolean;
  codec(): Promise<KubeProtobuf>;
  /** Starts loading the codec in the background (after start-up). */
  preload(): void;
}

/** Kinds the API serves only as JSON even though upstream has messages for them. */
const JSON_ONLY = new Set(['PartialObjectMetadata', 'PartialObjectMetadataList', 'Table']);

/** `loadIndex` gives the generated protobuf index, undefined for an API generated without protobuf (everything is JSON). */
export async function protobufSupport(loadIndex: () => Promise<GeneratedProtoIndex | undefined>): Promise<ProtobufSupport> {
  const index = await loadIndex();
  const kinds: Record<string, string> = index?.kinds ?? {};
  let loading: Promise<KubeProtobuf> | undefined;
  const codec = () => {
    if (!index) return Promise.reject(new Error('the API was generated without protobuf'));
    // the codec and @bufbuild/protobuf load with the first protobuf request (or the preload), not at start-up
    loading ??= import('../codec/protobuf/index.ts').then(({ loadKubeProtobuf }) => loadKubeProtobuf(index));
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
  return {
    supports: (apiVersion, kind) => !JSON_ONLY.has(kind) && kinds[`${apiVersion}/${kind}`] !== undefined,
    codec,
    preload() {
      if (Object.keys(kinds).length) codec().catch(() => {});
    },
  };
}
