// Baseline check seLinuxOptions (1.0+; 1.31 allows container_engine_t):
// the SELinux type of the pod and each container is one of the container
// types or empty, and user and role are not set.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, type SELinuxOptions, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, joinQuote, nameOf, pluralize, sortedSet } from './util.ts';

const TYPES_1_0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const TYPES_1_31 = new Set([...TYPES_1_0, 'container_engine_t']);

const seLinuxOptions =
  (allowedTypes: Set<string>): CheckPod =>
  (_meta, spec) => {
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const valid = (o: SELinuxOptions): boolean => {
      let ok = true;
      if (!allowedTypes.has(o.type ?? '')) {
        ok = false;
        badTypes.push(o.type ?? '');
      }
      if (o.user) {
        ok = false;
        setUser = true;
      }
      if (o.role) {
        ok = false;
        setRole = true;
      }
      return ok;
    };
    const setters: string[] = [];
    const podOpts = spec.securityContext?.seLinuxOptions;
    if (podOpts && !valid(podOpts)) setters.push('pod');
    const bad: string[] = [];
    for (const c of containers(spec)) {
      const o = c.securityContext?.seLinuxOptions;
      if (o && !valid(o)) bad.push(nameOf(c));
    }
    if (bad.length) setters.push(containersPhrase(bad));
    if (!setters.length) return ALLOWED;
    const data: string[] = [];
    const types = sortedSet(badTypes);
    if (types.length) data.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
    if (setUser) data.push('user may not be set');
    if (setRole) data.push('role may not be set');
    return forbidden('seLinuxOptions', `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`);
  };

export const seLinuxOptionsCheck: Check = {
  id: 'seLinuxOptions',
  level: 'baseline',
  versions: [
    { minVersion: v1(0), check: seLinuxOptions(TYPES_1_0) },
    { minVersion: v1(31), check: seLinuxOptions(TYPES_1_31) },
  ],
};
