// PodSecurity's configuration from the AdmissionConfiguration file:
// `PodSecurityConfiguration` (pod-security.admission.config.k8s.io/v1 or
// v1beta1) with `defaults` (the level and version of each mode whose
// namespace label is not set; privileged and latest when left out) and
// `exemptions` (usernames, runtimeClasses, namespaces). Decoded and checked
// as upstream's loader and ValidatePodSecurityConfiguration do; a problem
// is an Error whose message is upstream's (field errors aggregated).

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { validateDNS1123Label, validateDNS1123Subdomain } from '../../../api/validation.ts';
import { type PluginConfiguration, decodeTyped } from '../../../config/admission-config.ts';
import { type Policy, DEFAULT_POLICY, LATEST, LEVEL_DETAIL, MODES, VERSION_DETAIL, parseLevel, parseVersion } from './api.ts';

export const POD_SECURITY_CONFIG_KINDS = [
  { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration' },
  { apiVersion: 'pod-security.admission.config.k8s.io/v1beta1', kind: 'PodSecurityConfiguration' },
];

export interface Exemptions {
  usernames: string[];
  runtimeClasses: string[];
  namespaces: string[];
}

export interface PodSecurityConfig {
  defaults: Policy;
  exemptions: Exemptions;
}

/** The configuration without an AdmissionConfiguration entry: privileged:latest, no exemptions. */
export const DEFAULT_POD_SECURITY_CONFIG: PodSecurityConfig = { defaults: DEFAULT_POLICY, exemptions: { usernames: [], runtimeClasses: [], namespaces: [] } };

const strings = (v: unknown, field: string): string[] => {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new Error(`json: cannot unmarshal into Go struct field PodSecurityExemptions.exemptions.${field} of type []string`);
  return v as string[];
};

const str = (v: unknown, field: string): string => {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${typeof v} into Go struct field PodSecurityDefaults.defaults.${field} of type string`);
  return v;
};

/** Field errors of a list of names: invalid ones, then repeats (upstream's validateNamespaces / validateRuntimeClasses / validateUsernames). */
function checkNames(path: string, names: string[], check: (n: string) => string[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  names.forEach((n, i) => {
    const problems = check(n);
    if (problems.length) errs.push(fieldErrors.invalid(`${path}[${i}]`, n, problems.join(', ')));
    else if (seen.has(n)) errs.push(fieldErrors.duplicate(`${path}[${i}]`, n));
    else seen.add(n);
  });
  return errs;
}

const aggregate = (errs: FieldError[]): string => (errs.length === 1 ? errs[0].toString() : `[${errs.map(String).join(', ')}]`);

/** Decodes, defaults and validates PodSecurity's entry; undefined gives the defaults. */
export function parsePodSecurityConfig(entry: PluginConfiguration | undefined): PodSecurityConfig {
  if (!entry) return DEFAULT_POD_SECURITY_CONFIG;
  const doc = decodeTyped(entry.value, POD_SECURITY_CONFIG_KINDS);
  const d = (doc.defaults ?? {}) as Record<string, unknown>;
  const ex = (doc.exemptions ?? {}) as Record<string, unknown>;
  const errs: FieldError[] = [];
  const defaults: Policy = { enforce: { ...DEFAULT_POLICY.enforce }, audit: { ...DEFAULT_POLICY.audit }, warn: { ...DEFAULT_POLICY.warn } };
  // upstream checks enforce, warn, audit in that order
  for (const mode of ['enforce', 'warn', 'audit'] as const) {
    const level = str(d[mode], mode) || 'privileged';
    const version = str(d[`${mode}-version`], `${mode}-version`) || 'latest';
    const l = parseLevel(level);
    const v = parseVersion(version);
    if (!l) errs.push(fieldErrors.invalid(`defaults.${mode}`, level, LEVEL_DETAIL));
    if (!v) errs.push(fieldErrors.invalid(`defaults.${mode}-version`, version, VERSION_DETAIL));
    defaults[mode] = { level: l ?? 'privileged', version: v ?? LATEST };
  }
  const exemptions: Exemptions = {
    usernames: strings(ex.usernames, 'usernames'),
    runtimeClasses: strings(ex.runtimeClasses, 'runtimeClasses'),
    namespaces: strings(ex.namespaces, 'namespaces'),
  };
  errs.push(...checkNames('exemptions.namespaces', exemptions.namespaces, validateDNS1123Label));
  errs.push(...checkNames('exemptions.runtimeClasses', exemptions.runtimeClasses, validateDNS1123Subdomain));
  errs.push(...checkNames('exemptions.usernames', exemptions.usernames, (n) => (n === '' ? ['username must not be empty'] : [])));
  if (errs.length) throw new Error(aggregate(errs));
  return { defaults, exemptions };
}

/** Whether two policies are the same for every mode, a privileged level whatever its version (upstream's Policy.Equivalent). */
export function equivalentPolicies(a: Policy, b: Policy): boolean {
  return MODES.every(
    (m) => a[m].level === b[m].level && (a[m].level === 'privileged' || (a[m].version.latest ? b[m].version.latest : !b[m].version.latest && a[m].version.minor === b[m].version.minor)),
  );
}
