// Where kube-apiserver's proxy subresources would forward a request, with
// upstream's refusals on the way there (its ResourceLocation functions):
// pods/proxy (the pod's IP, a global unicast address, and the port named or
// its first container port), services/proxy (a ready endpoint address of
// the service port asked for, backed by a pod of the namespace with that IP)
// and nodes/proxy (the node's kubelet address, or another port on it). The
// proxy name is `name`, `name:port` or `scheme:name:port`. This module only
// finds the place; nothing here connects to it.

import { errors } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';
import { kubeletAddress, proxyablePodIP, splitSchemeNamePort } from '../pods/kubelet.ts';
import type { RegistryStore } from '../store.ts';

/** A backend location: the scheme asked for ('' is http) and the host, with its port when one is known. */
export interface ProxyLocation {
  scheme: string;
  host: string;
  port: string;
}

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);

/** host:port as Go's net.JoinHostPort writes it (an IPv6 address in brackets). */
export function joinHostPort(host: string, port: string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The address a connection to the location would dial: its port, or the scheme's default (80, or 443 for https). */
export function dialAddress(loc: ProxyLocation): string {
  return joinHostPort(loc.host, loc.port || (loc.scheme === 'https' ? '443' : '80'));
}

/** pods/proxy: the pod's IP (400 "address not allowed" unless global unicast) and the port asked for or its first container port. */
export async function podLocation(pods: RegistryStore, namespace: string, id: string): Promise<ProxyLocation> {
  const { scheme, name, port } = splitSchemeNamePort(id, 'pod');
  const pod = await pods.get(namespace, name);
  let target = port;
  if (!target) {
    const withPorts = list(pod.spec?.containers).find((c) => list(c.ports).length > 0);
    const first = withPorts ? list(withPorts.ports)[0].containerPort : undefined;
    if (first !== undefined) target = String(first);
  }
  const ip = pod.status?.podIP;
  if (!proxyablePodIP(ip)) throw errors.badRequest('address not allowed');
  return { scheme, host: String(ip), port: target };
}

/** nodes/proxy: the kubelet's address and port, or another port on the node's address. */
export async function nodeLocation(nodes: RegistryStore, id: string): Promise<ProxyLocation> {
  const { scheme, name, port } = splitSchemeNamePort(id, 'node');
  const at = await kubeletAddress(nodes, name);
  const kubeletPort = String(at.port);
  // the kubelet's own port is reached with the kubelet's scheme (https)
  if (port === '' || port === kubeletPort) return { scheme: 'https', host: at.host, port: kubeletPort };
  return { scheme, host: at.host, port };
}

export interface ServiceStores {
  services: RegistryStore;
  endpoints: RegistryStore;
  pods: RegistryStore;
}

/** Go's strconv.ParseInt(s, 10, 64) succeeding: an optional sign and decimal digits. */
const isInteger = (s: string): boolean => /^[+-]?\d+$/.test(s) && Number.isSafeInteger(Number(s));

/**
 * services/proxy: a port number names the service port it is (404 for a missing service, 503 when
 * no port has that number); then the Endpoints of the service (404 when there are none) give the
 * address: 503 "no endpoints available" when no subset has a ready address for that port backed by
 * a pod of the namespace with that IP.
 */
export async function serviceLocation(stores: ServiceStores, namespace: string, id: string): Promise<ProxyLocation> {
  const { scheme, name, port } = splitSchemeNamePort(id, 'service');
  let portName = port;
  if (isInteger(port)) {
    const number = Number(port);
    const svc = await stores.services.get(namespace, name);
    const declared = list(svc.spec?.ports).find((p) => Number(p.port) === number);
    if (!declared) throw errors.serviceUnavailable(`no service port ${number} found for service ${JSON.stringify(name)}`);
    portName = String(declared.name ?? '');
  }
  const eps = await stores.endpoints.get(namespace, name);
  const subsets = list(eps.subsets);
  if (subsets.length === 0) throw errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
  for (const subset of subsets) {
    const addresses = list(subset.addresses);
    if (addresses.length === 0) continue;
    for (const p of list(subset.ports)) {
      if (String(p.name ?? '') !== portName) continue;
      for (const addr of addresses) {
        if (await backedByPod(stores.pods, namespace, addr)) return { scheme, host: String(addr.ip), port: String(p.port) };
      }
    }
  }
  throw errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(id)}`);
}

/** Upstream's address check: the address names a pod of the request's namespace that has the address's IP. */
async function backedByPod(pods: RegistryStore, namespace: string, addr: Obj): Promise<boolean> {
  const ref: Obj | undefined = addr.targetRef;
  if (!ref || typeof ref !== 'object' || ref.namespace !== namespace || !ref.name) return false;
  let pod: Obj;
  try {
    pod = await pods.get(namespace, String(ref.name));
  } catch {
    return false;
  }
  return list(pod.status?.podIPs).some((p) => p.ip === addr.ip);
}
