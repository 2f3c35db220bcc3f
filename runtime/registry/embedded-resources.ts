// The validation of a custom resource's embedded resources (the objects at
// x-kubernetes-embedded-resource fields below the root), as upstream's
// custom resource strategy runs it on create and update: apiVersion and kind
// required (apiVersion a group/version, kind a DNS-1035 label in any case),
// and metadata checked by ObjectMeta's rules (name and generateName as path
// segments, the namespace a DNS-1123 label when set, labels, annotations,
// owner references, finalizers), each error at its path in the object.
import { FieldError, fieldErrors } from '../api/field-errors.ts';
import { validateDNS1035Label, validateDNS1123Label, validateName } from '../api/validation.ts';
import type { EmbeddedResources } from '../schema/embedded-resources.ts';
import { decodeObjectMeta } from '../schema/object-meta.ts';
import type { Obj } from '../storage/interface.ts';
import { validateObjectMeta } from './metadata.ts';

/** metadata's errors at `metaPath` (validateObjectMeta reports them under `metadata`). */
function metaErrors(metaPath: string, md: Obj): FieldError[] {
  const errs: FieldError[] = [];
  // upstream validates an embedded object without a name as if it had one
  const name = typeof md.name === 'string' && md.name !== '' ? md.name : 'fakename';
  if (typeof md.generateName === 'string' && md.generateName !== '') {
    for (const m of validateName('path-segment', md.generateName, true)) errs.push(fieldErrors.invalid(`${metaPath}.generateName`, md.generateName, m));
  }
  for (const m of validateName('path-segment', name)) errs.push(fieldErrors.invalid(`${metaPath}.name`, name, m));
  if (typeof md.namespace === 'string' && md.namespace !== '') {
    for (const m of validateDNS1123Label(md.namespace)) errs.push(fieldErrors.invalid(`${metaPath}.namespace`, md.namespace, m));
  }
  for (const e of validateObjectMeta(md)) errs.push(new FieldError(e.type, metaPath + e.field.slice('metadata'.length), e.value, e.detail));
  return errs;
}

function apiVersionErrors(path: string, v: unknown): FieldError[] {
  if (typeof v !== 'string') return [fieldErrors.invalid(path, v, 'must be a string')];
  if (v === '') return [fieldErrors.required(path, '')];
  if (v !== '/' && v.split('/').length > 2) return [fieldErrors.invalid(path, v, `unexpected GroupVersion string: ${v}`)];
  return [];
}

function kindErrors(path: string, v: unknown): FieldError[] {
  if (typeof v !== 'string') return [fieldErrors.invalid(path, v, 'must be a string')];
  if (v === '') return [fieldErrors.required(path, '')];
  const errs = validateDNS1035Label(v.toLowerCase());
  return errs.length ? [fieldErrors.invalid(path, v, `may have mixed case, but should otherwise match: ${errs.join(',')}`)] : [];
}

/** The field errors of every embedded resource of obj. */
export function validateEmbeddedResources(embedded: EmbeddedResources, obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  embedded.forEach(obj, (path, o) => {
    if (!('apiVersion' in o)) errs.push(fieldErrors.required(`${path}.apiVersion`, ''));
    else errs.push(...apiVersionErrors(`${path}.apiVersion`, o.apiVersion));
    if (!('kind' in o)) errs.push(fieldErrors.required(`${path}.kind`, ''));
    else errs.push(...kindErrors(`${path}.kind`, o.kind));
    if ('metadata' in o) {
      const decoded = decodeObjectMeta(o.metadata, false);
      if (decoded.error !== undefined || !decoded.meta) errs.push(fieldErrors.invalid(`${path}.metadata`, o.metadata, decoded.error ?? ''));
      else errs.push(...metaErrors(`${path}.metadata`, decoded.meta));
    }
  });
  return errs;
}
