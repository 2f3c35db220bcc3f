// Service defaulting (the Go defaulters' facts, since api-specs declares no
// defaults for these): type, sessionAffinity, port protocol and targetPort,
// traffic policies, allocateLoadBalancerNodePorts; and the IP family fields
// (clusterIP/clusterIPs, ipFamilies, ipFamilyPolicy) from the cluster's
// configured families.

import type { Obj } from '../../../storage/interface.ts';
import { type IPFamily, parseIP } from '../../allocators/ip.ts';

export const NEEDS_NODE_PORT = new Set(['NodePort', 'LoadBalancer']);

export function isHeadless(spec: Obj): boolean {
  return spec.clusterIP === 'None' || (Array.isArray(spec.clusterIPs) && spec.clusterIPs[0] === 'None');
}

export function needsClusterIP(spec: Obj): boolean {
  return spec.type !== 'ExternalName';
}

export function needsNodePorts(spec: Obj): boolean {
  return spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
}

export function needsHealthCheckNodePort(spec: Obj): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

/** Field defaults that do not depend on the cluster. */
export function defaultService(obj: Obj): void {
  const spec = (obj.spec ??= {});
  if (!spec.type) spec.type = 'ClusterIP';
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'ClientIP') {
    const cfg = (spec.sessionAffinityConfig ??= {});
    const c = (cfg.clientIP ??= {});
    if (c.timeoutSeconds === undefined) c.timeoutSeconds = 10800;
  }
  if (Array.isArray(spec.ports)) {
    for (const p of spec.ports) {
      if (!p || typeof p !== 'object') continue;
      if (!p.protocol) p.protocol = 'TCP';
      if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
    }
  }
  if (NEEDS_NODE_PORT.has(spec.type) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.type !== 'ExternalName' && !spec.internalTrafficPolicy) spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
}

/**
 * clusterIP and clusterIPs agree; ipFamilies and ipFamilyPolicy are filled
 * from the addresses asked for and the cluster's families (first = primary).
 * Invalid combinations are left for validation to report.
 */
export function defaultIPFamilies(obj: Obj, clusterFamilies: IPFamily[]): void {
  const spec = obj.spec;
  if (!needsClusterIP(spec)) return;
  if (spec.clusterIP && !(Array.isArray(spec.clusterIPs) && spec.clusterIPs.length)) spec.clusterIPs = [spec.clusterIP];
  if (!spec.clusterIP && Array.isArray(spec.clusterIPs) && spec.clusterIPs.length) spec.clusterIP = spec.clusterIPs[0];
  const headless = isHeadless(spec);
  const dualCluster = clusterFamilies.length > 1;
  if (!spec.ipFamilyPolicy) {
    const many = (spec.ipFamilies?.length ?? 0) > 1 || (spec.clusterIPs?.length ?? 0) > 1;
    if (many) return; // validation asks for a dual-stack policy
    spec.ipFamilyPolicy = headless && !spec.selector && dualCluster ? 'RequireDualStack' : 'SingleStack';
  }
  if (!Array.isArray(spec.ipFamilies) || spec.ipFamilies.length === 0) {
    const fams: IPFamily[] = [];
    if (!headless && Array.isArray(spec.clusterIPs)) {
      for (const ip of spec.clusterIPs) {
        const p = parseIP(ip);
        if (p && !fams.includes(p.family)) fams.push(p.family);
      }
    }
    if (fams.length === 0) fams.push(clusterFamilies[0]);
    spec.ipFamilies = fams;
  }
  if ((spec.ipFamilyPolicy === 'PreferDualStack' || spec.ipFamilyPolicy === 'RequireDualStack') && dualCluster && spec.ipFamilies.length === 1) {
    const other = clusterFamilies.find((f) => f !== spec.ipFamilies[0]);
    if (other) spec.ipFamilies = [...spec.ipFamilies, other];
  }
}
