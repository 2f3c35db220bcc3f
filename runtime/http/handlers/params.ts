// Query parameters of resource requests: includeObject, selectors (as a
// storage predicate; field labels of the request's version mapped to the
// stored version's), integers and booleans (converted as upstream's
// query-parameter codec does), dryRun and fieldValidation (validated with
// the write's options, write-options.ts), with the 400s kube-apiserver
// answers for bad values.

import type { Predicate } from '../../storage/interface.ts';
import { makeFieldSelector, parseFieldSelector, SelectorError } from '../../storage/selectors/fields.ts';
import { fieldLabelMapper } from '../../registry/conversion/field-labels.ts';
import { parseLabelSelector } from '../../storage/selectors/labels.ts';
import type { IncludeObject } from '../../table/convert.ts';
import { errors } from '../../api/errors.ts';
import { goQuote } from '../../api/go-format.ts';
import type { RequestContext } from './context.ts';
import type { FieldValidation } from '../../registry/object-checks.ts';
import type { Negotiated } from '../negotiate.ts';

/**
 * ?includeObject of a Table (upstream's TableOptions, read only when the
 * answer is a Table: any other answer ignores it); empty is Metadata.
 */
export function includeObject(rc: RequestContext, neg: Negotiated): IncludeObject {
  const v = rc.query.get('includeObject');
  if (v === 'None' || v === 'Object' || v === 'Metadata') return v;
  if (v && neg.target.as === 'Table') {
    throw errors.badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${goQuote(v)}: must be 'Metadata', 'Object', 'None', or empty`);
  }
  return 'Metadata';
}

export function predicate(rc: RequestContext): Predicate {
  const p: Predicate = { attrs: rc.res.store.attrs };
  try {
    const ls = rc.query.get('labelSelector');
    if (ls) p.label = parseLabelSelector(ls);
    // a watch (or list) addressed to one object selects it by name
    const byName = rc.info.name ? `metadata.name=${rc.info.name}` : '';
    const given = rc.query.get('fieldSelector');
    const fs = [byName, given].filter(Boolean).join(',');
    if (fs) {
      const parsed = parseFieldSelector(fs);
      const known = new Set(['metadata.name', ...(rc.res.def.namespaced ? ['metadata.namespace'] : []), ...rc.res.def.selectableFields]);
      for (const term of fs.split(',')) {
        const f = term.split(/!=|==|=/)[0].trim();
        if (f && !known.has(f)) throw errors.badRequest(`field label not supported: ${f}`);
      }
      // the labels of the request's version as the stored objects' fields name them
      const toStored = fieldLabelMapper(rc.res.def, rc.res.storageDef);
      p.field = toStored ? makeFieldSelector(parsed.terms.map((t) => ({ ...t, field: toStored(t.field) }))) : parsed;
    }
  } catch (err) {
    if (err instanceof SelectorError) throw errors.badRequest(err.message);
    throw err;
  }
  return p;
}

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Go's strconv.ParseInt(v, 10, 64), which kube-apiserver applies to integer
 * query parameters: an optional sign, then decimal digits only, within
 * int64. Throws 400 BadRequest with Go's error text.
 */
export function parseInt64(v: string): bigint {
  const fail = (why: string) => errors.badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: ${why}`);
  const digits = v.startsWith('+') || v.startsWith('-') ? v.slice(1) : v;
  if (digits === '') throw fail('invalid syntax');
  let n = 0n;
  for (const ch of digits) {
    if (ch < '0' || ch > '9') throw fail('invalid syntax');
    n = n * 10n + BigInt(ch.charCodeAt(0) - 48);
    if (n > UINT64_MAX) throw fail('value out of range');
  }
  if (v.startsWith('-')) n = -n;
  if (n > INT64_MAX || n < INT64_MIN) throw fail('value out of range');
  return n;
}

/**
 * An integer query parameter (limit, timeoutSeconds, gracePeriodSeconds):
 * undefined when absent; present, even empty, it must parse as int64 (as
 * upstream's query-parameter conversion requires). The value is clamped to
 * JavaScript's safe integers, which changes nothing for any of its uses (a
 * limit or a number of seconds that large means "no limit").
 */
export function intParam(rc: RequestContext, name: string): number | undefined {
  const v = rc.query.get(name);
  if (v === null) return undefined;
  const n = parseInt64(v);
  return Number(n > SAFE_MAX ? SAFE_MAX : n < -SAFE_MAX ? -SAFE_MAX : n);
}

/**
 * A boolean query parameter as upstream converts it: absent is undefined;
 * "false" (any case) and "0" are false; any other value, even empty, is true.
 */
export function boolParam(rc: RequestContext, name: string): boolean | undefined {
  const v = rc.query.get(name);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/** ?dryRun (its values are checked with the write's options, write-options.ts). */
export function dryRun(rc: RequestContext): boolean {
  return rc.query.getAll('dryRun').length > 0;
}

/** ?fieldValidation, Warn when unset (other values are refused with the write's options, write-options.ts). */
export function fieldValidation(rc: RequestContext): FieldValidation {
  const v = rc.query.get('fieldValidation');
  return v === 'Ignore' || v === 'Strict' ? v : 'Warn';
}
