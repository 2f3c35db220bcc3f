// Baseline check privileged (1.0+): no container sets securityContext.privileged=true.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, nameOf } from './util.ts';

const privileged_1_0: CheckPod = (_meta, spec) => {
  const bad = containers(spec)
    .filter((c) => c.securityContext?.privileged === true)
    .map(nameOf);
  return bad.length ? forbidden('privileged', `${containersPhrase(bad)} must not set securityContext.privileged=true`) : ALLOWED;
};

export const privileged: Check = { id: 'privileged', level: 'baseline', versions: [{ minVersion: v1(0), check: privileged_1_0 }] };
