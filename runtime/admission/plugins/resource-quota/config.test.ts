// ResourceQuotaConfiguration: the accepted kinds, the fields read, and
// upstream's validation (a limited resource needs a resource).

import { describe, expect, it } from 'vitest';
import { DEFAULT_RESOURCE_QUOTA_CONFIG, parseResourceQuotaConfig } from './config.ts';

const entry = (value: unknown) => ({ value, source: 'inline' });

describe('parseResourceQuotaConfig', () => {
  it('gives no limited resources without an entry', () => {
    expect(parseResourceQuotaConfig(undefined)).toBe(DEFAULT_RESOURCE_QUOTA_CONFIG);
  });

  it.each([
    ['apiserver.config.k8s.io/v1', 'ResourceQuotaConfiguration'],
    ['resourcequota.admission.k8s.io/v1beta1', 'Configuration'],
  ])('reads %s %s', (apiVersion, kind) => {
    const c = parseResourceQuotaConfig(
      entry({ apiVersion, kind, limitedResources: [{ resource: 'pods', matchContains: ['cpu'], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] }] }),
    );
    expect(c.limitedResources).toEqual([{ apiGroup: '', resource: 'pods', matchContains: ['cpu'], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] }]);
  });

  it('refuses a limited resource without a resource, and another kind', () => {
    expect(() => parseResourceQuotaConfig(entry({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'ResourceQuotaConfiguration', limitedResources: [{ matchContains: ['cpu'] }] }))).toThrow(
      'limitedResources[0].resource: Required value',
    );
    expect(() => parseResourceQuotaConfig(entry({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'Configuration' }))).toThrow(
      'no kind "Configuration" is registered for version "apiserver.config.k8s.io/v1"',
    );
  });
});
