// Types of scripts/code-cache-runtime.mjs (dist/code-cache.js) for the tests that import it.

/** The cached data in a cache file's bytes when they are for a body of hash bodyHash and intact; undefined otherwise. */
export function readCacheFile(bytes: Buffer | undefined, bodyHash: Buffer): Buffer | undefined;
/** A cache file's bytes: the header and V8's data. */
export function cacheFileBytes(data: Buffer, bodyHash: Buffer): Buffer;
/** Evaluates the wrapped body of the chunk at chunkURL; returns its exports. */
export function loadChunkBody(chunkURL: string, deps: Record<string, unknown>, dynamicImport: (spec: string) => Promise<unknown>): Record<string, unknown>;
/** Writes the cache file of every chunk body loaded in this process; their names. */
export function writeCodeCaches(): string[];
/** Which chunk bodies were loaded, and whether each could use its cache. */
export function codeCacheReport(): { cacheFile: string; used: boolean }[];
