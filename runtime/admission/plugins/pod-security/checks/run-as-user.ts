// Restricted check runAsUser (1.23+): neither the pod nor a container sets runAsUser=0.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, nameOf } from './util.ts';

const runAsUser_1_23: CheckPod = (_meta, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) setters.push('pod');
  const bad = containers(spec)
    .filter((c) => c.securityContext?.runAsUser === 0)
    .map(nameOf);
  if (bad.length) setters.push(containersPhrase(bad));
  return setters.length ? forbidden('runAsUser=0', `${setters.join(' and ')} must not set runAsUser=0`) : ALLOWED;
};

export const runAsUser: Check = { id: 'runAsUser', level: 'restricted', versions: [{ minVersion: v1(23), check: runAsUser_1_23 }] };
