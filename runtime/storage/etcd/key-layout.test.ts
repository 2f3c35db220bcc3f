// The etcd key layout: kube-apiserver's directories for built-in resources,
// group directories for custom resources, and ranges mapped with their ends.
import { describe, expect, it } from 'vitest';
import { KeyLayout, etcdResourcePath } from './key-layout.ts';
import { resources } from '../../../generated/registry.ts';
import { storageGroupOf } from '../../api/served-index.ts';

describe('etcd key layout', () => {
  const l = new KeyLayout('/registry');
  it.each([
    ['/registry/core/pods/ns1/p', '/registry/pods/ns1/p'],
    ['/registry/core/namespaces/default', '/registry/namespaces/default'],
    ['/registry/core/services/ns/s', '/registry/services/specs/ns/s'],
    ['/registry/core/endpoints/ns/s', '/registry/services/endpoints/ns/s'],
    ['/registry/core/nodes/n1', '/registry/minions/n1'],
    ['/registry/core/replicationcontrollers/ns/r', '/registry/controllers/ns/r'],
    ['/registry/apps/deployments/ns/d', '/registry/deployments/ns/d'],
    ['/registry/networking.k8s.io/ingresses/ns/i', '/registry/ingress/ns/i'],
    ['/registry/rbac.authorization.k8s.io/clusterroles/admin', '/registry/clusterroles/admin'],
    ['/registry/apiextensions.k8s.io/customresourcedefinitions/a.b.io', '/registry/apiextensions.k8s.io/customresourcedefinitions/a.b.io'],
    ['/registry/apiregistration.k8s.io/apiservices/v1.apps', '/registry/apiregistration.k8s.io/apiservices/v1.apps'],
    ['/registry/stable.example.com/crontabs/ns/c', '/registry/stable.example.com/crontabs/ns/c'],
    ['/registry/gateway.networking.k8s.io/gateways/ns/g', '/registry/gateway.networking.k8s.io/gateways/ns/g'],
    ['/t/a', '/registry/t/a'],
  ])('%s -> %s', (ours, etcd) => {
    expect(l.toEtcd(ours)).toBe(etcd);
    expect(l.fromEtcd(etcd, ours)).toBe(ours);
  });

  it('keeps the retired events.k8s.io Events keys in the directory earlier versions wrote them to', () => {
    expect(l.toEtcd('/registry/events.k8s.io/events/ns/e')).toBe('/registry/events.k8s.io/events/ns/e');
    expect(l.fromEtcd('/registry/events.k8s.io/events/ns/e', '/registry/events.k8s.io/events/')).toBe('/registry/events.k8s.io/events/ns/e');
    expect(l.toEtcd('/registry/core/events/ns/e')).toBe('/registry/events/ns/e');
  });

  it('gives every store a directory of its own; the resources served by one store share it', () => {
    // a store is keyed by its storage group and resource (a resource whose hub is another group's is stored there)
    const storeOf = (r: (typeof resources)[number]) => `${storageGroupOf(r)}/${r.resource}`;
    const owner = new Map<string, string>();
    for (const r of resources) {
      const dir = etcdResourcePath(storageGroupOf(r), r.resource);
      const store = storeOf(r);
      expect(owner.get(dir) ?? store, `${dir} holds ${owner.get(dir)} and ${store}`).toBe(store);
      owner.set(dir, store);
    }
    // core and events.k8s.io Events are one store under core's directory, as upstream's
    const events = resources.filter((r) => r.resource === 'events').map(storeOf);
    expect(new Set(events)).toEqual(new Set(['/events']));
    expect(events.length).toBe(2);
    expect(owner.get('events')).toBe('/events');
  });

  it('maps range ends of a resource and of a namespace', () => {
    expect(l.endToEtcd('/registry/core/configmaps0')).toBe('/registry/configmaps0');
    expect(l.endToEtcd('/registry/core/services0')).toBe('/registry/services/specs0');
    expect(l.endToEtcd('/registry/core/configmaps/ns10')).toBe('/registry/configmaps/ns10');
    expect(l.endToEtcd('/t0')).toBe('/registry/t0');
  });

  it('maps keys read from a range back under the root it started at', () => {
    expect(l.fromEtcd('/registry/configmaps/ns2/b', '/registry/core/configmaps/ns1/a\x00')).toBe('/registry/core/configmaps/ns2/b');
    expect(l.fromEtcd('/registry/services/specs/ns/s', '/registry/core/services/')).toBe('/registry/core/services/ns/s');
  });

  it('takes another prefix, with or without a trailing slash', () => {
    expect(new KeyLayout('/other/').toEtcd('/registry/core/pods/a/b')).toBe('/other/pods/a/b');
    expect(etcdResourcePath('', 'events')).toBe('events');
  });
});
