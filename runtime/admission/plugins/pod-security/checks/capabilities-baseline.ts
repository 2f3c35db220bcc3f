// Baseline check capabilities_baseline (1.0+): containers add only
// capabilities of the default set.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, joinQuote, nameOf, sortedSet } from './util.ts';

export const CAPABILITIES_BASELINE_ID = 'capabilities_baseline';

const ALLOWED_1_0 = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

const capabilitiesBaseline_1_0: CheckPod = (_meta, spec) => {
  const bad: string[] = [];
  const caps: string[] = [];
  for (const c of containers(spec)) {
    const added = (c.securityContext?.capabilities?.add ?? []).filter((cap) => !ALLOWED_1_0.has(cap));
    if (added.length) {
      bad.push(nameOf(c));
      caps.push(...added);
    }
  }
  if (!bad.length) return ALLOWED;
  return forbidden('non-default capabilities', `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`);
};

export const capabilitiesBaseline: Check = { id: CAPABILITIES_BASELINE_ID, level: 'baseline', versions: [{ minVersion: v1(0), check: capabilitiesBaseline_1_0 }] };
