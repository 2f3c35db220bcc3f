// Baseline check hostPorts (1.0+): no container port sets a hostPort.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, nameOf, pluralize, sortedSet } from './util.ts';

const hostPorts_1_0: CheckPod = (_meta, spec) => {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const c of containers(spec)) {
    const used = (c.ports ?? []).filter((p) => p.hostPort != null && p.hostPort !== 0).map((p) => String(p.hostPort));
    if (used.length) {
      bad.push(nameOf(c));
      ports.push(...used);
    }
  }
  if (!bad.length) return ALLOWED;
  // the ports sorted as strings, as Go's string set lists them
  const list = sortedSet(ports);
  return forbidden('hostPort', `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', list.length)} ${list.join(', ')}`);
};

export const hostPorts: Check = { id: 'hostPorts', level: 'baseline', versions: [{ minVersion: v1(0), check: hostPorts_1_0 }] };
