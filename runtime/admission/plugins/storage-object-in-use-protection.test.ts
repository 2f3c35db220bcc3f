// StorageObjectInUseProtection: the protection finalizers on created PVCs and PVs.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { storageObjectInUseProtectionPlugin } from './storage-object-in-use-protection.ts';
import { attrsFor } from './testing.ts';

describe('StorageObjectInUseProtection', () => {
  it.each([
    ['a PVC', 'persistentvolumeclaims', undefined, ['kubernetes.io/pvc-protection']],
    ['a PVC with other finalizers', 'persistentvolumeclaims', ['example.com/keep'], ['example.com/keep', 'kubernetes.io/pvc-protection']],
    ['a PVC that has it', 'persistentvolumeclaims', ['kubernetes.io/pvc-protection'], ['kubernetes.io/pvc-protection']],
    ['a PV', 'persistentvolumes', undefined, ['kubernetes.io/pv-protection']],
    ['a PV that has it', 'persistentvolumes', ['kubernetes.io/pv-protection', 'x/y'], ['kubernetes.io/pv-protection', 'x/y']],
    ['a ConfigMap: untouched', 'configmaps', undefined, undefined],
  ])('%s', async (_name, resource, finalizers, want) => {
    const obj: Obj = { metadata: { name: 'o', ...(finalizers ? { finalizers } : {}) }, spec: {} };
    await storageObjectInUseProtectionPlugin().admit!(attrsFor('', resource, obj));
    expect(obj.metadata.finalizers).toEqual(want);
  });

  it.each([
    ['an update', { operation: 'UPDATE' as const }],
    ['a status write', { subresource: 'status' }],
  ])('leaves %s alone', async (_name, over) => {
    const obj: Obj = { metadata: { name: 'o' }, spec: {} };
    await storageObjectInUseProtectionPlugin().admit!(attrsFor('', 'persistentvolumeclaims', obj, over));
    expect(obj.metadata.finalizers).toBeUndefined();
  });
});
