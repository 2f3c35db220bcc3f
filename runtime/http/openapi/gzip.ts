// The compression of /openapi/v2, as kube-openapi wraps that handler (and
// only that one: /openapi/v3 is never compressed) in gziphandler: every
// answer varies on Accept-Encoding; a body of at least 1400 bytes is
// gzipped when the request's Accept-Encoding gives `gzip` a q-value above 0.
// 304s, 406s and HEAD answers carry no body and are not compressed. The ETag
// stays the document's.

import { gzip } from 'node:zlib';
import { promisify } from 'node:util';

/** gziphandler's DefaultMinSize. */
export const GZIP_MIN_BYTES = 1400;

/**
 * gziphandler's reading of Accept-Encoding: comma-separated codings, case
 * folded, each with an optional `q=` (clamped to 0..1; only the last
 * parameter of a coding counts, as its loop resets the value per
 * parameter); a q-value that does not parse drops the coding.
 */
export function gzipQuality(header: string | undefined | null): number {
  let q = 0;
  for (const item of (header ?? '').split(',')) {
    const parts = item.split(';');
    const coding = parts[0].trim().toLowerCase();
    let value = 1;
    let bad = false;
    for (const raw of parts.slice(1)) {
      const p = raw.trim();
      value = 1;
      if (!p.startsWith('q=')) continue;
      const text = p.slice(2);
      value = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
      if (Number.isNaN(value)) bad = true;
      else value = Math.min(1, Math.max(0, value));
    }
    if (coding === 'gzip' && !bad) q = value;
  }
  return q;
}

export function acceptsGzipEncoding(header: string | undefined | null): boolean {
  return gzipQuality(header) > 0;
}

const gzipAsync = promisify(gzip);

/** Gzipped bytes, made once per body (off the main thread) and kept. */
export class GzipCache {
  private readonly made = new WeakMap<Uint8Array, Promise<Uint8Array>>();

  of(bytes: Uint8Array): Promise<Uint8Array> {
    let p = this.made.get(bytes);
    if (!p) {
      p = gzipAsync(bytes).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
      this.made.set(bytes, p);
    }
    return p;
  }
}
