// Restricted check runAsNonRoot (1.0+): the pod, or every container, sets
// securityContext.runAsNonRoot=true, and none sets it to false.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, nameOf } from './util.ts';

const runAsNonRoot_1_0: CheckPod = (_meta, spec) => {
  const setters: string[] = [];
  const pod = spec.securityContext?.runAsNonRoot;
  if (pod === false) setters.push('pod');
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    const v = c.securityContext?.runAsNonRoot;
    if (v === false) explicit.push(nameOf(c));
    else if (v == null && pod !== true) implicit.push(nameOf(c));
  }
  if (explicit.length) setters.push(containersPhrase(explicit));
  if (setters.length) return forbidden('runAsNonRoot != true', `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (implicit.length) return forbidden('runAsNonRoot != true', `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true`);
  return ALLOWED;
};

export const runAsNonRoot: Check = { id: 'runAsNonRoot', level: 'restricted', versions: [{ minVersion: v1(0), check: runAsNonRoot_1_0 }] };
