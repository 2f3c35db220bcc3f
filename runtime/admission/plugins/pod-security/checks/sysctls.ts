// Baseline check sysctls: only the safe sysctls; the safe set grew in
// 1.27 (net.ipv4.ip_local_reserved_ports) and 1.29 (TCP keepalive and
// fin timeout).

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';

const SAFE_1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const SAFE_1_27 = [...SAFE_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SAFE_1_29 = [...SAFE_1_27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];

const sysctlsCheck = (safe: string[]): CheckPod => {
  const allowed = new Set(safe);
  return (_meta, spec) => {
    // in the pod's order, repeats kept, as upstream lists them
    const bad = (spec.securityContext?.sysctls ?? []).map((s) => s.name ?? '').filter((n) => !allowed.has(n));
    return bad.length ? forbidden('forbidden sysctls', bad.join(', ')) : ALLOWED;
  };
};

export const sysctls: Check = {
  id: 'sysctls',
  level: 'baseline',
  versions: [
    { minVersion: v1(0), check: sysctlsCheck(SAFE_1_0) },
    { minVersion: v1(27), check: sysctlsCheck(SAFE_1_27) },
    { minVersion: v1(29), check: sysctlsCheck(SAFE_1_29) },
  ],
};
