// Baseline check procMount (1.0+): securityContext.procMount is Default or unset.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, joinQuote, nameOf, sortedSet } from './util.ts';

const procMount_1_0: CheckPod = (_meta, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const c of containers(spec)) {
    const pm = c.securityContext?.procMount;
    if (pm != null && pm !== 'Default') {
      bad.push(nameOf(c));
      types.push(pm);
    }
  }
  return bad.length ? forbidden('procMount', `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`) : ALLOWED;
};

export const procMount: Check = { id: 'procMount', level: 'baseline', versions: [{ minVersion: v1(0), check: procMount_1_0 }] };
