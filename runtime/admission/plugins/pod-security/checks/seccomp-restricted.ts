// Restricted check seccompProfile_restricted (1.19+; from 1.25 Windows
// pods are not checked): the pod, or every container, sets a seccompProfile
// type of RuntimeDefault or Localhost, and none sets another type.
// Replaces seccompProfile_baseline in restricted.

import { v1 } from '../api.ts';
import { SECCOMP_BASELINE_ID, validSeccompType } from './seccomp-baseline.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, isWindowsPod, joinQuote, nameOf, sortedSet } from './util.ts';

const seccompProfileRestricted_1_19: CheckPod = (_meta, spec) => {
  const setters: string[] = [];
  const values: string[] = [];
  let podSet = false;
  const podProfile = spec.securityContext?.seccompProfile;
  if (podProfile) {
    if (validSeccompType(podProfile.type)) podSet = true;
    else {
      setters.push('pod');
      values.push(podProfile.type ?? '');
    }
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    const p = c.securityContext?.seccompProfile;
    if (p) {
      if (!validSeccompType(p.type)) {
        explicit.push(nameOf(c));
        values.push(p.type ?? '');
      }
    } else if (!podSet) implicit.push(nameOf(c));
  }
  if (explicit.length) setters.push(containersPhrase(explicit));
  if (setters.length) return forbidden('seccompProfile', `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}`);
  if (implicit.length) return forbidden('seccompProfile', `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
  return ALLOWED;
};

const seccompProfileRestricted_1_25: CheckPod = (meta, spec) => (isWindowsPod(spec) ? ALLOWED : seccompProfileRestricted_1_19(meta, spec));

export const seccompProfileRestricted: Check = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  versions: [
    { minVersion: v1(19), check: seccompProfileRestricted_1_19, overrides: [SECCOMP_BASELINE_ID] },
    { minVersion: v1(25), check: seccompProfileRestricted_1_25, overrides: [SECCOMP_BASELINE_ID] },
  ],
};
