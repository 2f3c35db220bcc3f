// PodSecurityConfiguration: versions, defaulting of unset modes, and
// upstream's validation messages for levels, versions and exemptions.

import { describe, expect, it } from 'vitest';
import { DEFAULT_POD_SECURITY_CONFIG, equivalentPolicies, parsePodSecurityConfig } from './config.ts';
import { DEFAULT_POLICY, LATEST, v1 } from './api.ts';

const entry = (value: unknown) => ({ value, source: 'inline' });
const V1 = 'pod-security.admission.config.k8s.io/v1';

describe('parsePodSecurityConfig', () => {
  it('defaults without an entry, and for modes left out', () => {
    expect(parsePodSecurityConfig(undefined)).toBe(DEFAULT_POD_SECURITY_CONFIG);
    const c = parsePodSecurityConfig(entry({ apiVersion: V1, kind: 'PodSecurityConfiguration', defaults: { enforce: 'baseline', 'warn-version': 'v1.25' } }));
    expect(c.defaults).toEqual({
      enforce: { level: 'baseline', version: LATEST },
      audit: { level: 'privileged', version: LATEST },
      warn: { level: 'privileged', version: v1(25) },
    });
    expect(c.exemptions).toEqual({ usernames: [], runtimeClasses: [], namespaces: [] });
  });

  it('reads v1beta1 and the exemptions', () => {
    const c = parsePodSecurityConfig(
      entry({
        apiVersion: 'pod-security.admission.config.k8s.io/v1beta1',
        kind: 'PodSecurityConfiguration',
        exemptions: { usernames: ['admin'], runtimeClasses: ['kata'], namespaces: ['kube-system'] },
      }),
    );
    expect(c.exemptions).toEqual({ usernames: ['admin'], runtimeClasses: ['kata'], namespaces: ['kube-system'] });
  });

  const rows: [string, unknown, string][] = [
    ['a bad level', { defaults: { enforce: 'strict' } }, 'defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted'],
    ['a bad version', { defaults: { 'audit-version': '1.25' } }, 'defaults.audit-version: Invalid value: "1.25": must be "latest" or "v1.x"'],
    ['a bad namespace', { exemptions: { namespaces: ['Bad_NS'] } }, 'exemptions.namespaces[0]: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of'],
    ['a repeated runtime class', { exemptions: { runtimeClasses: ['a', 'a'] } }, 'exemptions.runtimeClasses[1]: Duplicate value: "a"'],
    ['an empty username', { exemptions: { usernames: [''] } }, 'exemptions.usernames[0]: Invalid value: "": username must not be empty'],
    [
      'several problems',
      { defaults: { enforce: 'x', warn: 'y' } },
      '[defaults.enforce: Invalid value: "x": must be one of privileged, baseline, restricted, defaults.warn: Invalid value: "y": must be one of privileged, baseline, restricted]',
    ],
  ];
  it.each(rows)('refuses %s', (_, body, message) => {
    expect(() => parsePodSecurityConfig(entry({ apiVersion: V1, kind: 'PodSecurityConfiguration', ...(body as object) }))).toThrow(message);
  });

  it('refuses another kind', () => {
    expect(() => parsePodSecurityConfig(entry({ apiVersion: V1, kind: 'Other' }))).toThrow(`no kind "Other" is registered for version "${V1}"`);
  });
});

describe('equivalentPolicies', () => {
  it('ignores the version of privileged levels only', () => {
    const p = (level: 'privileged' | 'baseline', minor?: number) => ({ ...DEFAULT_POLICY, enforce: { level, version: minor === undefined ? LATEST : v1(minor) } });
    expect(equivalentPolicies(p('privileged', 20), p('privileged'))).toBe(true);
    expect(equivalentPolicies(p('baseline', 20), p('baseline'))).toBe(false);
    expect(equivalentPolicies(p('baseline', 20), p('baseline', 20))).toBe(true);
  });
});
