// Query parameters of resource requests: includeObject, selectors (as a
// storage predicate), integers and booleans, dryRun and fieldValidation, with
// the 400s kube-apiserver answers for bad values.

import type { Predicate } from '../../storage/interface.ts';
import { parseFieldSelector, SelectorError } from '../../storage/selectors/fields.ts';
import { parseLabelSelector } from '../../storage/selectors/labels.ts';
import type { IncludeObject } from '../../table/convert.ts';
import { errors } from '../status.ts';
import type { RequestContext } from './context.ts';

export function includeObject(rc: RequestContext): IncludeObject {
  const v = rc.query.get('includeObject');
  if (v === 'None' || v === 'Object' || v === 'Metadata') return v;
  if (v) throw errors.badRequest(`unsupported includeObject value: ${v}`);
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
      p.field = parseFieldSelector(fs);
      const known = new Set(['metadata.name', ...(rc.res.def.namespaced ? ['metadata.namespace'] : []), ...rc.res.def.selectableFields]);
      for (const term of fs.split(',')) {
        const f = term.split(/!=|==|=/)[0].trim();
        if (f && !known.has(f)) throw errors.badRequest(`field label not supported: ${f}`);
      }
    }
  } catch (err) {
    if (err instanceof SelectorError) throw errors.badRequest(err.message);
    throw err;
  }
  return p;
}

export function intParam(rc: RequestContext, name: string): number | undefined {
  const v = rc.query.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw errors.badRequest(`invalid value for ${name}: ${v}`);
  return Number(v);
}

export function boolParam(rc: RequestContext, name: string): boolean | undefined {
  const v = rc.query.get(name);
  if (v === null || v === '') return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw errors.badRequest(`invalid value for ${name}: ${v}`);
}

export function dryRun(rc: RequestContext): boolean {
  const values = rc.query.getAll('dryRun');
  if (values.length === 0) return false;
  for (const v of values) {
    if (v !== 'All') {
      throw errors.badRequest(`Invalid dry run value: "${v}": supported values: "All"`);
    }
  }
  return true;
}

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export function fieldValidation(rc: RequestContext): FieldValidation {
  const v = rc.query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw errors.badRequest(`fieldValidation parameter unsupported: ${v}`);
}
