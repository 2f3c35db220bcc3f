// Query parameters for the fuzz harness: every parameter kube-apiserver
// reads on resource requests, with values that are valid, out of range,
// of the wrong type, or plain garbage; written encoded or raw.

import type { Rng } from './rng.ts';

const INTS = [
  '0',
  '1',
  '-1',
  '-0',
  '+5',
  '1e3',
  '0x10',
  '1.5',
  ' 1',
  '1 ',
  '007',
  '2147483648',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '99999999999999999999',
  '18446744073709551616',
  'NaN',
  'Infinity',
  '',
  'abc',
  '١٢٣',
  '1_000',
];
const BOOLS = ['true', 'false', 'True', 'FALSE', 't', 'f', '1', '0', 'yes', '', 'tru', '2', '-1'];
const GARBAGE = ['', ' ', '%', '%zz', '%00', '\u0000', 'ñ', '😀', '\ud800', '[]', '{}', 'null', '=', ',', '&', '#', '..', '../..', 'a'.repeat(10_000), '\\', '"', "'", '<script>'];

const LABEL_SELECTORS = [
  'a=b',
  'a==b',
  'a!=b',
  'a in (b,c)',
  'a notin (b)',
  'a',
  '!a',
  'a,b',
  '',
  ' ',
  '=',
  '==b',
  'a=',
  'a in (b',
  'a in ()',
  'a in b',
  '!!a',
  'a=b=c',
  'a/b/c=d',
  'example.com/a=b',
  `${'x'.repeat(64)}=v`,
  `k=${'v'.repeat(64)}`,
  'a=ñ',
  'a>1',
  'a<1',
  'a>b',
  'a gt 1',
  ',,,',
  'a,,b',
  'a in (b,,c)',
  new Array(10_000).fill('a').join(','),
  `a in (${new Array(5000).fill('v').join(',')})`,
  '(a)',
  'a=b)',
  'a notin',
  'fuzz-owned=yes',
];
const FIELD_SELECTORS = [
  'metadata.name=x',
  'metadata.namespace=fuzz',
  'metadata.name!=x',
  'metadata.name==x',
  'metadata.name',
  'metadata.name=',
  '=x',
  'spec.nodeName=n',
  'status.phase=Running',
  'type=Opaque',
  'metadata.uid=1',
  'no.such.field=1',
  'metadata.name=a,metadata.name=b',
  'metadata.name=a\\,b',
  'metadata.name=a\\',
  'metadata.name in (a)',
  'metadata.name=ñ',
  '',
  ',',
  'a.b.c.d.e=f',
  `metadata.name=${'x'.repeat(10_000)}`,
  'metadata.name=a=b',
  'metadata.labels[a]=b',
];
const CONTINUES = [
  'abc',
  '',
  'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJhIn0',
  'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiLi4vLi4ifQ',
  'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OTIyMzM3MjAzNjg1NDc3NTgwOCwic3RhcnQiOiJ4In0',
  'eyJ2IjoieCJ9',
  'e30',
  'bnVsbA',
  '!!!',
  '%%%',
  'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOnt9fQ',
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start: '\u0000' })).toString('base64'),
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: '1', start: 'fuzz/' })).toString('base64url'),
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1e300, start: 'x'.repeat(5000) })).toString('base64'),
];
const DURATIONS = ['1s', '0s', '-1s', '1ns', '1h', '99999999999h', '1.5s', 'abc', '10', '', '1d', '5m30s', '9223372036854775807ns', '0.000001s'];

type Gen = (rng: Rng) => string;

const intParam: Gen = (r) => r.pick(INTS);
const boolParam: Gen = (r) => r.pick(BOOLS);

