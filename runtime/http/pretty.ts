// Whether a response is indented, as kube-apiserver decides it (its
// isPrettyPrint): a non-empty ?pretty is read with Go's strconv.ParseBool
// (a value it cannot read means no); without one, clients whose User-Agent
// starts with curl, Wget or Mozilla/5.0 get indented output.

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

export function prettyPrint(query: URLSearchParams, userAgent: string | undefined): boolean {
  const p = query.get('pretty');
  if (p) return TRUE.has(p);
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}
