// Timestamps as Kubernetes writes them (RFC 3339 in UTC, whole seconds:
// `2024-05-01T12:00:00Z`, Go's metav1.Time). Writes stamp the current time
// several times each (creationTimestamp, managedFields), so the text of the
// last second formatted is kept and reused while the clock stays in it.

let lastSecond = NaN;
let lastText = '';

/** The RFC 3339 text of the second that ms (milliseconds since the epoch) falls in. */
export function formatRFC3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    lastSecond = second;
  }
  return lastText;
}
