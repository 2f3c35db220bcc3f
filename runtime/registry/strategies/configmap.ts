// ConfigMap: key syntax in data and binaryData, no key in both, the 1 MiB
// total (keys and values), and `immutable`: once true, data and binaryData
// are frozen and the flag cannot be unset (metadata may still change).

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { type Strategy } from '../strategy.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import { configKeyErrors } from './common/keys.ts';

export const MAX_CONFIG_SIZE = 1024 * 1024;

/** Decoded length of a base64 value (binaryData, Secret data). */
export function base64Length(v: unknown): number {
  if (typeof v !== 'string') return 0;
  return Buffer.from(v, 'base64').length;
}

function validateConfigMap(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const data: Record<string, unknown> = obj.data ?? {};
  const binary: Record<string, unknown> = obj.binaryData ?? {};
  let total = 0;
  for (const [k, v] of Object.entries(data)) {
    for (const m of configKeyErrors(k)) errs.push(fieldErrors.invalid(`data[${k}]`, k, m));
    total += k.length + Buffer.byteLength(String(v ?? ''));
  }
  for (const [k, v] of Object.entries(binary)) {
    for (const m of configKeyErrors(k)) errs.push(fieldErrors.invalid(`binaryData[${k}]`, k, m));
    if (Object.prototype.hasOwnProperty.call(data, k)) errs.push(fieldErrors.invalid(`binaryData[${k}]`, k, 'duplicate of key present in data'));
    total += k.length + base64Length(v);
  }
  if (total > MAX_CONFIG_SIZE) errs.push(fieldErrors.tooLong('', MAX_CONFIG_SIZE));
  return errs;
}

/** The `immutable` rules shared by ConfigMap and Secret. */
export function immutableDataErrors(obj: Obj, old: Obj, fields: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(fieldErrors.forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const f of fields) {
    const a = obj[f] && Object.keys(obj[f]).length ? obj[f] : undefined;
    const b = old[f] && Object.keys(old[f]).length ? old[f] : undefined;
    if (!jsonEqual(a, b)) errs.push(fieldErrors.forbidden(f, 'field is immutable when `immutable` is set'));
  }
  return errs;
}

export function configMapStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...validateConfigMap(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...immutableDataErrors(obj, old, ['data', 'binaryData'])];
    },
  };
}
