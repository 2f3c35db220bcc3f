// Restricted check allowPrivilegeEscalation: every container sets
// securityContext.allowPrivilegeEscalation=false (1.8+); from 1.25 a
// Windows pod (spec.os.name=windows) is not checked.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, isWindowsPod, nameOf } from './util.ts';

const allowPrivilegeEscalation_1_8: CheckPod = (_meta, spec) => {
  const bad = containers(spec)
    .filter((c) => c.securityContext?.allowPrivilegeEscalation !== false)
    .map(nameOf);
  return bad.length ? forbidden('allowPrivilegeEscalation != false', `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false`) : ALLOWED;
};

const allowPrivilegeEscalation_1_25: CheckPod = (meta, spec) => (isWindowsPod(spec) ? ALLOWED : allowPrivilegeEscalation_1_8(meta, spec));

export const allowPrivilegeEscalation: Check = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  versions: [
    { minVersion: v1(8), check: allowPrivilegeEscalation_1_8 },
    { minVersion: v1(25), check: allowPrivilegeEscalation_1_25 },
  ],
};
