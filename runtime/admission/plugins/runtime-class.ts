// RuntimeClass admission, as kube-apiserver's plugin of that name, on Pods
// created with spec.runtimeClassName (403 `pod rejected: RuntimeClass "x"
// not found` when there is no such class):
//   - mutating: the class's overhead.podFixed becomes spec.overhead (a Pod
//     that sets a different, non-empty overhead is refused); the class's
//     scheduling.nodeSelector is merged into the Pod's (a key the Pod sets
//     to another value is refused, naming both) and its tolerations merged
//     with the Pod's, keeping only the broadest of overlapping ones
//     (upstream's MergeTolerations);
//   - validating: spec.overhead must equal the class's overhead, and a Pod
//     without a class with an overhead may not set a non-empty one.

import { QuantityValue } from '../../cel/libs/quantity-parse.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';
import type { ClusterObjects } from './cluster-objects.ts';
import { admissionForbidden } from './forbidden.ts';
import { isObj, listField, objectField } from './fields.ts';

const OVERHEAD_MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
const OVERHEAD_WITHOUT_CLASS = 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead';

type Toleration = { key: string; operator: string; value: string; effect: string; tolerationSeconds: number | null };

/** Semantic equality of two resource lists: nil and empty alike, quantities by value. */
export function resourceListsEqual(a: unknown, b: unknown): boolean {
  const x = isObj(a) ? a : {};
  const y = isObj(b) ? b : {};
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => {
    if (!(k in y)) return false;
    try {
      return QuantityValue.parse(String(x[k])).cmp(QuantityValue.parse(String(y[k]))) === 0;
    } catch {
      return x[k] === y[k];
    }
  });
}

/** A non-empty resource list (an empty overhead counts as none, as since upstream's fix for `overhead: {}`). */
const hasEntries = (v: unknown): boolean => isObj(v) && Object.keys(v).length > 0;

function norm(t: Obj): Toleration {
  return {
    key: String(t?.key ?? ''),
    operator: String(t?.operator ?? ''),
    value: String(t?.value ?? ''),
    effect: String(t?.effect ?? ''),
    tolerationSeconds: typeof t?.tolerationSeconds === 'number' ? t.tolerationSeconds : null,
  };
}

const sameToleration = (a: Toleration, b: Toleration): boolean =>
  a.key === b.key && a.operator === b.operator && a.value === b.value && a.effect === b.effect && a.tolerationSeconds === b.tolerationSeconds;

/** Whether `ss` tolerates everything `t` does (upstream's isSuperset). */
function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (sameToleration(ss, t)) return true;
  // an empty key with Exists matches every key
  if (t.key !== ss.key && (ss.key !== '' || ss.operator !== 'Exists')) return false;
  // an empty effect matches every effect
  if (t.effect !== ss.effect && ss.effect !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== null && (t.tolerationSeconds === null || t.tolerationSeconds > ss.tolerationSeconds)) return false;
  if (ss.operator === 'Equal' || ss.operator === '') return t.operator === 'Equal' && t.value === ss.value;
  return ss.operator === 'Exists';
}

/** Upstream's MergeTolerations: both lists in order, without any toleration another one (kept) covers; of equal ones the first. */
export function mergeTolerations(first: Obj[], second: Obj[]): Obj[] {
  const all = [...first, ...second];
  const normed = all.map(norm);
  const merged: Obj[] = [];
  const mergedNormed: Toleration[] = [];
  outer: for (let i = 0; i < all.length; i++) {
    const t = normed[i];
    for (const m of mergedNormed) if (isSuperset(m, t)) continue outer;
    for (let j = i + 1; j < all.length; j++) if (!sameToleration(t, normed[j]) && isSuperset(normed[j], t)) continue outer;
    merged.push(all[i]);
    mergedNormed.push(t);
  }
  return merged;
}

const appliesTo = (attrs: AdmissionAttributes): boolean => attrs.operation === 'CREATE' && attrs.group === '' && attrs.resource === 'pods' && attrs.subresource === '';

async function classOf(classes: ClusterObjects, attrs: AdmissionAttributes, spec: Obj): Promise<Obj | undefined> {
  if (spec.runtimeClassName == null) return undefined;
  const name = String(spec.runtimeClassName);
  const rc = await classes.get(name);
  if (!rc) throw admissionForbidden(attrs, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
  return rc;
}

function setOverhead(attrs: AdmissionAttributes, spec: Obj, rc: Obj | undefined): void {
  if (rc?.overhead == null) return;
  const fixed = rc.overhead.podFixed;
  if (hasEntries(spec.overhead) && !resourceListsEqual(fixed, spec.overhead)) throw admissionForbidden(attrs, OVERHEAD_MISMATCH);
  if (fixed == null) delete spec.overhead;
  else spec.overhead = structuredClone(fixed);
}

function setScheduling(attrs: AdmissionAttributes, spec: Obj, rc: Obj | undefined): void {
  const scheduling = rc?.scheduling;
  if (scheduling == null) return;
  // a nodeSelector or tolerations of the wrong type are validation's to refuse
  const own = listField(spec, 'tolerations');
  if (!own || (spec.nodeSelector != null && !isObj(spec.nodeSelector))) return;
  const runtimeSelector: Record<string, string> = isObj(scheduling.nodeSelector) ? scheduling.nodeSelector : {};
  let selector: Record<string, string> | undefined;
  if (spec.nodeSelector == null) selector = isObj(scheduling.nodeSelector) ? { ...runtimeSelector } : undefined;
  else {
    const merged: Record<string, string> = { ...spec.nodeSelector };
    for (const [key, value] of Object.entries(runtimeSelector)) {
      const podValue = merged[key];
      if (podValue !== undefined && podValue !== value) {
        throw admissionForbidden(attrs, `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}`);
      }
      merged[key] = value;
    }
    selector = merged;
  }
  const tolerations = mergeTolerations(own as Obj[], Array.isArray(scheduling.tolerations) ? structuredClone(scheduling.tolerations) : []);
  if (selector === undefined) delete spec.nodeSelector;
  else spec.nodeSelector = selector;
  if (tolerations.length) spec.tolerations = tolerations;
  else delete spec.tolerations;
}

export function runtimeClassPlugin(classes: ClusterObjects): AdmissionPlugin {
  return {
    name: 'RuntimeClass',
    handles: appliesTo,
    async admit(attrs) {
      const pod = attrs.object;
      if (!appliesTo(attrs) || !isObj(pod)) return;
      const spec = objectField(pod, 'spec');
      if (!spec) return;
      const rc = await classOf(classes, attrs, spec);
      setOverhead(attrs, spec, rc);
      setScheduling(attrs, spec, rc);
    },
    async validate(attrs) {
      const pod = attrs.object;
      if (!appliesTo(attrs) || !isObj(pod)) return;
      const spec: Obj = isObj(pod.spec) ? pod.spec : {};
      const rc = await classOf(classes, attrs, spec);
      if (rc?.overhead != null) {
        if (!resourceListsEqual(rc.overhead.podFixed, spec.overhead)) throw admissionForbidden(attrs, OVERHEAD_MISMATCH);
      } else if (hasEntries(spec.overhead)) throw admissionForbidden(attrs, OVERHEAD_WITHOUT_CLASS);
    },
  };
}
