// The subresources whose requests are not reads or writes of the object
// itself: pods/eviction, pods/binding and the bindings collection, the
// kubelet-facing pods/log, exec, attach and portforward, and the proxy
// subresources of pods, services and nodes (handlers/proxy/). Returns
// undefined for any other request.

import type { ApiIndex } from '../../../registry/served.ts';
import type { RequestContext } from '../context.ts';
import { handleBinding } from './binding.ts';
import { handleEviction } from './eviction.ts';
import { KUBELET_POD_SUBRESOURCES, handlePodKubeletSubresource } from './kubelet.ts';
import { PROXIED, handleProxy } from '../proxy/index.ts';

export function handlePodSubresource(rc: RequestContext, api: ApiIndex): Promise<Response> | undefined {
  const { def } = rc.res;
  if (def.group !== '') return undefined;
  const sub = rc.info.subresource;
  if (sub === 'proxy' && PROXIED.has(def.resource)) return handleProxy(rc, api);
  if (def.resource === 'bindings' && !sub && rc.info.verb === 'create') return handleBinding(rc, api);
  if (def.resource === 'pods') {
    if (sub === 'eviction' && rc.info.verb === 'create') return handleEviction(rc, api);
    if (sub === 'binding' && rc.info.verb === 'create') return handleBinding(rc, api);
    if (KUBELET_POD_SUBRESOURCES.has(sub)) return handlePodKubeletSubresource(rc, api);
  }
  return undefined;
}
