// The Pod's write subresources besides status: `binding` (what a Binding
// stores: the node name, the binding's annotations and PodScheduled=True;
// built by registry/pods/binding.ts, which also refuses a bound pod) and
// `ephemeralcontainers` (only spec.ephemeralContainers changes: existing
// ones may be neither removed nor changed, new ones may not set what only
// regular containers may). Upstream's texts (without the diff upstream
// appends to a changed container's message).

import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { jsonEqual } from '../../../api/json-equal.ts';
import { validateObjectMetaUpdate } from '../../metadata.ts';
import { podSpecErrors } from './containers.ts';
import { POD_SPEC_RULES } from './workloads.ts';
import type { SubresourceStrategy } from '../../strategy.ts';

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);

/** The old pod with what `take` copies from the new one (managedFields are the field manager's). */
function rebuild(obj: Obj, old: Obj, take: (next: Obj, wanted: Obj) => void): void {
  const wanted = structuredClone(obj);
  for (const k of Object.keys(obj)) delete obj[k];
  Object.assign(obj, structuredClone(old));
  take(obj, wanted);
  const mf = wanted.metadata?.managedFields;
  if (mf === undefined) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = mf;
}

export function bindingStrategy(): SubresourceStrategy {
  return {
    resetFields: [],
    prepareForUpdate(obj, old) {
      rebuild(obj, old, (next, wanted) => {
        (next.spec ??= {}).nodeName = wanted.spec?.nodeName;
        if (wanted.metadata?.annotations) next.metadata.annotations = wanted.metadata.annotations;
        if (wanted.status) next.status = wanted.status;
      });
    },
    validateUpdate() {
      return [];
    },
  };
}

/** The EphemeralContainer fields a new ephemeral container may set. */
const EPHEMERAL_ALLOWED = new Set([
  'name',
  'image',
  'command',
  'args',
  'workingDir',
  'envFrom',
  'env',
  'volumeMounts',
  'volumeDevices',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'imagePullPolicy',
  'securityContext',
  'stdin',
  'stdinOnce',
  'tty',
  'targetContainerName',
]);
const NOT_FOR_EPHEMERAL = 'cannot be set for an Ephemeral Container';

/**
 * Whether a field not allowed in an ephemeral container is unset as Go sees it
 * (validateFieldAllowList refuses only non-zero values): every such field is a
 * pointer or a slice, unset only when absent, except `resources`, a struct
 * value, which is unset when empty (`resources: {}`, as kubectl debug sends it).
 */
const unsetInGo = (k: string, v: unknown): boolean => v == null || (k === 'resources' && typeof v === 'object' && !Array.isArray(v) && Object.values(v as Obj).every((x) => x == null));

/** PodSpec probe fields: podSpecErrors already refuses them for ephemeral containers. */
const PROBES = new Set(['livenessProbe', 'readinessProbe', 'startupProbe']);

/** validateEphemeralContainers' rules beyond the container rules every PodSpec gets (containers.ts). */
export function ephemeralContainerErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const others = new Set([...list(spec.containers), ...list(spec.initContainers)].map((c) => c.name));
  list(spec.ephemeralContainers).forEach((ec, i) => {
    const p = `spec.ephemeralContainers[${i}]`;
    for (const k of Object.keys(ec).sort()) {
      if (!EPHEMERAL_ALLOWED.has(k) && !PROBES.has(k) && !unsetInGo(k, ec[k])) errs.push(fieldErrors.forbidden(`${p}.${k}`, NOT_FOR_EPHEMERAL));
    }
    list(ec.volumeMounts).forEach((vm, j) => {
      if (vm.subPath) errs.push(fieldErrors.forbidden(`${p}.volumeMounts[${j}].subPath`, NOT_FOR_EPHEMERAL));
    });
    if (ec.targetContainerName && !others.has(ec.targetContainerName)) {
      errs.push(fieldErrors.notFound(`${p}.targetContainerName`, ec.targetContainerName));
    }
  });
  return errs;
}

export function ephemeralContainersStrategy(): SubresourceStrategy {
  return {
    resetFields: ['status'],
    prepareForUpdate(obj, old) {
      rebuild(obj, old, (next, wanted) => {
        const ecs = wanted.spec?.ephemeralContainers;
        if (ecs === undefined) delete next.spec.ephemeralContainers;
        else next.spec.ephemeralContainers = ecs;
      });
    },
    validateUpdate(obj, old) {
      const errs = [...validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {})];
      if (old.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return [fieldErrors.forbidden('', 'static pods do not support ephemeral containers')];
      errs.push(...podSpecErrors('spec', obj.spec, POD_SPEC_RULES['/Pod']), ...ephemeralContainerErrors(obj.spec ?? {}));
      const now = new Map(list(obj.spec?.ephemeralContainers).map((c) => [c.name, c]));
      for (const was of list(old.spec?.ephemeralContainers)) {
        const cur = now.get(was.name);
        if (!cur) errs.push(fieldErrors.forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(was.name)} may not be removed\n`));
        else if (!jsonEqual(cur, was)) errs.push(fieldErrors.forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(was.name)} may not be changed\n`));
      }
      return errs;
    },
  };
}
