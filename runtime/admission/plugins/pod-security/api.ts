// Pod Security levels, policy versions and the namespace labels that pick
// them (k8s.io/pod-security-admission/api): `pod-security.kubernetes.io/
// <mode>` names a level (privileged, baseline, restricted) and
// `<mode>-version` a version (`latest` or `v1.<minor>`). An invalid level
// is read as restricted for enforce and privileged for audit and warn (fail
// closed, fail open); an invalid version as latest; each invalid label is a
// field error on metadata.labels[<label>] with upstream's detail text.

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';

export type Level = 'privileged' | 'baseline' | 'restricted';

export const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/**
 * A policy version: a minor of 1.x (its digits kept as written, since a
 * minor past 2^53 still prints as sent), or latest (newer than any minor).
 */
export type Version = { latest: true } | { latest: false; minor: number; digits: string };

export const LATEST: Version = { latest: true };

export const v1 = (minor: number): Version => ({ latest: false, minor, digits: String(minor) });

export const versionString = (v: Version): string => (v.latest ? 'latest' : `v1.${v.digits}`);

export interface LevelVersion {
  level: Level;
  version: Version;
}

/** `restricted:latest`, as upstream prints a LevelVersion. */
export const levelVersionString = (lv: LevelVersion): string => `${lv.level}:${versionString(lv.version)}`;

export const sameLevelVersion = (a: LevelVersion, b: LevelVersion): boolean => levelVersionString(a) === levelVersionString(b);

export interface Policy {
  enforce: LevelVersion;
  audit: LevelVersion;
  warn: LevelVersion;
}

export const LABEL_PREFIX = 'pod-security.kubernetes.io/';
export const MODES = ['enforce', 'audit', 'warn'] as const;

/** The default policy with no AdmissionConfiguration: privileged:latest in every mode. */
export const DEFAULT_POLICY: Policy = {
  enforce: { level: 'privileged', version: LATEST },
  audit: { level: 'privileged', version: LATEST },
  warn: { level: 'privileged', version: LATEST },
};

export const fullyPrivileged = (p: Policy): boolean => p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';

const VERSION_RE = /^v1\.([0-9]|[1-9][0-9]*)$/;
const MAX_INT64 = 2n ** 63n - 1n;

export function parseLevel(s: string): Level | undefined {
  return (LEVELS as readonly string[]).includes(s) ? (s as Level) : undefined;
}

export function parseVersion(s: string): Version | undefined {
  if (s === 'latest') return LATEST;
  const m = VERSION_RE.exec(s);
  if (!m) return undefined;
  // a minor past what Go's int holds is an error upstream (strconv.Atoi fails)
  if (BigInt(m[1]) > MAX_INT64) return undefined;
  return { latest: false, minor: Number(m[1]), digits: m[1] };
}

/** Whether version a is older than b (latest is never older). */
export function older(a: Version, b: Version): boolean {
  if (a.latest) return false;
  if (b.latest) return true;
  return a.minor < b.minor;
}

/** -1, 0 or 1 as level a is less strict, as strict or stricter than b. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(LEVELS.indexOf(a) - LEVELS.indexOf(b));
}

export const LEVEL_DETAIL = `must be one of ${LEVELS.join(', ')}`;
export const VERSION_DETAIL = 'must be "latest" or "v1.x"';

/**
 * The policy a namespace's labels ask for, the defaults for labels not
 * set; always a usable policy, with the field errors of the invalid labels.
 */
export function policyToEvaluate(labels: Record<string, string> | undefined, defaults: Policy = DEFAULT_POLICY): { policy: Policy; errors: FieldError[] } {
  const policy: Policy = { enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn } };
  const errors: FieldError[] = [];
  if (!labels) return { policy, errors };
  const field = (label: string) => `metadata.labels[${label}]`;
  for (const mode of MODES) {
    const levelLabel = LABEL_PREFIX + mode;
    const level = labels[levelLabel];
    if (level !== undefined) {
      const parsed = parseLevel(level);
      if (!parsed) errors.push(fieldErrors.invalid(field(levelLabel), level, LEVEL_DETAIL));
      policy[mode].level = parsed ?? (mode === 'enforce' ? 'restricted' : 'privileged');
    }
    const versionLabel = `${levelLabel}-version`;
    const version = labels[versionLabel];
    if (version !== undefined) {
      const parsed = parseVersion(version);
      if (!parsed) errors.push(fieldErrors.invalid(field(versionLabel), version, VERSION_DETAIL));
      policy[mode].version = parsed ?? LATEST;
    }
  }
  return { policy, errors };
}
