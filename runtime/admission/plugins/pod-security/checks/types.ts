// What a Pod Security check is (k8s.io/pod-security-admission/policy): an
// id, the level it belongs to, and its revisions by the first policy
// version each applies to; a revision may override baseline checks that a
// restricted one covers (their failures would repeat). A check reads the
// pod's metadata and spec as JSON and says allowed, or why not: a short
// reason always shown and a detail shown for a single object.

import type { Level, Version } from '../api.ts';

export interface SecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  runAsNonRoot?: boolean;
  runAsUser?: number;
  seccompProfile?: { type?: string };
  seLinuxOptions?: SELinuxOptions;
  procMount?: string;
  windowsOptions?: { hostProcess?: boolean };
  appArmorProfile?: { type?: string };
}

export interface SELinuxOptions {
  type?: string;
  user?: string;
  role?: string;
  level?: string;
}

export interface Container {
  name?: string;
  image?: string;
  ports?: { hostPort?: number }[];
  securityContext?: SecurityContext;
}

export interface PodSecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  seccompProfile?: { type?: string };
  seLinuxOptions?: SELinuxOptions;
  windowsOptions?: { hostProcess?: boolean };
  appArmorProfile?: { type?: string };
  sysctls?: { name?: string }[];
}

export type Volume = { name?: string } & Record<string, unknown>;

export interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: Volume[];
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  securityContext?: PodSecurityContext;
  os?: { name?: string };
  runtimeClassName?: string;
}

export interface PodMeta {
  name?: string;
  annotations?: Record<string, string>;
}

export interface CheckResult {
  allowed: boolean;
  /** Set when not allowed: always shown (`host ports`). */
  reason?: string;
  /** Optional when not allowed: shown for a single object (`8080, 9090`). */
  detail?: string;
}

export type CheckPod = (meta: PodMeta, spec: PodSpec) => CheckResult;

export interface VersionedCheck {
  /** The first policy version this revision applies to. */
  minVersion: Version;
  check: CheckPod;
  /** Baseline check ids this (restricted) revision covers and replaces. */
  overrides?: string[];
}

export interface Check {
  id: string;
  level: Exclude<Level, 'privileged'>;
  /** Revisions in strictly increasing minVersion order. */
  versions: VersionedCheck[];
}

export const ALLOWED: CheckResult = { allowed: true };

export const forbidden = (reason: string, detail: string): CheckResult => ({ allowed: false, reason, detail });
