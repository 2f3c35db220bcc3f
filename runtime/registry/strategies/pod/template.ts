// The metadata rules of a pod template (ValidatePodTemplateSpec): its labels
// and annotations are checked as an object's are, reported under the
// template's path without `metadata` (`template.labels`,
// `spec.template.annotations`), as upstream reports them; a template may
// not carry ephemeral containers.

import type { Obj } from '../../../storage/interface.ts';
import { FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { validateObjectMeta } from '../../metadata.ts';

/** `template` is where the PodTemplateSpec sits (`template`, `spec.template`). */
export function podTemplateErrors(templatePath: string, template: unknown): FieldError[] {
  if (!template || typeof template !== 'object') return [];
  const t = template as Obj;
  const md: Obj = t.metadata && typeof t.metadata === 'object' ? t.metadata : {};
  const errs: FieldError[] = [];
  for (const e of validateObjectMeta({ labels: md.labels, annotations: md.annotations })) {
    const m = /^metadata\.(labels|annotations)(.*)$/.exec(e.field);
    if (m) errs.push(new FieldError(e.type, `${templatePath}.${m[1]}${m[2]}`, e.value, e.detail));
  }
  const eph = t.spec?.ephemeralContainers;
  if (Array.isArray(eph) && eph.length > 0) errs.push(fieldErrors.forbidden(`${templatePath}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  return errs;
}
