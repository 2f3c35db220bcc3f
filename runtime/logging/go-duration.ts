// Go's time.Duration text (`1.5ms`, `250µs`, `2m3.5s`): how klog and the
// JSON logger write a duration such as the request log's latency.

/** Go's Duration.String() of a duration in nanoseconds. */
export function goDuration(ns: number): string {
  ns = Math.round(ns);
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const n = Math.abs(ns);
  if (n < 1e3) return `${sign}${n}ns`;
  if (n < 1e6) return `${sign}${fraction(n, 1e3)}µs`;
  if (n < 1e9) return `${sign}${fraction(n, 1e6)}ms`;
  const hours = Math.floor(n / 3.6e12);
  const minutes = Math.floor((n % 3.6e12) / 6e10);
  const seconds = fraction(n % 6e10, 1e9);
  if (hours) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

/** n / unit with the digits it has, trailing zeros dropped (integer arithmetic: no float noise). */
function fraction(n: number, unit: number): string {
  const whole = Math.floor(n / unit);
  const rest = n % unit;
  if (!rest) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}
