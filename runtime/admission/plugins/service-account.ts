// ServiceAccount admission, the part every Pod relies on: a Pod created
// without spec.serviceAccountName runs as its namespace's `default` account
// (the deprecated spec.serviceAccount mirrors it), so tokens can be bound to
// it. Not done here (yet): refusing Pods whose account does not exist, and
// mounting the projected token volume (kube-api-access-*) into containers.

import type { AdmissionPlugin } from '../chain.ts';

export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';

export function serviceAccountPlugin(): AdmissionPlugin {
  return {
    name: 'ServiceAccount',
    admit(attrs) {
      if (attrs.operation !== 'CREATE' || attrs.group !== '' || attrs.resource !== 'pods' || attrs.subresource !== '') return;
      const pod = attrs.object;
      if (!pod || typeof pod !== 'object') return;
      // mirror pods (static pods of a kubelet) keep what they have, as upstream
      if (pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return;
      const spec = (pod.spec ??= {});
      const name = spec.serviceAccountName || spec.serviceAccount || DEFAULT_SERVICE_ACCOUNT_NAME;
      spec.serviceAccountName = name;
      spec.serviceAccount = name;
    },
  };
}
