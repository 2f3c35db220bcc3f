// Smaller kinds' rules: Lease (durations and transitions), RuntimeClass
// (handler a DNS label and immutable, overhead quantities, node selector
// labels), IPAddress (name an IP in canonical
// form, parentRef required and immutable), APIService (name
// `<version>.<group>`, priorities in range, service or local rules, status
// condition statuses) and
// PodDisruptionBudget status conditions.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { canonicalIP, parseCIDR, parseIP } from '../allocators/ip.ts';
import { validCIDRErrors } from './common/ip-rules.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { labelValueErrors, qualifiedNameErrors, validateDNS1123Label, validateDNS1123Subdomain, validatePathSegment } from '../../api/validation.ts';
import { QuantityValue } from '../../cel/libs/quantity-parse.ts';
import type { Strategy, SubresourceStrategy } from '../strategy.ts';
import { statusWithMetadata } from './common/status.ts';
import { conditionsErrors } from './common/conditions.ts';
import { immutable } from './common/immutable.ts';

function nonNegative(path: string, v: unknown): FieldError[] {
  return typeof v === 'number' && v < 0 ? [fieldErrors.invalid(path, v, 'must be greater than or equal to 0')] : [];
}

export function leaseStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      const errs = base.validate(obj);
      const spec: Obj = obj.spec ?? {};
      if (spec.leaseDurationSeconds !== undefined && !(spec.leaseDurationSeconds > 0)) {
        errs.push(fieldErrors.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
      }
      errs.push(...nonNegative('spec.leaseTransitions', spec.leaseTransitions));
      if (spec.preferredHolder && !spec.strategy) errs.push(fieldErrors.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
      return errs;
    },
  };
}

const CONTAINER_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];

/** RuntimeClass overhead, checked as upstream does: as container limits, so errors name `overhead.limits[<name>]`. */
export function runtimeClassOverheadErrors(podFixed: unknown): FieldError[] {
  if (!podFixed || typeof podFixed !== 'object') return [];
  const errs: FieldError[] = [];
  for (const [name, raw] of Object.entries(podFixed as Record<string, unknown>)) {
    const p = `overhead.limits[${name}]`;
    if (!name.includes('/') && !CONTAINER_RESOURCES.includes(name) && !name.startsWith('hugepages-')) errs.push(fieldErrors.invalid(p, name, 'must be a standard resource for containers'));
    let q: QuantityValue | undefined;
    try {
      q = QuantityValue.parse(String(raw));
    } catch {
      q = undefined; // the schema check reports what is not a quantity
    }
    if (q && q.unscaled < 0n) errs.push(fieldErrors.invalid(p, raw, 'must be greater than or equal to 0'));
  }
  return errs;
}

/** RuntimeClass scheduling.nodeSelector: label keys and values. */
export function nodeSelectorLabelErrors(path: string, selector: unknown): FieldError[] {
  if (!selector || typeof selector !== 'object') return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(selector as Record<string, unknown>)) {
    for (const m of qualifiedNameErrors(k)) errs.push(fieldErrors.invalid(path, k, m));
    for (const m of labelValueErrors(String(v ?? ''))) errs.push(fieldErrors.invalid(path, v, m));
  }
  return errs;
}

export function runtimeClassStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      const errs = base.validate(obj);
      if (!obj.handler) errs.push(fieldErrors.required('handler', ''));
      else for (const m of validateDNS1123Label(obj.handler)) errs.push(fieldErrors.invalid('handler', obj.handler, m));
      errs.push(...runtimeClassOverheadErrors(obj.overhead?.podFixed));
      errs.push(...nodeSelectorLabelErrors('scheduling.nodeSelector', obj.scheduling?.nodeSelector));
      return errs;
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...immutable('handler', obj.handler, old.handler)];
    },
  };
}

export function ipAddressNameErrors(name: string): FieldError[] {
  if (!parseIP(name)) return [fieldErrors.invalid('metadata.name', name, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  const canon = canonicalIP(name)!;
  if (canon !== name) return [fieldErrors.invalid('metadata.name', name, `must be in canonical form ("${canon}")`)];
  return [];
}

export function ipAddressStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      const errs: FieldError[] = [];
      if (obj.metadata?.name) errs.push(...ipAddressNameErrors(obj.metadata.name));
      const ref = obj.spec?.parentRef;
      if (!ref) errs.push(fieldErrors.required('spec.parentRef', ''));
      else {
        if (ref.group) for (const m of validateDNS1123Subdomain(ref.group)) errs.push(fieldErrors.invalid('spec.parentRef.group', ref.group, m));
        if (!ref.resource) errs.push(fieldErrors.required('spec.parentRef.resource', ''));
        else for (const m of validatePathSegment(ref.resource)) errs.push(fieldErrors.invalid('spec.parentRef.resource', ref.resource, m));
        if (!ref.name) errs.push(fieldErrors.required('spec.parentRef.name', ''));
        else for (const m of validatePathSegment(ref.name)) errs.push(fieldErrors.invalid('spec.parentRef.name', ref.name, m));
        if (ref.namespace) for (const m of validateDNS1123Label(ref.namespace)) errs.push(fieldErrors.invalid('spec.parentRef.namespace', ref.namespace, m));
      }
      return errs;
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...immutable('spec.parentRef', obj.spec?.parentRef, old.spec?.parentRef)];
    },
  };
}

