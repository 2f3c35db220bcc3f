// Compute resource names as core validation checks them, with upstream's
// texts: a resource name is a qualified name, and one without a prefix is a
// standard one (cpu, memory, pods, requests.cpu ...); a container's resource
// is cpu, memory, ephemeral-storage or hugepages-<size> when unprefixed, and
// a prefixed one outside kubernetes.io is an extended resource (its
// `requests.` form must be a qualified name too).

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { qualifiedNameErrors } from '../../../api/validation.ts';

const STANDARD = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);
const STANDARD_CONTAINER = new Set(['cpu', 'memory', 'ephemeral-storage']);
const HUGEPAGES = 'hugepages-';
const REQUESTS = 'requests.';

const isHugePages = (name: string) => name.startsWith(HUGEPAGES);
/** A name without a prefix, or one in kubernetes.io's domain. */
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
const isExtended = (name: string) => !isNative(name) && !name.startsWith(REQUESTS) && qualifiedNameErrors(REQUESTS + name).length === 0;

/** Upstream's validateResourceName: a qualified name; unprefixed, a standard resource (or a quota's hugepages). */
export function resourceNameErrors(path: string, name: string): FieldError[] {
  const errs = qualifiedNameErrors(name).map((m) => fieldErrors.invalid(path, name, m));
  if (errs.length) return errs;
  if (!name.includes('/') && !STANDARD.has(name) && !isHugePages(name) && !name.startsWith(REQUESTS + HUGEPAGES)) {
    errs.push(fieldErrors.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

/** Upstream's ValidateContainerResourceName: a resource name a container may request. */
export function containerResourceNameErrors(path: string, name: string): FieldError[] {
  const errs = resourceNameErrors(path, name);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER.has(name) && !isHugePages(name)) errs.push(fieldErrors.invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtended(name)) {
    errs.push(fieldErrors.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}
