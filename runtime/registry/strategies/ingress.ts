// networking.k8s.io/v1 Ingress path rules: every HTTP path names its
// pathType (Exact, Prefix or ImplementationSpecific); Exact and Prefix paths
// are absolute without `//`, `/./`, `/../` or an encoded slash inside and
// `/.` or `/..` at the end; an ImplementationSpecific path, when given, is
// absolute.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import type { Strategy } from '../strategy.ts';

export const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];

export function ingressPathErrors(path: string, p: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const value = typeof p?.path === 'string' ? p.path : '';
  if (p?.pathType === undefined || p.pathType === null) return [fieldErrors.required(`${path}.pathType`, 'pathType must be specified')];
  if (p.pathType === 'Exact' || p.pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(fieldErrors.invalid(`${path}.path`, value, 'must be an absolute path'));
    if (value.length > 0) {
      for (const seq of INVALID_SEQUENCES) if (value.includes(seq)) errs.push(fieldErrors.invalid(`${path}.path`, value, `must not contain '${seq}'`));
      for (const suf of INVALID_SUFFIXES) if (value.endsWith(suf)) errs.push(fieldErrors.invalid(`${path}.path`, value, `cannot end with '${suf}'`));
    }
  } else if (p.pathType === 'ImplementationSpecific') {
    if (value.length > 0 && !value.startsWith('/')) errs.push(fieldErrors.invalid(`${path}.path`, value, 'must be an absolute path'));
  } else errs.push(fieldErrors.notSupported(`${path}.pathType`, p.pathType, PATH_TYPES));
  return errs;
}

export function validateIngressPaths(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const rules: Obj[] = Array.isArray(obj.spec?.rules) ? obj.spec.rules : [];
  rules.forEach((r, i) => {
    const paths: Obj[] = Array.isArray(r?.http?.paths) ? r.http.paths : [];
    paths.forEach((p, j) => errs.push(...ingressPathErrors(`spec.rules[${i}].http.paths[${j}]`, p)));
  });
  return errs;
}

export function ingressStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...validateIngressPaths(obj)];
    },
  };
}
