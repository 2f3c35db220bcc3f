// --runtime-config: parsing as cliflag.ConfigurationMap, upstream's
// precedence (stability keys in the order all, ga, beta, alpha, then
// group/version, then group/version/resource) over each version's default,
// and upstream's start-up errors for bad keys, values and removed
// group-versions.

import { describe, expect, it } from 'vitest';
import type { ResourceDef } from '../../generated/api-types.ts';
import { isEnabled, parseRuntimeConfig, RuntimeConfigError, validateRuntimeConfig } from './runtime-config.ts';

const def = (group: string, version: string, resource: string, enabledByDefault: boolean): ResourceDef => ({ group, version, resource, enabledByDefault }) as ResourceDef;

const DEFS = [
  def('', 'v1', 'pods', true),
  def('', 'v1', 'configmaps', true),
  def('apps', 'v1', 'deployments', true),
  def('apps', 'v1', 'replicasets', true),
  def('networking.k8s.io', 'v1beta1', 'ipaddresses', false),
  def('flowcontrol.apiserver.k8s.io', 'v1beta3', 'flowschemas', true),
  def('x.io', 'v1alpha1', 'widgets', false),
  def('policy', 'v1', 'poddisruptionbudgets', true),
];
const names = (d: ResourceDef) => `${d.group || 'core'}/${d.version}/${d.resource}`;
const served = (text: string) => {
  const rc = parseRuntimeConfig(text);
  validateRuntimeConfig(rc, DEFS);
  return DEFS.filter((d) => isEnabled(d, rc)).map(names);
};
const DEFAULT = ['core/v1/pods', 'core/v1/configmaps', 'apps/v1/deployments', 'apps/v1/replicasets', 'flowcontrol.apiserver.k8s.io/v1beta3/flowschemas', 'policy/v1/poddisruptionbudgets'];

describe('parseRuntimeConfig', () => {
  it('reads key=value pairs, trimmed; a key alone has the empty value; a later key wins', () => {
    expect([...parseRuntimeConfig(' api/all = false ,apps/v1,,x.io/v1alpha1=true,apps/v1=false')]).toEqual([
      ['api/all', 'false'],
      ['apps/v1', 'false'],
      ['x.io/v1alpha1', 'true'],
    ]);
    expect(parseRuntimeConfig(undefined).size).toBe(0);
  });
});

describe('which versions are served', () => {
  it.each([
    { flag: '', want: DEFAULT },
    { flag: 'api/all=true', want: DEFS.map(names) },
    { flag: 'api/alpha=true', want: [...DEFAULT, 'x.io/v1alpha1/widgets'] },
    { flag: 'api/beta=true', want: [...DEFAULT.slice(0, 4), 'networking.k8s.io/v1beta1/ipaddresses', ...DEFAULT.slice(4)] },
    { flag: 'api/beta=false', want: DEFAULT.filter((n) => !n.includes('beta')) },
    { flag: 'api/ga=false', want: ['flowcontrol.apiserver.k8s.io/v1beta3/flowschemas'] },
    // api/all first, then the narrower stability keys, whatever the flag's order
    { flag: 'api/ga=true,api/all=false', want: ['core/v1/pods', 'core/v1/configmaps', 'apps/v1/deployments', 'apps/v1/replicasets', 'policy/v1/poddisruptionbudgets'] },
    { flag: 'api/all=false,/v1=true', want: ['core/v1/pods', 'core/v1/configmaps'] },
    { flag: 'api/all=false,api/v1=true', want: ['core/v1/pods', 'core/v1/configmaps'] },
    { flag: 'api/all=false,api/legacy', want: ['core/v1/pods', 'core/v1/configmaps'] },
    // group/version over the stability keys, group/version/resource over both
    {
      flag: 'api/beta=false,networking.k8s.io/v1beta1=true',
      want: [...DEFAULT.filter((n) => !n.includes('beta')).slice(0, 4), 'networking.k8s.io/v1beta1/ipaddresses', 'policy/v1/poddisruptionbudgets'],
    },
    { flag: 'apps/v1=true,apps/v1/deployments=false', want: DEFAULT.filter((n) => n !== 'apps/v1/deployments') },
    { flag: 'apps/v1=false,apps/v1/deployments=true', want: DEFAULT.filter((n) => n !== 'apps/v1/replicasets') },
    { flag: 'api/ga=false,apps/v1/deployments=true', want: ['apps/v1/deployments', 'flowcontrol.apiserver.k8s.io/v1beta3/flowschemas'] },
    { flag: 'flowcontrol.apiserver.k8s.io/v1beta3=0', want: DEFAULT.filter((n) => !n.startsWith('flowcontrol')) },
    { flag: 'x.io/v1alpha1=T', want: [...DEFAULT, 'x.io/v1alpha1/widgets'] },
  ])('--runtime-config=$flag', ({ flag, want }) => {
    expect(served(flag).sort()).toEqual([...want].sort());
  });
});

describe("upstream's start-up errors", () => {
  it.each([
    { flag: 'api/all=false', error: 'invalid key with only api/all=false' },
    { flag: 'v1=true', error: 'runtime-config invalid key v1' },
    { flag: 'apps/v1/deployments/x=true', error: 'runtime-config invalid key apps/v1/deployments/x' },
    // removed groups and versions (1.31 serves neither)
    { flag: 'extensions/v1beta1=true', error: 'unknown api groups extensions' },
    { flag: 'extensions/v1beta1/ingresses=true,nope.io/v1=true', error: 'unknown api groups extensions,nope.io' },
    { flag: 'policy/v1beta1=true', error: 'group version policy/v1beta1 that has not been registered' },
    { flag: 'flowcontrol.apiserver.k8s.io/v1beta2=true', error: 'group version flowcontrol.apiserver.k8s.io/v1beta2 that has not been registered' },
    { flag: '/v2=true', error: 'group version v2 that has not been registered' },
    { flag: 'api/all=maybe', error: 'invalid value api/all=maybe' },
    { flag: 'api/beta=', error: 'invalid value api/beta=' },
    { flag: 'apps/v1=maybe', error: 'invalid value of apps/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax' },
    { flag: 'apps/v1/Deployments=false', error: 'invalid key apps/v1/Deployments: group/version/resource and resource is always lowercase plural, not "Deployments"' },
  ])('--runtime-config=$flag: $error', ({ flag, error }) => {
    const rc = parseRuntimeConfig(flag);
    expect(() => validateRuntimeConfig(rc, DEFS)).toThrow(RuntimeConfigError);
    expect(() => validateRuntimeConfig(rc, DEFS)).toThrow(new RuntimeConfigError(error));
  });
});
