// PersistentVolumeClaimResize: which growths are allowed, and the 403s.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { persistentVolumeClaimResizePlugin } from './persistent-volume-claim-resize.ts';
import { attrsFor, refusal, staticClusterObjects } from './testing.ts';

const classes = staticClusterObjects([{ metadata: { name: 'grows' }, allowVolumeExpansion: true }, { metadata: { name: 'fixed' }, allowVolumeExpansion: false }, { metadata: { name: 'unsaid' } }]);
const pvc = (size: string, cls: string | undefined, phase = 'Bound', annotations?: Record<string, string>): Obj => ({
  metadata: { name: 'data', ...(annotations ? { annotations } : {}) },
  spec: { resources: { requests: { storage: size } }, ...(cls !== undefined ? { storageClassName: cls } : {}) },
  status: { phase },
});
const NOT_EXPANDABLE = 'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';
const NOT_BOUND = 'persistentvolumeclaims "data" is forbidden: Only bound persistent volume claims can be expanded';

const run = (next: Obj, old: Obj) => persistentVolumeClaimResizePlugin(classes).validate!(attrsFor('', 'persistentvolumeclaims', next, { operation: 'UPDATE', oldObject: old }));

describe('PersistentVolumeClaimResize', () => {
  it.each([
    ['growing with an expandable class', pvc('2Gi', 'grows'), pvc('1Gi', 'grows')],
    ['the same size in other units', pvc('1024Mi', 'fixed'), pvc('1Gi', 'fixed')],
    ['shrinking (validation refuses it, not this plugin)', pvc('1Gi', 'fixed'), pvc('2Gi', 'fixed')],
    [
      'growing with the beta annotation naming an expandable class',
      pvc('2Gi', undefined, 'Bound', { 'volume.beta.kubernetes.io/storage-class': 'grows' }),
      pvc('1Gi', undefined, 'Bound', { 'volume.beta.kubernetes.io/storage-class': 'grows' }),
    ],
  ])('allows %s', async (_name, next, old) => {
    await expect(run(next, old)).resolves.toBeUndefined();
  });

  it.each([
    ['a class without expansion', pvc('2Gi', 'fixed'), pvc('1Gi', 'fixed'), NOT_EXPANDABLE],
    ['a class that does not say', pvc('2Gi', 'unsaid'), pvc('1Gi', 'unsaid'), NOT_EXPANDABLE],
    ['a class that does not exist', pvc('2Gi', 'gone'), pvc('1Gi', 'gone'), NOT_EXPANDABLE],
    ['no class', pvc('2Gi', undefined), pvc('1Gi', undefined), NOT_EXPANDABLE],
    ['an empty class', pvc('2Gi', ''), pvc('1Gi', ''), NOT_EXPANDABLE],
    ['a class changed at the same time', pvc('2Gi', 'grows'), pvc('1Gi', 'fixed'), NOT_EXPANDABLE],
    ['a claim not bound yet', pvc('2Gi', 'grows'), pvc('1Gi', 'grows', 'Pending'), NOT_BOUND],
    ['a request added where there was none', pvc('1Mi', 'fixed'), { metadata: { name: 'data' }, spec: { storageClassName: 'fixed' }, status: { phase: 'Bound' } }, NOT_EXPANDABLE],
  ])('refuses growing with %s', async (_name, next, old, message) => {
    const err = await refusal(run(next, old));
    expect({ code: err.code, reason: err.reason, message: err.message }).toEqual({ code: 403, reason: 'Forbidden', message });
  });

  it('leaves creates and status writes alone', async () => {
    const p = persistentVolumeClaimResizePlugin(classes);
    await expect(p.validate!(attrsFor('', 'persistentvolumeclaims', pvc('2Gi', 'fixed')))).resolves.toBeUndefined();
    await expect(p.validate!(attrsFor('', 'persistentvolumeclaims', pvc('2Gi', 'fixed'), { operation: 'UPDATE', subresource: 'status', oldObject: pvc('1Gi', 'fixed') }))).resolves.toBeUndefined();
  });
});
