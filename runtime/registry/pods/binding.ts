// Binding a pod to a node (pods/binding and the core/v1 bindings
// collection), as kube-apiserver's binding REST: the target is a Node by
// name; a pod being deleted, already bound or held by scheduling gates is
// a 409 on pods/binding; the binding's uid and resourceVersion, when given,
// are preconditions; the pod gets spec.nodeName, the binding's annotations
// and the PodScheduled=True condition. A target without a name (or of a
// kind other than Node) is 422 Invalid: upstream answers 500 there (its
// validation errors are not a Status), and bad input is never a 500 here.

import { errors } from '../../api/errors.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import type { Obj } from '../../storage/interface.ts';
import type { RegistryStore } from '../store.ts';
import { APISERVER_WRITER } from '../write-services.ts';

const BINDING_GR = { group: '', resource: 'pods/binding' };

/** ValidatePodBinding. */
export function bindingErrors(binding: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const target: Obj = binding.target ?? {};
  if (target.kind && target.kind !== 'Node') errs.push(fieldErrors.notSupported('target.kind', target.kind, ['Node', '<empty>']));
  if (!target.name) errs.push(fieldErrors.required('target.name', ''));
  return errs;
}

function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The pod as the binding stores it, or the 409 refusing it. */
export function boundPod(live: Obj, binding: Obj, now: Date): Obj {
  const name = live.metadata.name;
  const refuse = (why: string) => errors.conflict(BINDING_GR, name, why);
  if (live.metadata.deletionTimestamp) throw refuse(`pod ${name} is being deleted, cannot be assigned to a host`);
  if (live.spec?.nodeName) throw refuse(`pod ${name} is already assigned to node ${JSON.stringify(live.spec.nodeName)}`);
  if (Array.isArray(live.spec?.schedulingGates) && live.spec.schedulingGates.length) throw refuse(`pod ${name} has non-empty .spec.schedulingGates`);
  const pod = structuredClone(live);
  (pod.spec ??= {}).nodeName = binding.target.name;
  const annotations = binding.metadata?.annotations;
  if (annotations && Object.keys(annotations).length) pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...annotations };
  const status: Obj = (pod.status ??= {});
  const conds: Obj[] = Array.isArray(status.conditions) ? status.conditions : [];
  const i = conds.findIndex((c) => c?.type === 'PodScheduled');
  const at = rfc3339(now);
  if (i < 0) conds.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: at });
  else if (conds[i].status !== 'True') conds[i] = { ...conds[i], status: 'True', lastTransitionTime: at };
  status.conditions = conds;
  return pod;
}

/** Binds the named pod; the binding's name must be the pod's (400 otherwise). */
export async function bindPod(pods: RegistryStore, ns: string, name: string, binding: Obj, opts: { dryRun: boolean; now?: () => Date }): Promise<void> {
  if (binding.metadata?.name !== name) throw errors.badRequest('name in URL does not match name in Binding object');
  const errs = bindingErrors(binding);
  if (errs.length) throw errors.invalid({ group: '', kind: 'Binding' }, name, errs);
  const uid = binding.metadata?.uid;
  const rv = binding.metadata?.resourceVersion;
  await pods.update(
    ns,
    name,
    (live) => {
      if (!live) throw errors.notFound({ group: '', resource: 'pods' }, name);
      if (uid && uid !== live.metadata.uid) {
        throw errors.conflict({ group: '', resource: 'pods' }, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${live.metadata.uid}`);
      }
      if (rv && rv !== live.metadata.resourceVersion) {
        throw errors.conflict({ group: '', resource: 'pods' }, name, `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${live.metadata.resourceVersion}`);
      }
      return boundPod(live, binding, opts.now?.() ?? new Date());
    },
    { subresource: 'binding', writer: APISERVER_WRITER, dryRun: opts.dryRun },
  );
}
