// Baseline check appArmorProfile (1.0+): the AppArmor profile of the pod
// and of each container is RuntimeDefault, Localhost or unset; the
// deprecated per-container annotations are runtime/default, localhost/*
// or empty.

import { goQuote } from '../../../../api/go-format.ts';
import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { containers, containersPhrase, joinQuote, nameOf, pluralize, sortedSet } from './util.ts';

const ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

const allowedType = (t: string | undefined): boolean => t === 'RuntimeDefault' || t === 'Localhost';
const allowedAnnotation = (v: string): boolean => v === '' || v === 'runtime/default' || v.startsWith('localhost/');

const appArmorProfile_1_0: CheckPod = (meta, spec) => {
  const setters: string[] = [];
  const badValues: string[] = [];
  const podProfile = spec.securityContext?.appArmorProfile;
  if (podProfile && !allowedType(podProfile.type)) {
    setters.push('pod');
    badValues.push(podProfile.type ?? '');
  }
  const bad: string[] = [];
  for (const c of containers(spec)) {
    const profile = c.securityContext?.appArmorProfile;
    if (profile && !allowedType(profile.type)) {
      bad.push(nameOf(c));
      badValues.push(profile.type ?? '');
    }
  }
  if (bad.length) setters.push(containersPhrase(bad));
  const values = sortedSet(badValues);
  const annotations = Object.entries(meta.annotations ?? {})
    .filter(([k, v]) => k.startsWith(ANNOTATION_PREFIX) && !allowedAnnotation(v))
    .map(([k, v]) => `${k}=${goQuote(v)}`);
  if (annotations.length) {
    values.push(...sortedSet(annotations));
    setters.push(pluralize('annotation', 'annotations', annotations.length));
  }
  if (!setters.length) return ALLOWED;
  return forbidden(pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length), `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}`);
};

export const appArmorProfile: Check = { id: 'appArmorProfile', level: 'baseline', versions: [{ minVersion: v1(0), check: appArmorProfile_1_0 }] };
