// Restricted check capabilities_restricted (1.22+; from 1.25 Windows pods
// are not checked): every container drops ALL and adds at most
// NET_BIND_SERVICE. Replaces capabilities_baseline in restricted.

import { v1 } from '../api.ts';
import { CAPABILITIES_BASELINE_ID } from './capabilities-baseline.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, isWindowsPod, joinQuote, nameOf, sortedSet } from './util.ts';

const capabilitiesRestricted_1_22: CheckPod = (_meta, spec) => {
  const missingDropAll: string[] = [];
  const adding: string[] = [];
  const caps: string[] = [];
  for (const c of containers(spec)) {
    const capabilities = c.securityContext?.capabilities;
    if (!capabilities) {
      missingDropAll.push(nameOf(c));
      continue;
    }
    if (!(capabilities.drop ?? []).includes('ALL')) missingDropAll.push(nameOf(c));
    const added = (capabilities.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (added.length) {
      adding.push(nameOf(c));
      caps.push(...added);
    }
  }
  const details: string[] = [];
  if (missingDropAll.length) details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length) details.push(`${containersPhrase(adding)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`);
  return details.length ? forbidden('unrestricted capabilities', details.join('; ')) : ALLOWED;
};

const capabilitiesRestricted_1_25: CheckPod = (meta, spec) => (isWindowsPod(spec) ? ALLOWED : capabilitiesRestricted_1_22(meta, spec));

export const capabilitiesRestricted: Check = {
  id: 'capabilities_restricted',
  level: 'restricted',
  versions: [
    { minVersion: v1(22), check: capabilitiesRestricted_1_22, overrides: [CAPABILITIES_BASELINE_ID] },
    { minVersion: v1(25), check: capabilitiesRestricted_1_25, overrides: [CAPABILITIES_BASELINE_ID] },
  ],
};
