// The default field manager name of a request without `fieldManager`: the
// part of the User-Agent before the first `/`, keeping printable characters
// only (what kube-apiserver records, e.g. `kubectl` for `kubectl/v1.31.0 ...`).
// Boundary: string handling only.
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

export function managerFromUserAgent(ua: string): string {
  const head = ua.split('/')[0];
  let out = '';
  for (const ch of head) if (PRINTABLE.test(ch)) out += ch;
  return out;
}