/** ServiceCIDR: one or two CIDRs of different families, fixed once set. */
export function serviceCIDRStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      const errs = base.validate(obj);
      const cidrs: string[] = obj.spec?.cidrs ?? [];
      if (cidrs.length === 0) errs.push(fieldErrors.required('spec.cidrs', ''));
      if (cidrs.length > 2) errs.push(fieldErrors.tooMany('spec.cidrs', cidrs.length, 2));
      const fams: string[] = [];
      cidrs.forEach((c, i) => {
        const msgs = validCIDRErrors(c);
        for (const m of msgs) errs.push(fieldErrors.invalid(`spec.cidrs[${i}]`, c, m));
        if (!msgs.length) fams.push(parseCIDR(c).family);
      });
      if (fams.length === 2 && fams[0] === fams[1]) errs.push(fieldErrors.invalid('spec.cidrs', cidrs, 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64'));
      return errs;
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...immutable('spec.cidrs', obj.spec?.cidrs, old.spec?.cidrs)];
    },
  };
}

export function validateAPIService(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec: Obj = obj.spec ?? {};
  const name: string = obj.metadata?.name ?? '';
  const required = `${spec.version ?? ''}.${spec.group ?? ''}`;
  const seg = validatePathSegment(name);
  if (name) {
    if (seg.length) for (const m of seg) errs.push(fieldErrors.invalid('metadata.name', name, m));
    else if (name !== required) errs.push(fieldErrors.invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(required)}`));
  }
  if (spec.group) for (const m of validateDNS1123Subdomain(spec.group)) errs.push(fieldErrors.invalid('spec.group', spec.group, m));
  if (!spec.version) errs.push(fieldErrors.required('spec.version', ''));
  else for (const m of validateDNS1123Label(spec.version)) errs.push(fieldErrors.invalid('spec.version', spec.version, m));
  const gp = spec.groupPriorityMinimum ?? 0;
  if (!(gp > 0 && gp <= 20000)) errs.push(fieldErrors.invalid('spec.groupPriorityMinimum', gp, 'must be positive and less than 20000'));
  const vp = spec.versionPriority ?? 0;
  if (!(vp > 0 && vp <= 1000)) errs.push(fieldErrors.invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));
  if (!spec.service) {
    if (spec.caBundle) errs.push(fieldErrors.invalid('spec.caBundle', `${String(spec.caBundle).length} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify) errs.push(fieldErrors.invalid('spec.insecureSkipTLSVerify', spec.insecureSkipTLSVerify, 'local APIServices may not have insecureSkipTLSVerify'));
  } else {
    if (!spec.service.namespace) errs.push(fieldErrors.required('spec.service.namespace', ''));
    if (!spec.service.name) errs.push(fieldErrors.required('spec.service.name', ''));
    const port = spec.service.port;
    if (port !== undefined && !(port >= 1 && port <= 65535)) errs.push(fieldErrors.invalid('spec.service.port', port, 'port is not valid: must be between 1 and 65535, inclusive'));
    if (spec.insecureSkipTLSVerify && spec.caBundle) errs.push(fieldErrors.invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  }
  return errs;
}

/** The v1 defaulter: a service reference without a port goes to 443. */
export function defaultAPIService(obj: Obj): void {
  const svc = obj.spec?.service;
  if (svc && typeof svc === 'object' && svc.port === undefined) svc.port = 443;
}

const CONDITION_STATUSES = ['True', 'False', 'Unknown'];

/** APIService status: each condition's status True, False or Unknown (upstream checks no more). */
export function apiServiceStatusErrors(obj: Obj): FieldError[] {
  const conditions: Obj[] = Array.isArray(obj.status?.conditions) ? obj.status.conditions : [];
  const errs: FieldError[] = [];
  conditions.forEach((c, i) => {
    if (!CONDITION_STATUSES.includes(c?.status)) errs.push(fieldErrors.notSupported(`status.conditions[${i}].status`, c?.status ?? '', CONDITION_STATUSES));
  });
  return errs;
}

export function apiServiceStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    subresources: { ...(base.subresources ?? {}), status: statusWithMetadata((obj) => apiServiceStatusErrors(obj)) },
    defaults(obj) {
      base.defaults?.(obj);
      defaultAPIService(obj);
    },
    validate(obj) {
      return validateAPIService(obj);
    },
  };
}

function pdbStatus(): SubresourceStrategy {
  return statusWithMetadata((obj) => {
    const st: Obj = obj.status ?? {};
    return [
      ...conditionsErrors('status.conditions', st.conditions),
      ...['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods', 'observedGeneration'].flatMap((f) => nonNegative(`status.${f}`, st[f])),
    ];
  });
}

export function podDisruptionBudgetStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return { ...base, subresources: { ...(base.subresources ?? {}), status: pdbStatus() } };
}
