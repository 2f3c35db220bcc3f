// CronJob schedule syntax as kube-apiserver accepts it (the standard
// five-field cron format with month and weekday names, `*`, `?`, ranges,
// steps and lists, the @yearly ... @hourly descriptors, `@every <duration>`
// and a leading TZ=/CRON_TZ= zone), answering with the parser's error
// texts, and IANA time-zone names. Syntax only: nothing here runs jobs.

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: Object.fromEntries(MONTHS.map((m, i) => [m, i + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(DAYS.map((d, i) => [d, i])) },
];
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

class CronError extends Error {}

/** Go's strconv.Atoi, with its error text. */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new CronError(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw new CronError(`strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

function mustParseInt(expr: string): number {
  let n: number;
  try {
    n = atoi(expr);
  } catch (e) {
    throw new CronError(`failed to parse int from ${expr}: ${(e as Error).message}`);
  }
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function intOrName(expr: string, b: Bounds): number {
  const named = b.names?.[expr.toLowerCase()];
  return named !== undefined ? named : mustParseInt(expr);
}

function checkRange(expr: string, b: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowHigh = rangeAndStep[0].split('-');
  let start: number;
  let end: number;
  if (lowHigh[0] === '*' || lowHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    start = intOrName(lowHigh[0], b);
    if (lowHigh.length === 1) end = start;
    else if (lowHigh.length === 2) end = intOrName(lowHigh[1], b);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]);
    if (lowHigh.length === 1) end = b.max;
  } else if (rangeAndStep.length > 2) {
    throw new CronError(`too many slashes: ${expr}`);
  }
  if (start < b.min) throw new CronError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new CronError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

const UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 6e10, h: 3.6e12 };

/** Go's time.ParseDuration, error texts included; returns nanoseconds. */
export function parseGoDuration(s: string): number {
  const q = JSON.stringify(s);
  let rest = s;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest[0] === '-' ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw new CronError(`time: invalid duration ${q}`);
  let total = 0;
  while (rest !== '') {
    const num = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    if (num[0] === '' || num[0] === '.') throw new CronError(`time: invalid duration ${q}`);
    rest = rest.slice(num[0].length);
    const unit = /^[^\d.]*/.exec(rest)![0];
    if (unit === '') throw new CronError(`time: missing unit in duration ${q}`);
    if (!(unit in UNITS)) throw new CronError(`time: unknown unit ${JSON.stringify(unit)} in duration ${q}`);
    rest = rest.slice(unit.length);
    total += Number(num[0].startsWith('.') ? `0${num[0]}` : num[0]) * UNITS[unit];
  }
  return sign * total;
}

/** Whether the zone is an IANA name this runtime knows, spelled as given. */
export function knownTimeZone(tz: string): boolean {
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
    return resolved === tz || resolved.toLowerCase() !== tz.toLowerCase() || tz === 'UTC';
  } catch {
    return false;
  }
}

/** The parser's error text for a schedule, or undefined when it parses. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    if (spec.length === 0) throw new CronError('empty spec string');
    let rest = spec;
    if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
      const space = rest.indexOf(' ');
      const eq = rest.indexOf('=');
      const zone = space < 0 ? rest.slice(eq + 1) : rest.slice(eq + 1, space);
      if (!(zone === '' || zone === 'UTC' || zone === 'Local' || knownTimeZone(zone))) throw new CronError(`provided bad location ${zone}: unknown time zone ${zone}`);
      rest = space < 0 ? '' : rest.slice(space).trim();
    }
    if (rest.startsWith('@')) {
      if (DESCRIPTORS.has(rest)) return undefined;
      if (rest.startsWith('@every ')) {
        const d = rest.slice('@every '.length);
        try {
          parseGoDuration(d);
        } catch (e) {
          throw new CronError(`failed to parse duration ${rest}: ${(e as Error).message}`);
        }
        return undefined;
      }
      throw new CronError(`unrecognized descriptor: ${rest}`);
    }
    const fields = rest.split(/\s+/).filter((f) => f !== '');
    if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
    fields.forEach((f, i) => {
      for (const expr of f.split(',').filter((x) => x !== '')) checkRange(expr, FIELDS[i]);
    });
    return undefined;
  } catch (e) {
    if (e instanceof CronError) return e.message;
    throw e;
  }
}
