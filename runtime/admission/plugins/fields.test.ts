// The new mutating plugins on objects not validated yet: a field of the
// wrong type is left as it is (for validation to refuse), never written
// over, and nothing throws anything but a Status error.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionPlugin } from '../chain.ts';
import { defaultIngressClassPlugin } from './default-ingress-class.ts';
import { defaultStorageClassPlugin } from './default-storage-class.ts';
import { defaultTolerationSecondsPlugin } from './default-toleration-seconds.ts';
import { listField, objectField } from './fields.ts';
import { persistentVolumeClaimResizePlugin } from './persistent-volume-claim-resize.ts';
import { runtimeClassPlugin } from './runtime-class.ts';
import { storageObjectInUseProtectionPlugin } from './storage-object-in-use-protection.ts';
import { taintNodesByConditionPlugin } from './taint-nodes-by-condition.ts';
import { attrsFor, staticClusterObjects } from './testing.ts';

const storageClasses = staticClusterObjects([{ metadata: { name: 'std', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } }]);
const ingressClasses = staticClusterObjects([{ metadata: { name: 'nginx', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } } }]);
const runtimeClasses = staticClusterObjects([
  { metadata: { name: 'rc' }, overhead: { podFixed: { cpu: '1' } }, scheduling: { nodeSelector: { a: 'b' }, tolerations: [{ key: 'k', operator: 'Exists' }] } },
]);

type Field = (o: Obj | null) => unknown;

/** Each case names the field of the wrong type it holds. */
const cases: [string, AdmissionPlugin, string, string, Obj | null, Field][] = [
  ['DefaultTolerationSeconds: spec a string', defaultTolerationSecondsPlugin(), '', 'pods', { metadata: { name: 'p' }, spec: 'x' }, (o) => o?.spec],
  ['DefaultTolerationSeconds: tolerations a string', defaultTolerationSecondsPlugin(), '', 'pods', { metadata: { name: 'p' }, spec: { tolerations: 'x' } }, (o) => o?.spec?.tolerations],
  ['DefaultTolerationSeconds: tolerations holding a number', defaultTolerationSecondsPlugin(), '', 'pods', { metadata: { name: 'p' }, spec: { tolerations: [7] } }, (o) => o?.spec?.tolerations],
  ['DefaultTolerationSeconds: no object', defaultTolerationSecondsPlugin(), '', 'pods', null, (o) => o],
  ['TaintNodesByCondition: taints an object', taintNodesByConditionPlugin(), '', 'nodes', { metadata: { name: 'n' }, spec: { taints: { a: 1 } } }, (o) => o?.spec?.taints],
  ['TaintNodesByCondition: spec a list', taintNodesByConditionPlugin(), '', 'nodes', { metadata: { name: 'n' }, spec: [] }, (o) => o?.spec],
  [
    'StorageObjectInUseProtection: finalizers a string',
    storageObjectInUseProtectionPlugin(),
    '',
    'persistentvolumeclaims',
    { metadata: { name: 'c', finalizers: 'x' } },
    (o) => o?.metadata?.finalizers,
  ],
  ['StorageObjectInUseProtection: metadata a number', storageObjectInUseProtectionPlugin(), '', 'persistentvolumes', { metadata: 5 }, (o) => o?.metadata],
  ['DefaultStorageClass: spec a string', defaultStorageClassPlugin(storageClasses), '', 'persistentvolumeclaims', { metadata: { name: 'c' }, spec: 'x' }, (o) => o?.spec],
  [
    'DefaultStorageClass: annotations a string',
    defaultStorageClassPlugin(storageClasses),
    '',
    'persistentvolumeclaims',
    { metadata: { name: 'c', annotations: 'x' }, spec: 'y' },
    (o) => o?.metadata?.annotations,
  ],
  ['DefaultIngressClass: spec a number', defaultIngressClassPlugin(ingressClasses), 'networking.k8s.io', 'ingresses', { metadata: { name: 'i' }, spec: 3 }, (o) => o?.spec],
  ['RuntimeClass: spec a string', runtimeClassPlugin(runtimeClasses), '', 'pods', { metadata: { name: 'p' }, spec: 'x' }, (o) => o?.spec],
  [
    'RuntimeClass: nodeSelector a string',
    runtimeClassPlugin(runtimeClasses),
    '',
    'pods',
    { metadata: { name: 'p' }, spec: { runtimeClassName: 'rc', nodeSelector: 'x' } },
    (o) => o?.spec?.nodeSelector,
  ],
  ['RuntimeClass: tolerations a string', runtimeClassPlugin(runtimeClasses), '', 'pods', { metadata: { name: 'p' }, spec: { runtimeClassName: 'rc', tolerations: 'x' } }, (o) => o?.spec?.tolerations],
];

describe('plugins on fields of the wrong type', () => {
  it.each(cases)('%s', async (_name, plugin, group, resource, object, field) => {
    const before = structuredClone(object);
    try {
      await plugin.admit?.(attrsFor(group, resource, object));
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
    }
    expect(field(object)).toEqual(field(before));
  });

  it('PersistentVolumeClaimResize: sizes that do not parse count as zero', async () => {
    const pvc = (size: unknown): Obj => ({ metadata: { name: 'c' }, spec: { storageClassName: 'std', resources: { requests: { storage: size } } }, status: { phase: 'Bound' } });
    const p = persistentVolumeClaimResizePlugin(storageClasses);
    await expect(p.validate!(attrsFor('', 'persistentvolumeclaims', pvc('lots'), { operation: 'UPDATE', oldObject: pvc('1Gi') }))).resolves.toBeUndefined();
    await expect(p.validate!(attrsFor('', 'persistentvolumeclaims', pvc(5), { operation: 'UPDATE', oldObject: pvc('1Gi') }))).resolves.toBeUndefined();
  });
});

describe('objectField and listField', () => {
  it.each([
    [{}, {}, []],
    [{ f: { a: 1 } }, { a: 1 }, undefined],
    [{ f: 'x' }, undefined, undefined],
    [{ f: [1] }, undefined, [1]],
    [{ f: null }, {}, []],
  ])('%j', (parent, obj, list) => {
    expect(listField(structuredClone(parent), 'f')).toEqual(list);
    expect(objectField(structuredClone(parent), 'f')).toEqual(obj);
  });
});
