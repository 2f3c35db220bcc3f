// Baseline check seccompProfile_baseline: before 1.19 the alpha seccomp
// annotations are runtime/default, docker/default or localhost/*; from
// 1.19 the seccompProfile type of the pod and each container is
// RuntimeDefault, Localhost or unset.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, joinQuote, nameOf, pluralize, sortedSet } from './util.ts';
import { goQuote } from '../../../../api/go-format.ts';

export const SECCOMP_BASELINE_ID = 'seccompProfile_baseline';

const POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

export const validSeccompType = (t: string | undefined): boolean => t === 'Localhost' || t === 'RuntimeDefault';
const validAnnotation = (v: string): boolean => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');

const seccompProfileBaseline_1_0: CheckPod = (meta, spec) => {
  const annotations = meta.annotations ?? {};
  const bad: string[] = [];
  const check = (key: string) => {
    const v = annotations[key];
    if (v !== undefined && !validAnnotation(v)) bad.push(`${key}=${goQuote(v)}`);
  };
  check(POD_ANNOTATION);
  for (const c of containers(spec)) check(CONTAINER_ANNOTATION_PREFIX + nameOf(c));
  if (!bad.length) return ALLOWED;
  const list = sortedSet(bad);
  return forbidden('seccompProfile', `forbidden ${pluralize('annotation', 'annotations', list.length)} ${list.join(', ')}`);
};

const seccompProfileBaseline_1_19: CheckPod = (_meta, spec) => {
  const setters: string[] = [];
  const values: string[] = [];
  const podProfile = spec.securityContext?.seccompProfile;
  if (podProfile && !validSeccompType(podProfile.type)) {
    setters.push('pod');
    values.push(podProfile.type ?? '');
  }
  const bad: string[] = [];
  for (const c of containers(spec)) {
    const p = c.securityContext?.seccompProfile;
    if (p && !validSeccompType(p.type)) {
      bad.push(nameOf(c));
      values.push(p.type ?? '');
    }
  }
  if (bad.length) setters.push(containersPhrase(bad));
  if (!setters.length) return ALLOWED;
  return forbidden('seccompProfile', `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}`);
};

export const seccompProfileBaseline: Check = {
  id: SECCOMP_BASELINE_ID,
  level: 'baseline',
  versions: [
    { minVersion: v1(0), check: seccompProfileBaseline_1_0 },
    { minVersion: v1(19), check: seccompProfileBaseline_1_19 },
  ],
};
