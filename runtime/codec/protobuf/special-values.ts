// Conversions of the Kubernetes special values between their JSON form and
// their protobuf fields: RFC 3339 times (Time: whole seconds; MicroTime:
// microseconds), Go duration strings (`1h2m3.5s`) and nanoseconds, base64.
// Pure functions; bad input throws ProtobufError.
import { ProtobufError } from './errors.ts';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** RFC 3339 string -> Unix seconds and nanoseconds. */
export function parseTime(s: string): { seconds: number; nanos: number } {
  const m = RFC3339.exec(s);
  if (!m) throw new ProtobufError(`invalid time ${JSON.stringify(s)}: not RFC 3339`);
  let seconds = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) / 1000;
  if (+m[1] < 100) {
    // Date.UTC maps years 0-99 to 1900-1999.
    const d = new Date(0);
    d.setUTCFullYear(+m[1], +m[2] - 1, +m[3]);
    d.setUTCHours(+m[4], +m[5], +m[6], 0);
    seconds = d.getTime() / 1000;
  }
  if (m[8] !== 'Z' && m[8] !== 'z') {
    const sign = m[8][0] === '-' ? -1 : 1;
    seconds -= sign * (+m[8].slice(1, 3) * 3600 + +m[8].slice(4, 6) * 60);
  }
  const frac = m[7] ? m[7].slice(1, 10).padEnd(9, '0') : '0';
  return { seconds, nanos: Number(frac) };
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

/** Unix seconds (+ nanos) -> RFC 3339 in UTC; `micro` adds six fractional digits (MicroTime). */
export function formatTime(seconds: number, nanos: number, micro: boolean): string {
  const d = new Date(seconds * 1000);
  const y = d.getUTCFullYear();
  const base = `${y < 0 ? '-' + pad(-y, 4) : pad(y, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  if (!micro) return base + 'Z';
  return `${base}.${pad(Math.floor(nanos / 1000), 6)}Z`;
}

const UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** Go duration string (`1h2m3.5s`, `-1.5h`, `300ms`, `0`) -> nanoseconds. */
export function parseDuration(s: string): number {
  const m = /^([+-]?)(.*)$/.exec(s)!;
  const sign = m[1] === '-' ? -1 : 1;
  let rest = m[2];
  if (rest === '0') return 0;
  if (rest === '') throw new ProtobufError(`invalid duration ${JSON.stringify(s)}`);
  let total = 0;
  const part = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;
  while (rest !== '') {
    const p = part.exec(rest);
    if (!p) throw new ProtobufError(`invalid duration ${JSON.stringify(s)}`);
    total += Number(p[1]) * UNITS[p[2]];
    rest = rest.slice(p[0].length);
  }
  return sign * Math.round(total);
}

function trimFrac(whole: number, frac: number, digits: number): string {
  if (frac === 0) return String(whole);
  return `${whole}.${pad(frac, digits).replace(/0+$/, '')}`;
}

/** Nanoseconds -> Go's Duration.String() form (`1h0m0s`, `1.5s`, `300ms`, `0s`). */
export function formatDuration(ns: number): string {
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let u = Math.abs(ns);
  let out: string;
  if (u < 1e9) {
    if (u < 1e3) out = `${u}ns`;
    else if (u < 1e6) out = `${trimFrac(Math.floor(u / 1e3), u % 1e3, 3)}µs`;
    else out = `${trimFrac(Math.floor(u / 1e6), u % 1e6, 6)}ms`;
  } else {
    const h = Math.floor(u / 3600e9);
    u -= h * 3600e9;
    const min = Math.floor(u / 60e9);
    u -= min * 60e9;
    const sec = `${trimFrac(Math.floor(u / 1e9), u % 1e9, 9)}s`;
    out = h > 0 ? `${h}h${min}m${sec}` : min > 0 ? `${min}m${sec}` : sec;
  }
  return neg ? '-' + out : out;
}

export function base64ToBytes(s: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 === 1) throw new ProtobufError('invalid base64 data');
  return new Uint8Array(Buffer.from(s, 'base64'));
}

export function bytesToBase64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
}
