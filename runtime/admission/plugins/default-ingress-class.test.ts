// DefaultIngressClass: which Ingresses get which default class.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { defaultIngressClassPlugin } from './default-ingress-class.ts';
import { attrsFor, staticClusterObjects } from './testing.ts';

const ic = (name: string, created: string, isDefault?: string): Obj => ({
  metadata: { name, creationTimestamp: created, ...(isDefault !== undefined ? { annotations: { 'ingressclass.kubernetes.io/is-default-class': isDefault } } : {}) },
  spec: { controller: 'example.com/ingress' },
});
const T1 = '2026-01-01T00:00:00Z';
const T2 = '2026-01-02T00:00:00Z';

describe('DefaultIngressClass', () => {
  it.each([
    ['no classes: unchanged', [], {}, undefined],
    ['no default: unchanged', [ic('a', T1), ic('b', T1, 'false'), ic('c', T1, 'True')], {}, undefined],
    ['the default', [ic('a', T1), ic('nginx', T1, 'true')], {}, 'nginx'],
    ['several defaults: the newest', [ic('old', T1, 'true'), ic('new', T2, 'true')], {}, 'new'],
    ['several of the same age: the first name', [ic('b', T1, 'true'), ic('a', T1, 'true')], {}, 'a'],
    ['a class named: kept', [ic('nginx', T1, 'true')], { spec: { ingressClassName: 'traefik' } }, 'traefik'],
    ['an empty class name: kept', [ic('nginx', T1, 'true')], { spec: { ingressClassName: '' } }, ''],
    ['the legacy class annotation: left alone', [ic('nginx', T1, 'true')], { metadata: { name: 'i', annotations: { 'kubernetes.io/ingress.class': 'x' } } }, undefined],
  ])('%s', async (_name, classes, over, want) => {
    const ingress: Obj = { metadata: { name: 'i' }, spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } }, ...over };
    await defaultIngressClassPlugin(staticClusterObjects(classes)).admit!(attrsFor('networking.k8s.io', 'ingresses', ingress));
    expect(ingress.spec?.ingressClassName).toBe(want);
  });

  it.each([
    ['an update', { operation: 'UPDATE' as const }],
    ['a status write', { subresource: 'status' }],
    ['another group', { group: 'extensions' }],
  ])('leaves %s alone', async (_name, over) => {
    const ingress: Obj = { metadata: { name: 'i' }, spec: {} };
    await defaultIngressClassPlugin(staticClusterObjects([ic('nginx', T1, 'true')])).admit!(attrsFor('networking.k8s.io', 'ingresses', ingress, over));
    expect(ingress.spec.ingressClassName).toBeUndefined();
  });
});
