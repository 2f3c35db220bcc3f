// Protobuf in the HTTP layer: which kinds have a protobuf form (answered
// from the generated kinds index, available at once) and the codec itself
// (runtime/codec/protobuf), loaded in the background at start-up so that
// start-up does not wait for every message package.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type KubeProtobuf, loadKubeProtobuf } from '../codec/protobuf/index.ts';

export interface ProtobufSupport {
  supports(apiVersion: string, kind: string): boolean;
  codec(): Promise<KubeProtobuf>;
  /** Starts loading the codec in the background (after start-up). */
  preload(): void;
}

/** Kinds the API serves only as JSON even though upstream has messages for them. */
const JSON_ONLY = new Set(['PartialObjectMetadata', 'PartialObjectMetadataList', 'Table']);

export async function protobufSupport(generatedDir: string): Promise<ProtobufSupport> {
  let kinds: Record<string, string> = {};
  try {
    kinds = (await import(pathToFileURL(join(generatedDir, 'proto', 'index.ts')).href)).kinds;
  } catch {
    // an API generated without protobuf: everything is JSON
  }
  let loading: Promise<KubeProtobuf> | undefined;
  const codec = () => {
    loading ??= loadKubeProtobuf(generatedDir);
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