/** Each parameter with its value generator; a garbage value is mixed in now and then. */
export const PARAMS: Record<string, Gen> = {
  limit: intParam,
  continue: (r) => r.pick(CONTINUES),
  resourceVersion: (r) => r.pick(['0', '', '1', '-1', 'abc', '9223372036854775808', '99999999999999999999', '1.5', '0x1', ' 1', '18446744073709551615']),
  resourceVersionMatch: (r) => r.pick(['NotOlderThan', 'Exact', 'exact', '', 'Garbage', 'MostRecent']),
  timeoutSeconds: intParam,
  labelSelector: (r) => r.pick(LABEL_SELECTORS),
  fieldSelector: (r) => r.pick(FIELD_SELECTORS),
  watch: boolParam,
  allowWatchBookmarks: boolParam,
  sendInitialEvents: boolParam,
  dryRun: (r) => r.pick(['All', 'all', '', 'None', 'true', 'All,All']),
  fieldManager: (r) => r.pick(['fuzz', '', 'x'.repeat(129), 'x'.repeat(128), 'ñ', 'a\u0001b', 'kubectl', ' ', '😀']),
  fieldValidation: (r) => r.pick(['Strict', 'Warn', 'Ignore', 'strict', '', 'None', 'Garbage']),
  force: boolParam,
  gracePeriodSeconds: intParam,
  propagationPolicy: (r) => r.pick(['Orphan', 'Background', 'Foreground', 'orphan', '', 'None']),
  orphanDependents: boolParam,
  pretty: boolParam,
  includeObject: (r) => r.pick(['None', 'Object', 'Metadata', 'none', '', 'All']),
  timeout: (r) => r.pick(DURATIONS),
  allowWatchBookmarks2: boolParam,
  resourceVersion2: (r) => r.pick(['1', '2']),
  exact: boolParam,
  export: boolParam,
  unknownParam: (r) => r.pick(GARBAGE),
};

/** Renames of the synthetic keys above (a second value of the same parameter). */
const KEY_ALIAS: Record<string, string> = { allowWatchBookmarks2: 'allowWatchBookmarks', resourceVersion2: 'resourceVersion' };

/** Percent-encoding of the UTF-8 bytes (lone surrogates become U+FFFD, as any encoder would send them). */
function pct(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

function encodeValue(rng: Rng, v: string): string {
  if (rng.chance(0.8)) {
    const enc = v.replace(/[^A-Za-z0-9\-_.!~*'()]/gu, (c) => pct(c));
    return enc.replace(/%20/g, rng.chance(0.5) ? '+' : '%20');
  }
  // raw: keep what a careless client would send, minus what the HTTP request line cannot carry
  return v.replace(/[\u0000-\u0020\u007f]/g, (c) => pct(c)).replace(/[^\u0000-\u00ff]/gu, (c) => pct(c));
}

/**
 * A query string (without `?`) of `count` parameters picked from `names`
 * (all parameters when undefined), mostly generated values, sometimes garbage.
 */
export function queryString(rng: Rng, count: number, names?: string[]): string {
  const keys = names ?? Object.keys(PARAMS);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = rng.pick(keys);
    const gen = PARAMS[key] ?? ((r: Rng) => r.pick(GARBAGE));
    const value = rng.chance(0.15) ? rng.pick(GARBAGE) : gen(rng);
    const name = KEY_ALIAS[key] ?? key;
    if (rng.chance(0.05))
      parts.push(encodeValue(rng, name)); // a key without a value
    else parts.push(`${encodeValue(rng, name)}=${encodeValue(rng, value)}`);
  }
  if (rng.chance(0.05)) parts.push(rng.pick(['&', '=', '==', 'a=b=c', '%', '&&', ';']));
  return parts.join('&');
}

export const READ_PARAMS = [
  'limit',
  'continue',
  'resourceVersion',
  'resourceVersionMatch',
  'timeoutSeconds',
  'labelSelector',
  'fieldSelector',
  'watch',
  'allowWatchBookmarks',
  'sendInitialEvents',
  'pretty',
  'includeObject',
  'timeout',
  'resourceVersion2',
  'exact',
  'export',
  'unknownParam',
];
export const WRITE_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation', 'pretty', 'timeout', 'unknownParam'];
export const PATCH_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation', 'force', 'pretty', 'timeout'];
export const DELETE_PARAMS = [
  'dryRun',
  'gracePeriodSeconds',
  'propagationPolicy',
  'orphanDependents',
  'pretty',
  'timeout',
  'labelSelector',
  'fieldSelector',
  'limit',
  'continue',
  'resourceVersion',
  'resourceVersionMatch',
];
