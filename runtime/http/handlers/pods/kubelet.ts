// pods/log, pods/exec, pods/attach and pods/portforward: kube-apiserver
// answers them by connecting to the node's kubelet. This server connects to
// no kubelet, so it answers what upstream answers up to that point (400 for
// a pod without a node or an unknown container, 404 for a missing node, 500
// for a node without an address, an empty 204 for the log of an
// unscheduled pod) and then, where upstream would dial, the error upstream
// gives when the dial fails (500), saying why. The proxy subresources are
// handlers/proxy/'s. exec, attach and portforward pass CONNECT admission
// first (handlers/connect.ts).

import { ApiError, errors } from '../../../api/errors.ts';
import type { ApiIndex } from '../../../registry/served.ts';
import { assignedNode, kubeletAddress, podContainer } from '../../../registry/pods/kubelet.ts';
import type { RequestContext } from '../context.ts';
import { admitConnect } from '../connect.ts';

const NO_KUBELET = 'this API server does not connect to kubelets';

export const KUBELET_POD_SUBRESOURCES = new Set(['log', 'exec', 'attach', 'portforward']);

function nodesStore(api: ApiIndex) {
  const nodes = api.lookup('', 'v1', 'nodes')?.store;
  if (!nodes) throw errors.notFoundPath();
  return nodes;
}

function dialError(host: string, port: number | string): ApiError {
  return new ApiError(500, '', `error dialing backend: dial tcp ${host}:${port}: ${NO_KUBELET}`);
}

export async function handlePodKubeletSubresource(rc: RequestContext, api: ApiIndex): Promise<Response> {
  const sub = rc.info.subresource;
  // exec, attach and portforward are connects: admission (CONNECT) before the pod is read
  if (sub !== 'log') await admitConnect(rc);
  const pod = await rc.res.store.get(rc.info.namespace, rc.info.name);
  const container = sub === 'portforward' ? '' : podContainer(pod, rc.query.get('container') ?? '');
  if (sub === 'log') {
    // the log of a pod no node runs: upstream has nowhere to read it from and answers nothing
    if (!pod.spec?.nodeName) return new Response(null, { status: 204 });
    const at = await kubeletAddress(nodesStore(api), String(pod.spec.nodeName));
    const url = `https://${at.host}:${at.port}/containerLogs/${rc.info.namespace}/${rc.info.name}/${container}`;
    throw new ApiError(500, '', `Get ${JSON.stringify(url)}: ${NO_KUBELET}`);
  }
  const at = await kubeletAddress(nodesStore(api), assignedNode(pod));
  throw dialError(at.host, at.port);
}
