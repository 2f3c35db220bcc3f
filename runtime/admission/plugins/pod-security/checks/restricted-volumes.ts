// Restricted check restrictedVolumes (1.0+): volumes are only configMap,
// csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected
// or secret. Replaces hostPathVolumes in restricted.

import { v1 } from '../api.ts';
import { HOST_PATH_VOLUMES_ID } from './host-path-volumes.ts';
import { type Check, type CheckPod, type Volume, ALLOWED, forbidden } from './types.ts';
import { joinQuote, pluralize, sortedSet } from './util.ts';

const ALLOWED_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];

/** The restricted sources upstream names, in the order it looks for them; any other source is "unknown". */
const NAMED_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

const has = (v: Volume, key: string): boolean => v[key] != null;

const restrictedVolumes_1_0: CheckPod = (_meta, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const v of spec.volumes ?? []) {
    if (ALLOWED_SOURCES.some((k) => has(v, k))) continue;
    bad.push(v.name ?? '');
    types.push(NAMED_SOURCES.find((k) => has(v, k)) ?? 'unknown');
  }
  if (!bad.length) return ALLOWED;
  const list = sortedSet(types);
  return forbidden(
    'restricted volume types',
    `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', list.length)} ${joinQuote(list)}`,
  );
};

export const restrictedVolumes: Check = {
  id: 'restrictedVolumes',
  level: 'restricted',
  versions: [{ minVersion: v1(0), check: restrictedVolumes_1_0, overrides: [HOST_PATH_VOLUMES_ID] }],
};
