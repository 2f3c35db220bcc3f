// DefaultTolerationSeconds admission, as kube-apiserver's plugin of that
// name: a Pod created or updated without a toleration of the
// node.kubernetes.io/not-ready (and node.kubernetes.io/unreachable)
// NoExecute taint gets one (operator Exists) with tolerationSeconds from
// --default-not-ready-toleration-seconds (and
// --default-unreachable-toleration-seconds), 300 by default. A toleration
// with an empty key, or an empty effect, counts as tolerating the taint.

import type { Obj } from '../../storage/interface.ts';
import type { AdmissionPlugin } from '../chain.ts';
import { isObj, listField, objectField } from './fields.ts';

export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
/** Upstream's default of both flags. */
export const DEFAULT_TOLERATION_SECONDS = 300;

export interface DefaultTolerationSecondsOptions {
  notReadySeconds?: number;
  unreachableSeconds?: number;
}

function tolerates(tolerations: Obj[], key: string): boolean {
  return tolerations.some((t) => (t?.key === key || !t?.key) && (t?.effect === 'NoExecute' || !t?.effect));
}

export function defaultTolerationSecondsPlugin(opts: DefaultTolerationSecondsOptions = {}): AdmissionPlugin {
  const notReady = opts.notReadySeconds ?? DEFAULT_TOLERATION_SECONDS;
  const unreachable = opts.unreachableSeconds ?? DEFAULT_TOLERATION_SECONDS;
  return {
    name: 'DefaultTolerationSeconds',
    admit(attrs) {
      if (attrs.group !== '' || attrs.resource !== 'pods' || attrs.subresource !== '') return;
      if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return;
      const pod = attrs.object;
      const spec = isObj(pod) ? objectField(pod, 'spec') : undefined;
      const existing = spec && (listField(spec, 'tolerations') as Obj[] | undefined);
      if (!spec || !existing) return;
      const add: Obj[] = [];
      if (!tolerates(existing, TAINT_NODE_NOT_READY)) add.push({ key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: notReady });
      if (!tolerates(existing, TAINT_NODE_UNREACHABLE)) add.push({ key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: unreachable });
      if (add.length) spec.tolerations = [...existing, ...add];
    },
  };
}
