// DefaultStorageClass: which claims get which default class.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { defaultStorageClassPlugin } from './default-storage-class.ts';
import { attrsFor, staticClusterObjects } from './testing.ts';

const sc = (name: string, created: string, annotations: Record<string, string> = {}): Obj => ({ metadata: { name, creationTimestamp: created, annotations } });
const DEF = { 'storageclass.kubernetes.io/is-default-class': 'true' };
const BETA = { 'storageclass.beta.kubernetes.io/is-default-class': 'true' };
const T1 = '2026-01-01T00:00:00Z';
const T2 = '2026-01-02T00:00:00Z';

describe('DefaultStorageClass', () => {
  it.each([
    ['no classes: unchanged', [], {}, undefined],
    ['no default: unchanged', [sc('a', T1), sc('b', T1, { 'storageclass.kubernetes.io/is-default-class': 'false' })], {}, undefined],
    ['the default', [sc('a', T1), sc('std', T1, DEF)], {}, 'std'],
    ['the beta annotation counts', [sc('old', T1, BETA)], {}, 'old'],
    ['several defaults: the newest', [sc('older', T1, DEF), sc('newer', T2, DEF), sc('plain', T2)], {}, 'newer'],
    ['several of the same age: the first name', [sc('zeta', T2, DEF), sc('alpha', T2, DEF)], {}, 'alpha'],
    ['a class named: kept', [sc('std', T1, DEF)], { spec: { storageClassName: 'fast' } }, 'fast'],
    ['an empty class (no class wanted): kept', [sc('std', T1, DEF)], { spec: { storageClassName: '' } }, ''],
    ['the beta class annotation: left alone', [sc('std', T1, DEF)], { metadata: { name: 'c', annotations: { 'volume.beta.kubernetes.io/storage-class': 'x' } } }, undefined],
  ])('%s', async (_name, classes, over, want) => {
    const pvc: Obj = { metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'] }, ...over };
    await defaultStorageClassPlugin(staticClusterObjects(classes)).admit!(attrsFor('', 'persistentvolumeclaims', pvc));
    expect(pvc.spec?.storageClassName).toBe(want);
  });

  it('leaves updates alone', async () => {
    const pvc: Obj = { metadata: { name: 'c' }, spec: {} };
    await defaultStorageClassPlugin(staticClusterObjects([sc('std', T1, DEF)])).admit!(attrsFor('', 'persistentvolumeclaims', pvc, { operation: 'UPDATE' }));
    expect(pvc.spec.storageClassName).toBeUndefined();
  });
});
