// The subresources whose requests are not reads or writes of the object
// itself: pods/eviction, pods/binding and the bindings collection, and the
// kubelet-facing pods/log, exec, attach, portforward, proxy and
// nodes/proxy. Returns undefined for any other request.

import type { ApiIndex } from '../../../registry/served.ts';
import type { RequestContext } from '../context.ts';
import { handleBinding } from './binding.ts';
import { handleEviction } from './eviction.ts';
import { KUBELET_POD_SUBRESOURCES, handleNodeProxy, handlePodKubeletSubresource } from './kubelet.ts';

export function handlePodSubresource(rc: RequestContext, api: ApiIndex): Promise<Response> | undefined {
  const { def } = rc.res;
  if (def.group !== '') return undefined;
  const sub = rc.info.subresource;
  if (def.resource === 'bindings' && !sub && rc.info.verb === 'create') return handleBinding(rc, api);
  if (def.resource === 'pods') {
    if (sub === 'eviction' && rc.info.verb === 'create') return handleEviction(rc, api);
    if (sub === 'binding' && rc.info.verb === 'create') return handleBinding(rc, api);
    if (KUBELET_POD_SUBRESOURCES.has(sub)) return handlePodKubeletSubresource(rc, api);
  }
  if (def.resource === 'nodes' && sub === 'proxy') return handleNodeProxy(rc, api);
  return undefined;
}
