// Secret: `type` defaults to Opaque and is immutable; stringData is merged
// into data on every write and never stored or returned; data keys use the
// config-key syntax; the values total at most 1 MiB; `immutable` freezes
// data; type-specific required keys (service-account-token, dockercfg,
// dockerconfigjson, basic-auth, ssh-auth, tls) and bootstrap tokens.

import type { ResourceDef } from '../../../generated/api-types.ts';
import { SECRET_TYPE_BOOTSTRAP_TOKEN } from '../../api/k8s-names.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import type { Strategy } from '../strategy.ts';
import { configKeyErrors } from './common/keys.ts';
import { base64Length, immutableDataErrors, MAX_CONFIG_SIZE } from './configmap.ts';
import { immutable } from './common/immutable.ts';

export const SA_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
const REDACTED = '<secret contents redacted>';

/** Moves stringData into data (base64), as the v1 conversion does. */
export function mergeStringData(obj: Obj): void {
  if (obj.stringData && typeof obj.stringData === 'object') {
    const data = (obj.data ??= {});
    for (const [k, v] of Object.entries(obj.stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
  }
  delete obj.stringData;
}

function has(data: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(data, key);
}

function decoded(data: Record<string, unknown>, key: string): string {
  return Buffer.from(String(data[key] ?? ''), 'base64').toString('utf8');
}

function jsonErrors(data: Record<string, unknown>, key: string): FieldError[] {
  const path = `data[${key}]`;
  if (!has(data, key)) return [fieldErrors.required(path, '')];
  try {
    JSON.parse(decoded(data, key));
    return [];
  } catch (err) {
    return [fieldErrors.invalid(path, REDACTED, (err as Error).message)];
  }
}

function bootstrapTokenErrors(obj: Obj, data: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const id = has(data, 'token-id') ? decoded(data, 'token-id') : undefined;
  const secret = has(data, 'token-secret') ? decoded(data, 'token-secret') : undefined;
  if (id === undefined) errs.push(fieldErrors.required('data[token-id]', ''));
  else if (!/^[a-z0-9]{6}$/.test(id)) errs.push(fieldErrors.invalid('data[token-id]', REDACTED, 'must match [a-z0-9]{6}'));
  if (secret === undefined) errs.push(fieldErrors.required('data[token-secret]', ''));
  else if (!/^[a-z0-9]{16}$/.test(secret)) errs.push(fieldErrors.invalid('data[token-secret]', REDACTED, 'must match [a-z0-9]{16}'));
  if (id !== undefined && obj.metadata?.name !== `bootstrap-token-${id}`) {
    errs.push(fieldErrors.invalid('metadata.name', obj.metadata?.name, `must be "bootstrap-token-<token-id>"`));
  }
  return errs;
}

export function validateSecret(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const data: Record<string, unknown> = obj.data ?? {};
  let total = 0;
  for (const [k, v] of Object.entries(data)) {
    for (const m of configKeyErrors(k)) errs.push(fieldErrors.invalid(`data[${k}]`, k, m));
    total += base64Length(v);
  }
  if (total > MAX_CONFIG_SIZE) errs.push(fieldErrors.tooLong('data', MAX_CONFIG_SIZE));
  switch (obj.type) {
    case 'kubernetes.io/service-account-token':
      if (!obj.metadata?.annotations?.[SA_NAME_ANNOTATION]) errs.push(fieldErrors.required(`metadata.annotations[${SA_NAME_ANNOTATION}]`, ''));
      break;
    case 'kubernetes.io/dockercfg':
      errs.push(...jsonErrors(data, '.dockercfg'));
      break;
    case 'kubernetes.io/dockerconfigjson':
      errs.push(...jsonErrors(data, '.dockerconfigjson'));
      break;
    case 'kubernetes.io/basic-auth':
      if (!has(data, 'username') && !has(data, 'password')) {
        errs.push(fieldErrors.required('data[username]', ''), fieldErrors.required('data[password]', ''));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (base64Length(data['ssh-privatekey']) === 0) errs.push(fieldErrors.required('data[ssh-privatekey]', ''));
      break;
    case 'kubernetes.io/tls':
      if (!has(data, 'tls.key')) errs.push(fieldErrors.required('data[tls.key]', ''));
      if (!has(data, 'tls.crt')) errs.push(fieldErrors.required('data[tls.crt]', ''));
      break;
    case SECRET_TYPE_BOOTSTRAP_TOKEN:
      errs.push(...bootstrapTokenErrors(obj, data));
      break;
    default:
  }
  return errs;
}

export function secretStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    // stringData is merged into data when the v1 object is decoded upstream (its conversion), type by its defaulter
    defaults(obj) {
      base.defaults?.(obj);
      mergeStringData(obj);
      if (obj.type === undefined || obj.type === '') obj.type = 'Opaque';
    },
    validate(obj) {
      return [...base.validate(obj), ...validateSecret(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...immutable('type', obj.type, old.type), ...immutableDataErrors(obj, old, ['data'])];
    },
  };
}
