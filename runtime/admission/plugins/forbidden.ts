// A plugin's refusal as upstream's admission.NewForbidden makes it: 403
// Forbidden naming the request's resource and its name (the object's name
// or generateName on a create that has none yet, else `Unknown`), with the
// plugin's reason after `is forbidden: `.

import { type ApiError, errors } from '../../api/errors.ts';
import type { AdmissionAttributes } from '../chain.ts';

export function admissionForbidden(attrs: AdmissionAttributes, why: string): ApiError {
  let name = attrs.name;
  if (!name) {
    const md = attrs.object?.metadata;
    name = (typeof md?.name === 'string' && md.name) || (typeof md?.generateName === 'string' && md.generateName) || 'Unknown';
  }
  return errors.forbidden({ group: attrs.group, resource: attrs.resource }, name, why);
}
