// metadata.generation, per kind, as kube-apiserver 1.31 keeps it. Generic
// rules (k8s.io/apiserver registry/rest): a create keeps what the client
// sent, an update never changes it (the stored value is carried over).
// Only some kinds' strategies (pkg/registry/<group>/<resource>/strategy.go)
// set it to 1 on create and move it when what it counts changes; this file
// is the one table of which kinds do and what they count. Every kind not in
// the table (ConfigMap, Secret, Service, Pod, Namespace, RBAC, ...) leaves
// it alone.

import type { ResourceDef } from '../../generated/api-types.ts';
import type { Obj } from '../storage/interface.ts';
import { jsonEqual, typedEqual } from '../api/json-equal.ts';

export interface GenerationRule {
  /** PrepareForCreate sets 1 (false: the client's value stays, as CSIDriver's strategy has it). */
  setOnCreate: boolean;
  /** PrepareForUpdate: the update changed what the generation counts (then it becomes old + 1). */
  changed(obj: Obj, old: Obj): boolean;
}

/**
 * A top-level field differs, compared as the strategies' Semantic.DeepEqual
 * compares Go structs: a member null, [] or {} is the same as an absent one.
 */
function fieldChanged(field: string): (obj: Obj, old: Obj) => boolean {
  return (obj, old) => !typedEqual(obj[field], old[field]);
}

/** Everything but the listed top-level fields differs (typed kinds: as fieldChanged; custom resources: as JSON, their maps are unstructured). */
function restChanged(ignored: string[], equal: (a: unknown, b: unknown) => boolean = typedEqual): (obj: Obj, old: Obj) => boolean {
  const strip = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([k]) => !ignored.includes(k)));
  return (obj, old) => !equal(strip(obj), strip(old));
}

const specChanged = fieldChanged('spec');
const SPEC: GenerationRule = { setOnCreate: true, changed: specChanged };

/** Kinds whose strategy tracks the generation, by group/Kind. */
const GENERATION_RULES: Readonly<Record<string, GenerationRule>> = {
  // apps: spec; Deployment also counts annotations (they are copied to its ReplicaSets)
  'apps/Deployment': {
    setOnCreate: true,
    changed: (obj, old) => specChanged(obj, old) || !typedEqual(obj.metadata?.annotations, old.metadata?.annotations),
  },
  'apps/ReplicaSet': SPEC,
  '/ReplicationController': SPEC,
  // a PodTemplate has no spec: its template counts
  '/PodTemplate': { setOnCreate: true, changed: fieldChanged('template') },
  'apps/StatefulSet': SPEC,
  'apps/DaemonSet': SPEC,
  'batch/Job': SPEC,
  'batch/CronJob': SPEC,
  'policy/PodDisruptionBudget': SPEC,
  'networking.k8s.io/Ingress': SPEC,
  'networking.k8s.io/IngressClass': SPEC,
  'networking.k8s.io/NetworkPolicy': SPEC,
  'flowcontrol.apiserver.k8s.io/FlowSchema': SPEC,
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration': SPEC,
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': SPEC,
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': SPEC,
  'apiextensions.k8s.io/CustomResourceDefinition': SPEC,
  // webhook configurations have no spec: their webhooks count
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': { setOnCreate: true, changed: fieldChanged('webhooks') },
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': { setOnCreate: true, changed: fieldChanged('webhooks') },
  // everything but metadata, and the labels
  'discovery.k8s.io/EndpointSlice': {
    setOnCreate: true,
    changed: (obj, old) => restChanged(['metadata'])(obj, old) || !typedEqual(obj.metadata?.labels, old.metadata?.labels),
  },
  // not set on create, moved on spec changes (0 -> 1 on the first one)
  'storage.k8s.io/CSIDriver': { setOnCreate: false, changed: specChanged },
};

/** Custom resources: everything but metadata counts, and status too unless it is a subresource. */
function customResourceRule(statusSubresource: boolean): GenerationRule {
  return { setOnCreate: true, changed: restChanged(statusSubresource ? ['metadata', 'status'] : ['metadata'], jsonEqual) };
}

/** The kind's rule, or undefined for a kind whose generation the server leaves alone. */
export function generationRule(def: ResourceDef): GenerationRule | undefined {
  if (def.custom) return customResourceRule(def.subresources.some((s) => s.name === 'status'));
  return GENERATION_RULES[`${def.group}/${def.kind}`];
}

/** PrepareForCreate's part. */
export function generationOnCreate(rule: GenerationRule | undefined, obj: Obj): void {
  if (rule?.setOnCreate) obj.metadata.generation = 1;
}

/** The update's part: the stored value carried over, then moved when the rule says so. */
export function generationOnUpdate(rule: GenerationRule | undefined, obj: Obj, old: Obj): void {
  const oldGen = old.metadata?.generation;
  if (typeof oldGen === 'number') obj.metadata.generation = oldGen;
  else delete obj.metadata.generation;
  if (rule?.changed(obj, old)) obj.metadata.generation = (typeof oldGen === 'number' ? oldGen : 0) + 1;
}
