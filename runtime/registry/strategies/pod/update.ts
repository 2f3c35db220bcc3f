// Pod creates and updates through the main resource: a new pod starts
// Pending (create.ts). Updates: a pod's spec is fixed once
// created, except container and init container images, a lower (or newly
// set) activeDeadlineSeconds, added tolerations, removed scheduling gates
// and terminationGracePeriodSeconds going from negative to 1; containers
// may not be added or removed. Upstream's texts; upstream appends a diff of
// the spec to the Forbidden text, which is left out here.

import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { type Strategy } from '../../strategy.ts';
import { jsonEqual } from '../../../api/json-equal.ts';
import { defaultPodOnly, initialPodStatus } from './create.ts';
import { bindingStrategy, ephemeralContainersStrategy } from './subresources.ts';

export const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v : []);

function tolerationErrors(now: Obj[], was: Obj[]): FieldError[] {
  const errs: FieldError[] = [];
  const strip = (t: Obj) => {
    const { tolerationSeconds: _s, ...rest } = t ?? {};
    return rest;
  };
  was.forEach((old, i) => {
    if (!now.some((t) => jsonEqual(strip(t), strip(old)))) {
      errs.push(fieldErrors.forbidden(`spec.tolerations[${i}]`, 'existing toleration can not be modified except its tolerationSeconds'));
    }
  });
  return errs;
}

function schedulingGateErrors(now: Obj[], was: Obj[]): FieldError[] {
  const old = new Set(was.map((g) => g?.name));
  const added = now.find((g) => !old.has(g?.name));
  return added ? [fieldErrors.forbidden('spec.schedulingGates', `only deletion is allowed, but found new scheduling gate '${added.name}'`)] : [];
}

export function podUpdateErrors(obj: Obj, old: Obj): FieldError[] {
  const a: Obj = obj.spec ?? {};
  const b: Obj = old.spec ?? {};
  if (list(a.containers).length !== list(b.containers).length) {
    return [fieldErrors.forbidden('spec.containers', 'pod updates may not add or remove containers')];
  }
  const errs: FieldError[] = [];
  const ads = a.activeDeadlineSeconds;
  if (ads != null) {
    if (!(ads >= 0 && ads <= 2147483647)) return [fieldErrors.invalid('spec.activeDeadlineSeconds', ads, 'must be between 0 and 2147483647, inclusive')];
    if (b.activeDeadlineSeconds != null && b.activeDeadlineSeconds < ads) {
      return [fieldErrors.invalid('spec.activeDeadlineSeconds', ads, 'must be less than or equal to previous value')];
    }
  } else if (b.activeDeadlineSeconds != null) {
    errs.push(fieldErrors.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...tolerationErrors(list(a.tolerations), list(b.tolerations)));
  errs.push(...schedulingGateErrors(list(a.schedulingGates), list(b.schedulingGates)));
  if (jsonEqual(a, b)) return errs;
  // what may change is taken from the old spec; anything else left over is forbidden
  const munged: Obj = structuredClone(a);
  for (const kind of ['containers', 'initContainers']) {
    const was = list(b[kind]);
    list(munged[kind]).forEach((c, i) => {
      if (!c || !was[i]) return;
      if (was[i].image === undefined) delete c.image;
      else c.image = was[i].image;
    });
  }
  for (const f of ['activeDeadlineSeconds', 'tolerations', 'schedulingGates']) {
    if (b[f] === undefined) delete munged[f];
    else munged[f] = structuredClone(b[f]);
  }
  if (typeof b.terminationGracePeriodSeconds === 'number' && b.terminationGracePeriodSeconds < 0 && a.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = b.terminationGracePeriodSeconds;
  }
  if (!jsonEqual(munged, b)) errs.push(fieldErrors.forbidden('spec', POD_UPDATE_FORBIDDEN));
  return errs;
}

export function podStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      defaultPodOnly(obj);
    },
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      obj.status = initialPodStatus(obj);
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...podUpdateErrors(obj, old)];
    },
    subresources: { ...(base.subresources ?? {}), binding: bindingStrategy(), ephemeralcontainers: ephemeralContainersStrategy() },
  };
}
