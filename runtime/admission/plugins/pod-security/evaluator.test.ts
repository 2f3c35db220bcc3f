// The evaluator: which checks run at each level and version, in upstream's
// order (baseline ids sorted, then restricted ids sorted), restricted
// checks replacing the baseline ones they cover, and the aggregated texts.

import { describe, expect, it } from 'vitest';
import { LATEST, v1 } from './api.ts';
import { forbiddenDetail, forbiddenReason, newEvaluator } from './evaluator.ts';

const ev = newEvaluator();

const privilegedPod = {
  hostNetwork: true,
  volumes: [{ name: 'h', hostPath: { path: '/' } }],
  containers: [{ name: 'c', securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] }, seccompProfile: { type: 'Unconfined' } } }],
};

describe('evaluator', () => {
  it('privileged allows anything', () => {
    expect(ev.evaluate({ level: 'privileged', version: LATEST }, {}, privilegedPod).allowed).toBe(true);
  });

  it('baseline: the baseline checks in id order', () => {
    const r = ev.evaluate({ level: 'baseline', version: LATEST }, {}, privilegedPod);
    expect(forbiddenReason(r)).toBe('non-default capabilities, host namespaces, hostPath volumes, privileged, seccompProfile');
  });

  it('restricted: overridden baseline checks give way to their restricted counterparts', () => {
    const r = ev.evaluate({ level: 'restricted', version: LATEST }, {}, privilegedPod);
    expect(forbiddenDetail(r)).toBe(
      'host namespaces (hostNetwork), privileged (container "c" must not set securityContext.privileged=true), ' +
        'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "SYS_ADMIN" in securityContext.capabilities.add), ' +
        'restricted volume types (volume "h" uses restricted volume type "hostPath"), ' +
        'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
    );
  });

  it('restricted before 1.22 keeps the baseline capabilities check; before 1.19 the baseline seccomp one (which reads annotations only)', () => {
    expect(forbiddenReason(ev.evaluate({ level: 'restricted', version: v1(21) }, {}, privilegedPod))).toBe(
      'non-default capabilities, host namespaces, privileged, allowPrivilegeEscalation != false, restricted volume types, runAsNonRoot != true, seccompProfile',
    );
    expect(forbiddenReason(ev.evaluate({ level: 'restricted', version: v1(18) }, {}, privilegedPod))).toBe(
      'non-default capabilities, host namespaces, privileged, allowPrivilegeEscalation != false, restricted volume types, runAsNonRoot != true',
    );
  });

  it('a version newer than any check evaluates as the newest; runAsUser applies from 1.23', () => {
    const pod = {
      containers: [{ name: 'c', securityContext: { runAsUser: 0, runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } } }],
    };
    expect(forbiddenReason(ev.evaluate({ level: 'restricted', version: v1(99) }, {}, pod))).toBe('runAsUser=0');
    expect(ev.evaluate({ level: 'restricted', version: v1(22) }, {}, pod).allowed).toBe(true);
  });

  it('a detail-less reason prints bare', () => {
    expect(forbiddenDetail({ allowed: false, reasons: ['a', 'b'], details: ['', 'x'] })).toBe('a, b (x)');
  });
});
