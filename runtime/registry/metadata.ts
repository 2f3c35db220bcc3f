// ObjectMeta rules common to every resource: label and annotation syntax,
// immutable identity fields on update, finalizer names. Texts follow
// kube-apiserver's apimachinery validation.

import type { Obj } from '../storage/interface.ts';
import { type FieldError, fieldErrors } from '../api/field-errors.ts';
import { labelValueErrors, qualifiedNameErrors } from '../api/validation.ts';
import { formatValue } from '../api/go-format.ts';

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export function validateObjectMeta(meta: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof meta.generation === 'number' && meta.generation < 0) errs.push(fieldErrors.invalid('metadata.generation', meta.generation, 'must be greater than or equal to 0'));
  const labels = meta.labels;
  if (labels && typeof labels === 'object') {
    for (const [k, v] of Object.entries(labels)) {
      for (const m of qualifiedNameErrors(k)) errs.push(fieldErrors.invalid('metadata.labels', k, m));
      if (typeof v === 'string') for (const m of labelValueErrors(v)) errs.push(fieldErrors.invalid(`metadata.labels`, v, m));
    }
  }
  const ann = meta.annotations;
  if (ann && typeof ann === 'object') {
    let total = 0;
    for (const [k, v] of Object.entries(ann)) {
      for (const m of qualifiedNameErrors(k.toLowerCase())) errs.push(fieldErrors.invalid('metadata.annotations', k, m));
      total += k.length + (typeof v === 'string' ? v.length : 0);
    }
    if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(fieldErrors.tooLong('metadata.annotations', TOTAL_ANNOTATION_SIZE_LIMIT));
  }
  errs.push(...ownerReferenceErrors(meta.ownerReferences));
  const finalizers = meta.finalizers;
  if (Array.isArray(finalizers)) {
    const seen = new Set<string>();
    finalizers.forEach((f: string, i: number) => {
      if (typeof f !== 'string') return;
      const p = `metadata.finalizers[${i}]`;
      for (const m of qualifiedNameErrors(f)) errs.push(fieldErrors.invalid(p, f, m));
      if (seen.has(f)) errs.push(fieldErrors.duplicate(p, f));
      seen.add(f);
    });
  }
  return errs;
}

/** ownerReferences: apiVersion, kind, name and uid set; at most one controller. */
export function ownerReferenceErrors(refs: unknown): FieldError[] {
  if (!Array.isArray(refs)) return [];
  const errs: FieldError[] = [];
  const path = 'metadata.ownerReferences';
  const controllers: string[] = [];
  for (const r of refs as Obj[]) {
    if (!r || typeof r !== 'object') continue;
    if (!r.apiVersion) errs.push(fieldErrors.invalid(`${path}.apiVersion`, r.apiVersion ?? '', 'version must not be empty'));
    if (!r.kind) errs.push(fieldErrors.invalid(`${path}.kind`, r.kind ?? '', 'kind must not be empty'));
    if (!r.name) errs.push(fieldErrors.invalid(`${path}.name`, r.name ?? '', 'name must not be empty'));
    if (!r.uid) errs.push(fieldErrors.invalid(`${path}.uid`, r.uid ?? '', 'uid must not be empty'));
    if (r.controller === true) controllers.push(`${r.kind}/${r.name}`);
  }
  if (controllers.length > 1) {
    errs.push(fieldErrors.invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${controllers.join(' and ')}`));
  }
  return errs;
}

export function validateObjectMetaUpdate(meta: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['name', 'namespace', 'uid', 'creationTimestamp'] as const) {
    if ((meta[f] ?? '') !== (old[f] ?? '')) errs.push(fieldErrors.invalid(`metadata.${f}`, meta[f] ?? '', 'field is immutable'));
  }
  if (old.deletionTimestamp && Array.isArray(meta.finalizers)) {
    const oldSet = new Set<string>(old.finalizers ?? []);
    for (const f of meta.finalizers) {
      if (!oldSet.has(f)) errs.push(fieldErrors.forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${formatValue([f])}`));
    }
  }
  errs.push(...validateObjectMeta(meta));
  return errs;
}
