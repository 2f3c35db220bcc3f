// Rules shared by the workload kinds: non-negative counts, a required
// non-empty selector that selects the template's labels, a template that
// may not set activeDeadlineSeconds, read-only GCE disks when replicated,
// and an immutable selector, with
// upstream's paths, texts and Go-printed values.

import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { jsonEqual } from '../../../api/json-equal.ts';
import { goLabelSelector } from '../../../api/go-format.ts';
import { isEmptySelector, labelSelectorErrors, selectorMatches } from '../../../api/label-selector.ts';

export const NEGATIVE = 'must be greater than or equal to 0';

export function nonNegative(path: string, v: unknown): FieldError[] {
  return typeof v === 'number' && v < 0 ? [fieldErrors.invalid(path, v, NEGATIVE)] : [];
}

/** spec.selector required, valid, not empty (`empty selector is invalid for <word>`) and matching spec.template's labels. */
export function selectorTemplateErrors(spec: Obj, word: string): FieldError[] {
  const errs: FieldError[] = [];
  const sel = spec.selector;
  if (!sel) errs.push(fieldErrors.required('spec.selector', ''));
  else {
    errs.push(...labelSelectorErrors('spec.selector', sel));
    if (isEmptySelector(sel)) errs.push(fieldErrors.invalid('spec.selector', goLabelSelector(sel), `empty selector is invalid for ${word}`));
  }
  if (!spec.template || typeof spec.template !== 'object') {
    errs.push(fieldErrors.required('spec.template', ''));
    return errs;
  }
  const labels = spec.template.metadata?.labels ?? {};
  if (sel && !isEmptySelector(sel) && !selectorMatches(sel, labels)) {
    errs.push(fieldErrors.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
  }
  return errs;
}

/**
 * ValidateReadOnlyPersistentDisks, which upstream applies to the templates of
 * ReplicationControllers, ReplicaSets and Deployments asking for more than one
 * replica: a GCE persistent disk mounts on several machines only read-only.
 */
export function readOnlyDiskErrors(spec: Obj): FieldError[] {
  if (typeof spec.replicas !== 'number' || spec.replicas <= 1) return [];
  const volumes = spec.template?.spec?.volumes;
  if (!Array.isArray(volumes)) return [];
  const errs: FieldError[] = [];
  volumes.forEach((v: Obj, i: number) => {
    const pd = v?.gcePersistentDisk;
    if (pd && typeof pd === 'object' && pd.readOnly !== true) {
      errs.push(
        fieldErrors.invalid(
          `spec.template.spec.volumes[${i}].gcePersistentDisk.readOnly`,
          false,
          'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
        ),
      );
    }
  });
  return errs;
}

/** Templates of long-running pods may not bound their pods' lifetime. */
export function noActiveDeadline(spec: Obj, kindText: string): FieldError[] {
  const ads = spec.template?.spec?.activeDeadlineSeconds;
  return ads != null ? [fieldErrors.forbidden('spec.template.spec.activeDeadlineSeconds', `activeDeadlineSeconds in ${kindText} is not Supported`)] : [];
}

export function selectorImmutable(obj: Obj, old: Obj): FieldError[] {
  const a = obj.spec?.selector;
  const b = old.spec?.selector;
  return jsonEqual(a, b) ? [] : [fieldErrors.invalid('spec.selector', goLabelSelector(a), 'field is immutable')];
}
