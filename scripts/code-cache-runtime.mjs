// Run time half of the build's code cache (copied to dist/code-cache.js by
// scripts/build.mjs): loads the body of a chunk that the build wrapped (see
// scripts/code-cache.mjs) as a vm.Script, with V8's cached data for it when
// dist/ holds a cache file that matches: its header names the body's hash
// and the data's own hash, so a cache made for another build or damaged on
// disk is left unused, and V8 itself refuses data made by another node.
// Without usable data the body is compiled from source, as any module is.

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const MAGIC = 'SSCC1\n';
const HASH_BYTES = 20;
const HEADER_BYTES = MAGIC.length + 2 * HASH_BYTES;

/** The chunks loaded in this process: their scripts, for writeCodeCaches(). */
const loaded = [];

// SHA-1: a check against damage and mix-ups, not an adversary (whoever can write dist/ runs code anyway); the fastest of node's hashes
const digest = (data) => createHash('sha1').update(data).digest();

/** The cached data in a cache file's bytes when they are for a body of hash bodyHash and intact; undefined otherwise. */
export function readCacheFile(bytes, bodyHash) {
  if (!bytes || bytes.length <= HEADER_BYTES) return undefined;
  if (bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  const forBody = bytes.subarray(MAGIC.length, MAGIC.length + HASH_BYTES);
  if (!forBody.equals(bodyHash)) return undefined;
  const data = bytes.subarray(HEADER_BYTES);
  if (!digest(data).equals(bytes.subarray(MAGIC.length + HASH_BYTES, HEADER_BYTES))) return undefined;
  return data;
}

/** A cache file's bytes: the header and V8's data. */
export function cacheFileBytes(data, bodyHash) {
  return Buffer.concat([Buffer.from(MAGIC, 'latin1'), bodyHash, digest(data), data]);
}

function tryRead(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Evaluates the wrapped body of the chunk at chunkURL (<name>.body.cjs beside
 * it) with deps (specifier -> module namespace) as what it requires; returns
 * its exports. dynamicImport is the shell's own import(), which the body's
 * import() calls are made to use.
 */
export function loadChunkBody(chunkURL, deps, dynamicImport) {
  const chunkFile = fileURLToPath(chunkURL);
  const bodyFile = chunkFile.replace(/\.js$/, '.body.cjs');
  const cacheFile = chunkFile.replace(/\.js$/, '.v8cache');
  // the build writes bodies in ASCII: latin1 makes the one-byte string V8 keeps without a UTF-8 decode
  const bytes = readFileSync(bodyFile);
  const bodyHash = digest(bytes);
  const source = bytes.toString('latin1');
  const cachedData = readCacheFile(tryRead(cacheFile), bodyHash);
  const script = new vm.Script(source, {
    filename: bodyFile,
    cachedData,
  });
  loaded.push({ script, cacheFile, bodyHash, used: cachedData !== undefined && !script.cachedDataRejected });
  const module = { exports: {} };
  const require = (spec) => {
    const ns = deps[spec];
    if (!ns) throw new Error(`${bodyFile}: no module ${spec} was handed in`);
    return ns;
  };
  script.runInThisContext()(module.exports, require, module, chunkURL, dynamicImport);
  return module.exports;
}

/** Writes the cache file of every chunk body loaded in this process (what has been compiled so far goes in); their names. */
export function writeCodeCaches() {
  const written = [];
  for (const { script, cacheFile, bodyHash } of loaded) {
    writeFileSync(cacheFile, cacheFileBytes(script.createCachedData(), bodyHash));
    written.push(cacheFile);
  }
  return written;
}

/** Which chunk bodies were loaded, and whether each could use its cache (tests). */
export function codeCacheReport() {
  return loaded.map(({ cacheFile, used }) => ({ cacheFile, used }));
}
