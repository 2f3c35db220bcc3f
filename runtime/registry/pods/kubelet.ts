// Where kube-apiserver would connect for a pod's log, exec, attach and
// port-forward (the kubelet of the pod's node), the parts the proxy
// subresources share (registry/proxy/), and the refusals on the way there,
// with upstream's codes and texts: the container named (or the only one;
// 400 otherwise), the pod's node (400 "does not have a host assigned"; a
// pod's log is then empty), the Node object (404), its preferred address
// (500 when none matches) and kubelet port, the proxy name forms and which
// pod IPs may be proxied. This server runs no kubelet client: what upstream
// would dial is returned for the caller to refuse clearly.

import { ApiError, errors } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';
import type { RegistryStore } from '../store.ts';

/** kube-apiserver's default --kubelet-preferred-address-types, in order. */
export const PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
/** kube-apiserver's default --kubelet-port. */
export const DEFAULT_KUBELET_PORT = 10250;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);

/** validateContainer: the container asked for, or the pod's only one. */
export function podContainer(pod: Obj, container: string): string {
  const name = pod.metadata?.name;
  const spec: Obj = pod.spec ?? {};
  if (!container) {
    const containers = list(spec.containers);
    if (containers.length === 1) return String(containers[0].name);
    if (containers.length === 0) throw errors.badRequest(`a container name must be specified for pod ${name}`);
    const all = [...list(spec.initContainers), ...containers, ...list(spec.ephemeralContainers)].map((c) => c.name);
    throw errors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${all.join(' ')}]`);
  }
  const known = [...list(spec.containers), ...list(spec.initContainers), ...list(spec.ephemeralContainers)].some((c) => c.name === container);
  if (!known) throw errors.badRequest(`container ${container} is not valid for pod ${name}`);
  return container;
}

export interface KubeletAddress {
  node: string;
  host: string;
  port: number;
}

/** GetConnectionInfo: the node's preferred address and kubelet port (404 for a missing node, 500 without an address). */
export async function kubeletAddress(nodes: RegistryStore, nodeName: string): Promise<KubeletAddress> {
  const node = await nodes.get('', nodeName);
  const addresses = list(node.status?.addresses);
  // GetPreferredNodeAddress: the first address of the first preferred type, even an empty one
  let host: string | undefined;
  for (const type of PREFERRED_ADDRESS_TYPES) {
    const found = addresses.find((a) => a.type === type);
    if (found) {
      host = String(found.address ?? '');
      break;
    }
  }
  if (host === undefined) {
    const known = addresses.map((a) => `{${a.type ?? ''} ${a.address ?? ''}}`).join(' ');
    throw new ApiError(500, '', `no preferred addresses found; known addresses: [${known}]`);
  }
  const port = Number(node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0);
  return { node: nodeName, host, port: port > 0 ? port : DEFAULT_KUBELET_PORT };
}

/** The node a pod runs on, for exec, attach and port-forward (400 while it is not bound). */
export function assignedNode(pod: Obj): string {
  const node = pod.spec?.nodeName;
  if (!node) throw errors.badRequest(`pod ${pod.metadata?.name} does not have a host assigned`);
  return String(node);
}

/** SplitSchemeNamePort: a proxy path's `name`, `name:port` or `scheme:name:port` (400 when it is none of them). */
export function splitSchemeNamePort(id: string, what: 'pod' | 'node' | 'service'): { scheme: string; name: string; port: string } {
  const parts = id.split(':');
  let scheme = '';
  let name = '';
  let port = '';
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) [name, port] = parts;
  else if (parts.length === 3) [scheme, name, port] = parts;
  const valid = name !== '' && (scheme === '' || scheme === 'http' || scheme === 'https');
  if (!valid) throw errors.badRequest(`invalid ${what} request ${JSON.stringify(id)}`);
  return { scheme, name, port };
}

/** Whether a pod IP may be proxied to (a global unicast address): upstream answers 400 "address not allowed" otherwise. */
export function proxyablePodIP(ip: unknown): boolean {
  if (typeof ip !== 'string' || ip === '') return false;
  const v4 = ip.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    if ([a, b, c, d].some((n) => n > 255)) return false;
    if (a + b + c + d === 0 || a === 127 || (a >= 224 && a <= 239)) return false; // unspecified, loopback, multicast
    if (a === 255 && b === 255 && c === 255 && d === 255) return false; // broadcast
    if (a === 169 && b === 254) return false; // link-local
    return true;
  }
  if (!ip.includes(':')) return false;
  const lower = ip.toLowerCase();
  if (lower === '::' || lower === '::1') return false;
  return !/^(ff|fe[89ab])/.test(lower);
}
