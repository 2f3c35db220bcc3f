// TaintNodesByCondition admission, as kube-apiserver's plugin of that name:
// a Node created gets the node.kubernetes.io/not-ready:NoSchedule taint
// (unless it has a taint with that key and effect already), so nothing is
// scheduled to it before the node lifecycle controller sees it Ready and
// removes the taint.

import type { Obj } from '../../storage/interface.ts';
import type { AdmissionPlugin } from '../chain.ts';
import { TAINT_NODE_NOT_READY } from './default-toleration-seconds.ts';

export function taintNodesByConditionPlugin(): AdmissionPlugin {
  return {
    name: 'TaintNodesByCondition',
    admit(attrs) {
      if (attrs.operation !== 'CREATE' || attrs.group !== '' || attrs.resource !== 'nodes' || attrs.subresource !== '') return;
      const node = attrs.object;
      if (!node || typeof node !== 'object') return;
      const spec: Obj = (node.spec ??= {});
      const taints: Obj[] = Array.isArray(spec.taints) ? spec.taints : [];
      if (taints.some((t) => t?.key === TAINT_NODE_NOT_READY && t?.effect === 'NoSchedule')) return;
      spec.taints = [...taints, { key: TAINT_NODE_NOT_READY, effect: 'NoSchedule' }];
    },
  };
}
