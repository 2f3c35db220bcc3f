// Baseline check hostNamespaces (1.0+): no hostNetwork, hostPID or hostIPC.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { sortedSet } from './util.ts';

const hostNamespaces_1_0: CheckPod = (_meta, spec) => {
  const used: string[] = [];
  if (spec.hostNetwork) used.push('hostNetwork');
  if (spec.hostPID) used.push('hostPID');
  if (spec.hostIPC) used.push('hostIPC');
  return used.length ? forbidden('host namespaces', sortedSet(used).join(', ')) : ALLOWED;
};

export const hostNamespaces: Check = { id: 'hostNamespaces', level: 'baseline', versions: [{ minVersion: v1(0), check: hostNamespaces_1_0 }] };
