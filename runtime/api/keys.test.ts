// apiVersion strings and the storage key layout, the one copy the registry
// store and the watch cache both use.

import { describe, expect, it } from 'vitest';
import { groupVersion, keyRoot, objectKey } from './keys.ts';

describe('keys', () => {
  it.each([
    ['', 'v1', 'v1'],
    ['apps', 'v1', 'apps/v1'],
    ['networking.k8s.io', 'v1beta1', 'networking.k8s.io/v1beta1'],
  ])('groupVersion(%j, %j) = %j', (g, v, want) => {
    expect(groupVersion(g, v)).toBe(want);
  });

  it.each([
    ['', 'configmaps', 'ns', 'a', '/registry/core/configmaps/ns/a'],
    ['', 'namespaces', undefined, 'kube-system', '/registry/core/namespaces/kube-system'],
    ['apps', 'deployments', 'default', 'web', '/registry/apps/deployments/default/web'],
    ['rbac.authorization.k8s.io', 'clusterroles', '', 'admin', '/registry/rbac.authorization.k8s.io/clusterroles/admin'],
  ])('key of %s/%s %s/%s', (g, r, ns, name, want) => {
    expect(objectKey(keyRoot(g, r), ns, name)).toBe(want);
  });
});
