// The Pod Security Standards checks of kube-apiserver 1.31 (upstream's
// DefaultChecks), baseline and restricted.

import { allowPrivilegeEscalation } from './allow-privilege-escalation.ts';
import { appArmorProfile } from './app-armor-profile.ts';
import { capabilitiesBaseline } from './capabilities-baseline.ts';
import { capabilitiesRestricted } from './capabilities-restricted.ts';
import { hostNamespaces } from './host-namespaces.ts';
import { hostPathVolumes } from './host-path-volumes.ts';
import { hostPorts } from './host-ports.ts';
import { privileged } from './privileged.ts';
import { procMount } from './proc-mount.ts';
import { restrictedVolumes } from './restricted-volumes.ts';
import { runAsNonRoot } from './run-as-non-root.ts';
import { runAsUser } from './run-as-user.ts';
import { seccompProfileBaseline } from './seccomp-baseline.ts';
import { seccompProfileRestricted } from './seccomp-restricted.ts';
import { seLinuxOptionsCheck } from './selinux-options.ts';
import { sysctls } from './sysctls.ts';
import type { Check } from './types.ts';
import { windowsHostProcess } from './windows-host-process.ts';

export const DEFAULT_CHECKS: readonly Check[] = [
  appArmorProfile,
  capabilitiesBaseline,
  hostNamespaces,
  hostPathVolumes,
  hostPorts,
  privileged,
  procMount,
  seLinuxOptionsCheck,
  seccompProfileBaseline,
  sysctls,
  windowsHostProcess,
  allowPrivilegeEscalation,
  capabilitiesRestricted,
  restrictedVolumes,
  runAsNonRoot,
  runAsUser,
  seccompProfileRestricted,
];
