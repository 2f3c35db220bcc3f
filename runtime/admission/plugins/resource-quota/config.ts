// ResourceQuota's configuration from the AdmissionConfiguration file:
// `ResourceQuotaConfiguration` (apiserver.config.k8s.io/v1; the older
// resourcequota.admission.k8s.io/v1beta1 and v1alpha1 `Configuration` too)
// with `limitedResources`: resources whose consumption is refused unless a
// quota covers it. Each names an apiGroup and resource, `matchContains`
// (usage names that contain one of these strings are limited) and
// `matchScopes` (scopes of the object that a quota must also select).
// Checked as upstream's ValidateConfiguration (a resource is required).

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { type PluginConfiguration, decodeTyped } from '../../../config/admission-config.ts';
import type { ScopeRequirement } from './evaluators.ts';

export const RESOURCE_QUOTA_CONFIG_KINDS = [
  { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'ResourceQuotaConfiguration' },
  { apiVersion: 'resourcequota.admission.k8s.io/v1beta1', kind: 'Configuration' },
  { apiVersion: 'resourcequota.admission.k8s.io/v1alpha1', kind: 'Configuration' },
];

export interface LimitedResource {
  apiGroup: string;
  resource: string;
  matchContains: string[];
  matchScopes: ScopeRequirement[];
}

export interface ResourceQuotaConfig {
  limitedResources: LimitedResource[];
}

export const DEFAULT_RESOURCE_QUOTA_CONFIG: ResourceQuotaConfig = { limitedResources: [] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const list = (v: unknown, what: string): unknown[] => {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Error(`json: cannot unmarshal ${typeof v} into Go struct field ${what} of type slice`);
  return v;
};

const text = (v: unknown, what: string): string => {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${typeof v} into Go struct field ${what} of type string`);
  return v;
};

function scope(v: unknown): ScopeRequirement {
  if (!isObject(v)) throw new Error('json: cannot unmarshal into Go struct field LimitedResource.limitedResources.matchScopes of type v1.ScopedResourceSelectorRequirement');
  const values = list(v.values, 'ScopedResourceSelectorRequirement.values').map((x) => text(x, 'ScopedResourceSelectorRequirement.values'));
  return { scopeName: text(v.scopeName, 'ScopedResourceSelectorRequirement.scopeName'), operator: text(v.operator, 'ScopedResourceSelectorRequirement.operator'), values };
}

/** Decodes and validates ResourceQuota's entry; undefined gives no limited resources. */
export function parseResourceQuotaConfig(entry: PluginConfiguration | undefined): ResourceQuotaConfig {
  if (!entry) return DEFAULT_RESOURCE_QUOTA_CONFIG;
  const doc = decodeTyped(entry.value, RESOURCE_QUOTA_CONFIG_KINDS);
  const errs: FieldError[] = [];
  const limitedResources = list(doc.limitedResources, 'Configuration.limitedResources').map((raw, i): LimitedResource => {
    if (!isObject(raw)) throw new Error('json: cannot unmarshal into Go struct field Configuration.limitedResources of type v1.LimitedResource');
    const r: LimitedResource = {
      apiGroup: text(raw.apiGroup, 'LimitedResource.limitedResources.apiGroup'),
      resource: text(raw.resource, 'LimitedResource.limitedResources.resource'),
      matchContains: list(raw.matchContains, 'LimitedResource.limitedResources.matchContains').map((x) => text(x, 'LimitedResource.limitedResources.matchContains')),
      matchScopes: list(raw.matchScopes, 'LimitedResource.limitedResources.matchScopes').map(scope),
    };
    if (!r.resource) errs.push(fieldErrors.required(`limitedResources[${i}].resource`, ''));
    return r;
  });
  if (errs.length) throw new Error(errs.length === 1 ? errs[0].toString() : `[${errs.map(String).join(', ')}]`);
  return { limitedResources };
}
