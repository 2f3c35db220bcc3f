// Conditional GETs of the OpenAPI documents, as Go's http.ServeContent
// answers them (kube-openapi serves /openapi/v2 through it): If-None-Match
// compared weakly with the document's ETag (`*` matches anything), then,
// only without If-None-Match, If-Modified-Since against the build time at
// one-second precision. A match is 304 without a body.

/** The entity tags of an If-None-Match header (`W/` prefixes dropped: the comparison is weak); `*` stays `*`. */
export function entityTags(header: string): string[] {
  const out: string[] = [];
  for (const m of header.matchAll(/\s*(\*|(?:W\/)?"[^"]*")\s*(?:,|$)/g)) out.push(m[1].replace(/^W\//, ''));
  return out;
}

export interface Validators {
  /** Quoted, as sent in the ETag header. */
  etag: string;
  lastModified: Date;
}

/** Whether a GET or HEAD with these request headers is answered 304. */
export function notModified(ifNoneMatch: string | undefined, ifModifiedSince: string | undefined, v: Validators): boolean {
  if (ifNoneMatch !== undefined) {
    const tags = entityTags(ifNoneMatch);
    return tags.includes('*') || tags.includes(v.etag.replace(/^W\//, ''));
  }
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  if (Number.isNaN(since)) return false;
  return Math.floor(v.lastModified.getTime() / 1000) * 1000 <= since;
}
