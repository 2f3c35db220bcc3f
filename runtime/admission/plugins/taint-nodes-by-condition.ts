// TaintNodesByCondition admission, as kube-apiserver's plugin of that name:
// a Node created gets the node.kubernetes.io/not-ready:NoSchedule taint
// (unless it has a taint with that key and effect already), so nothing is
// scheduled to it before the node lifecycle controller sees it Ready and
// removes the taint.

import type { Obj } from '../../storage/interface.ts';
import type { AdmissionPlugin } from '../chain.ts';
import { TAINT_NODE_NOT_READY } from './default-toleration-seconds.ts';
import { isObj, listField, objectField } from './fields.ts';

export function taintNodesByConditionPlugin(): AdmissionPlugin {
  return {
    name: 'TaintNodesByCondition',
    admit(attrs) {
      if (attrs.operation !== 'CREATE' || attrs.group !== '' || attrs.resource !== 'nodes' || attrs.subresource !== '') return;
      const node = attrs.object;
      const spec = isObj(node) ? objectField(node, 'spec') : undefined;
      const taints = spec && (listField(spec, 'taints') as Obj[] | undefined);
      if (!spec || !taints) return;
      if (taints.some((t) => t?.key === TAINT_NODE_NOT_READY && t?.effect === 'NoSchedule')) return;
      spec.taints = [...taints, { key: TAINT_NODE_NOT_READY, effect: 'NoSchedule' }];
    },
  };
}
