// Baseline check windowsHostProcess (1.0+): neither the pod nor a
// container sets securityContext.windowsOptions.hostProcess=true.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, nameOf } from './util.ts';

const windowsHostProcess_1_0: CheckPod = (_meta, spec) => {
  const bad = containers(spec)
    .filter((c) => c.securityContext?.windowsOptions?.hostProcess === true)
    .map(nameOf);
  const setters: string[] = [];
  if (spec.securityContext?.windowsOptions?.hostProcess === true) setters.push('pod');
  if (bad.length) setters.push(containersPhrase(bad));
  return setters.length ? forbidden('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`) : ALLOWED;
};

export const windowsHostProcess: Check = { id: 'windowsHostProcess', level: 'baseline', versions: [{ minVersion: v1(0), check: windowsHostProcess_1_0 }] };
