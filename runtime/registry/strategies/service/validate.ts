// Service validation on create and update, with kube-apiserver's field
// paths and texts: name (DNS-1035 label), type, ports (names, numbers,
// protocols, targetPort, appProtocol, nodePort, duplicates), externalName,
// traffic policies, healthCheckNodePort, session affinity, load-balancer
// fields, external IPs, selector, clusterIPs and IP families; on update the
// clusterIPs, ipFamilies[0] and loadBalancerClass immutability.

import type { Obj } from '../../../storage/interface.ts';
import { type IPFamily, parseIP } from '../../allocators/ip.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { labelValueErrors, qualifiedNameErrors } from '../../../api/validation.ts';
import { validateDNS1123Label, validateDNS1123Subdomain } from '../../../api/validation.ts';
import { jsonEqual } from '../../../api/json-equal.ts';
import { portNumberErrors, portNumOrNameErrors, validCIDRErrors, validIPErrors } from '../common/ip-rules.ts';
import { isHeadless, needsClusterIP, needsHealthCheckNodePort } from './defaults.ts';

const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const FAMILIES = ['IPv4', 'IPv6'];
const POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

export function dns1035Errors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1035.test(v)) errs.push(DNS1035_MSG);
  return errs;
}

export function labelMapErrors(path: string, m: unknown): FieldError[] {
  if (!m || typeof m !== 'object') return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(m as Record<string, unknown>)) {
    for (const msg of qualifiedNameErrors(k)) errs.push(fieldErrors.invalid(path, k, msg));
    if (typeof v === 'string') for (const msg of labelValueErrors(v)) errs.push(fieldErrors.invalid(path, v, msg));
  }
  return errs;
}

function validatePorts(spec: Obj, errs: FieldError[]): void {
  const ports: Obj[] = Array.isArray(spec.ports) ? spec.ports : [];
  if (ports.length === 0 && !isHeadless(spec) && spec.type !== 'ExternalName') errs.push(fieldErrors.required('spec.ports', ''));
  const names = new Set<string>();
  const keys = new Set<string>();
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    const path = `spec.ports[${i}]`;
    if (ports.length > 1 && !p.name) errs.push(fieldErrors.required(`${path}.name`, ''));
    if (p.name) {
      for (const m of validateDNS1123Label(p.name)) errs.push(fieldErrors.invalid(`${path}.name`, p.name, m));
      if (names.has(p.name)) errs.push(fieldErrors.duplicate(`${path}.name`, p.name));
      names.add(p.name);
    }
    for (const m of portNumberErrors(p.port)) errs.push(fieldErrors.invalid(`${path}.port`, p.port ?? 0, m));
    if (!p.protocol) errs.push(fieldErrors.required(`${path}.protocol`, ''));
    else if (!PROTOCOLS.includes(p.protocol)) errs.push(fieldErrors.notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
    if (spec.type !== 'ExternalName' || p.targetPort !== undefined) {
      for (const m of portNumOrNameErrors(p.targetPort)) errs.push(fieldErrors.invalid(`${path}.targetPort`, p.targetPort ?? 0, m));
    }
    if (p.appProtocol !== undefined) {
      for (const m of qualifiedNameErrors(String(p.appProtocol))) errs.push(fieldErrors.invalid(`${path}.appProtocol`, p.appProtocol, m));
    }
    if (p.nodePort !== undefined && p.nodePort !== 0) {
      if (spec.type === 'ClusterIP') errs.push(fieldErrors.forbidden(`${path}.nodePort`, "may not be used when `type` is 'ClusterIP'"));
      for (const m of portNumberErrors(p.nodePort)) errs.push(fieldErrors.invalid(`${path}.nodePort`, p.nodePort, m));
      const npKey = `${p.nodePort}/${p.protocol}`;
      if (nodePorts.has(npKey)) errs.push(fieldErrors.duplicate(`${path}.nodePort`, p.nodePort));
      nodePorts.add(npKey);
    }
    const key = `${p.port}/${p.protocol}`;
    if (keys.has(key)) errs.push(fieldErrors.duplicate(path, { port: p.port, protocol: p.protocol }));
    keys.add(key);
  });
}

function validateClusterIPs(spec: Obj, clusterFamilies: IPFamily[], errs: FieldError[]): void {
  if (spec.type === 'ExternalName') {
    if (spec.clusterIP) errs.push(fieldErrors.forbidden('spec.clusterIP', 'may not be set for ExternalName services'));
    if (Array.isArray(spec.ipFamilies) && spec.ipFamilies.length) errs.push(fieldErrors.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy) errs.push(fieldErrors.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    return;
  }
  const ips: string[] = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
  if (spec.clusterIP && ips.length && ips[0] !== spec.clusterIP) {
    errs.push(fieldErrors.invalid('spec.clusterIPs', ips, 'first value must match `clusterIP`'));
  }
  if (ips.length > 2) errs.push(fieldErrors.invalid('spec.clusterIPs', ips, 'may not have more than two entries'));
  ips.forEach((ip, i) => {
    if (ip === 'None') {
      if (i !== 0 || ips.length > 1) errs.push(fieldErrors.invalid('spec.clusterIPs', ips, "'None' must be the first and only value"));
      return;
    }
    for (const m of validIPErrors(ip)) errs.push(fieldErrors.invalid(`spec.clusterIPs[${i}]`, ip, m));
  });
  const fams: string[] = Array.isArray(spec.ipFamilies) ? spec.ipFamilies : [];
  if (fams.length > 2) errs.push(fieldErrors.invalid('spec.ipFamilies', fams, 'may not have more than two entries'));
  const seen = new Set<string>();
  fams.forEach((f, i) => {
    if (!FAMILIES.includes(f)) errs.push(fieldErrors.notSupported(`spec.ipFamilies[${i}]`, f, FAMILIES));
    else if (!clusterFamilies.includes(f as IPFamily)) errs.push(fieldErrors.invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'));
    if (seen.has(f)) errs.push(fieldErrors.duplicate(`spec.ipFamilies[${i}]`, f));
    seen.add(f);
  });
  const policy = spec.ipFamilyPolicy;
  if (policy === undefined || policy === '') {
    if (fams.length > 1 || ips.length > 1) {
      errs.push(fieldErrors.invalid('spec.ipFamilyPolicy', policy ?? '', "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
  } else if (!POLICIES.includes(policy)) {
    errs.push(fieldErrors.notSupported('spec.ipFamilyPolicy', policy, POLICIES));
  } else {
    if (policy === 'RequireDualStack' && clusterFamilies.length < 2) {
      errs.push(fieldErrors.invalid('spec.ipFamilyPolicy', policy, 'this cluster is not configured for dual-stack services'));
    }
    if (policy === 'SingleStack' && (fams.length > 1 || ips.length > 1)) {
      errs.push(fieldErrors.invalid('spec.ipFamilies', fams, 'when spec.ipFamilyPolicy is SingleStack, only one ipFamily can be specified'));
    }
  }
  if (!isHeadless(spec)) {
    ips.forEach((ip, i) => {
      const p = parseIP(ip);
      if (p && fams[i] && fams[i] !== p.family) {
        errs.push(fieldErrors.invalid(`spec.clusterIPs[${i}]`, ip, `expected an ${fams[i]} value as indicated by \`ipFamilies[${i}]\``));
      }
    });
    if (ips.length === 2) {
      const a = parseIP(ips[0]);
      const b = parseIP(ips[1]);
      if (a && b && a.family === b.family) errs.push(fieldErrors.invalid('spec.clusterIPs[1]', ips[1], 'may not have the same family as clusterIPs[0]'));
    }
  }
}

export function validateService(obj: Obj, clusterFamilies: IPFamily[]): FieldError[] {
  const errs: FieldError[] = [];
  const name = obj.metadata?.name;
  if (name) for (const m of dns1035Errors(name)) errs.push(fieldErrors.invalid('metadata.name', name, m));
  const spec: Obj = obj.spec ?? {};
  if (!TYPES.includes(spec.type)) errs.push(fieldErrors.notSupported('spec.type', spec.type ?? '', TYPES));
  validatePorts(spec, errs);
  if (spec.type === 'ExternalName') {
    const clean = String(spec.externalName ?? '').replace(/\.$/, '');
    if (!clean) errs.push(fieldErrors.required('spec.externalName', ''));
    else for (const m of validateDNS1123Subdomain(clean)) errs.push(fieldErrors.invalid('spec.externalName', spec.externalName, m));
  }
  validateClusterIPs(spec, clusterFamilies, errs);
  const lbOrNp = spec.type === 'NodePort' || spec.type === 'LoadBalancer';
  const etp = spec.externalTrafficPolicy;
  if (etp) {
    if (!lbOrNp) errs.push(fieldErrors.invalid('spec.externalTrafficPolicy', etp, "may only be set when `type` is 'NodePort' or 'LoadBalancer'"));
    else if (etp !== 'Cluster' && etp !== 'Local') errs.push(fieldErrors.notSupported('spec.externalTrafficPolicy', etp, ['Cluster', 'Local']));
  } else if (lbOrNp) {
    errs.push(fieldErrors.required('spec.externalTrafficPolicy', ''));
  }
  if (spec.healthCheckNodePort !== undefined && spec.healthCheckNodePort !== 0) {
    if (!(spec.type === 'LoadBalancer' && etp === 'Local')) {
      errs.push(fieldErrors.invalid('spec.healthCheckNodePort', spec.healthCheckNodePort, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
    } else {
      for (const m of portNumberErrors(spec.healthCheckNodePort)) errs.push(fieldErrors.invalid('spec.healthCheckNodePort', spec.healthCheckNodePort, m));
    }
  }
  const itp = spec.internalTrafficPolicy;
  if (spec.type !== 'ExternalName') {
    if (!itp) errs.push(fieldErrors.required('spec.internalTrafficPolicy', ''));
    else if (itp !== 'Cluster' && itp !== 'Local') errs.push(fieldErrors.notSupported('spec.internalTrafficPolicy', itp, ['Cluster', 'Local']));
  }
  const aff = spec.sessionAffinity;
  if (aff !== 'None' && aff !== 'ClientIP') errs.push(fieldErrors.notSupported('spec.sessionAffinity', aff ?? '', ['ClientIP', 'None']));
  if (aff === 'ClientIP') {
    const t = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
    if (!(typeof t === 'number' && t > 0 && t <= 86400)) {
      errs.push(fieldErrors.invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', t ?? 0, 'must be greater than 0 and less than 86400'));
    }
  } else if (aff === 'None' && spec.sessionAffinityConfig !== undefined) {
    errs.push(fieldErrors.invalid('spec.sessionAffinityConfig', spec.sessionAffinityConfig, `must not be set when session affinity is None`));
  }
  const isLB = spec.type === 'LoadBalancer';
  if (spec.loadBalancerClass !== undefined) {
    if (!isLB) errs.push(fieldErrors.forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
    else for (const m of qualifiedNameErrors(String(spec.loadBalancerClass))) errs.push(fieldErrors.invalid('spec.loadBalancerClass', spec.loadBalancerClass, m));
  }
  if (spec.allocateLoadBalancerNodePorts !== undefined && !isLB) {
    errs.push(fieldErrors.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  } else if (isLB && spec.allocateLoadBalancerNodePorts === undefined) {
    errs.push(fieldErrors.required('spec.allocateLoadBalancerNodePorts', ''));
  }
  if (Array.isArray(spec.loadBalancerSourceRanges) && spec.loadBalancerSourceRanges.length) {
    if (!isLB) errs.push(fieldErrors.forbidden('spec.loadBalancerSourceRanges', "may only be used when `type` is 'LoadBalancer'"));
    spec.loadBalancerSourceRanges.forEach((r: string, i: number) => {
      for (const m of validCIDRErrors(String(r).trim())) errs.push(fieldErrors.invalid(`spec.loadBalancerSourceRanges[${i}]`, r, m));
    });
  }
  if (spec.loadBalancerIP) {
    if (!isLB) errs.push(fieldErrors.forbidden('spec.loadBalancerIP', "may only be used when `type` is 'LoadBalancer'"));
    else for (const m of validIPErrors(spec.loadBalancerIP)) errs.push(fieldErrors.invalid('spec.loadBalancerIP', spec.loadBalancerIP, m));
  }
  if (Array.isArray(spec.externalIPs)) {
    spec.externalIPs.forEach((ip: string, i: number) => {
      for (const m of validIPErrors(ip)) errs.push(fieldErrors.invalid(`spec.externalIPs[${i}]`, ip, m));
    });
  }
  if (spec.trafficDistribution !== undefined && spec.trafficDistribution !== 'PreferClose') {
    errs.push(fieldErrors.notSupported('spec.trafficDistribution', spec.trafficDistribution, ['PreferClose']));
  }
  errs.push(...labelMapErrors('spec.selector', spec.selector));
  return errs;
}

export function validateServiceUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec: Obj = obj.spec ?? {};
  const oldSpec: Obj = old.spec ?? {};
  if (needsClusterIP(spec) && needsClusterIP(oldSpec)) {
    const ips: string[] = spec.clusterIPs ?? [];
    const oldIPs: string[] = oldSpec.clusterIPs ?? [];
    if (oldIPs.length && (ips[0] ?? '') !== oldIPs[0]) errs.push(fieldErrors.invalid('spec.clusterIPs[0]', ips, 'may not change once set'));
    if (oldIPs.length === 2 && ips.length === 2 && ips[1] !== oldIPs[1]) errs.push(fieldErrors.invalid('spec.clusterIPs[1]', ips, 'may not change once set'));
    const fams: string[] = spec.ipFamilies ?? [];
    const oldFams: string[] = oldSpec.ipFamilies ?? [];
    if (oldFams.length && fams.length && fams[0] !== oldFams[0]) errs.push(fieldErrors.invalid('spec.ipFamilies[0]', fams[0], 'may not change once set'));
  }
  if (spec.type === 'LoadBalancer' && oldSpec.type === 'LoadBalancer' && !jsonEqual(spec.loadBalancerClass, oldSpec.loadBalancerClass)) {
    errs.push(fieldErrors.invalid('spec.loadBalancerClass', spec.loadBalancerClass ?? null, 'may not change once set'));
  }
  // upstream refuses this in its node-port allocation on update, with the same 422
  if (needsHealthCheckNodePort(spec) && needsHealthCheckNodePort(oldSpec) && (spec.healthCheckNodePort ?? 0) !== (oldSpec.healthCheckNodePort ?? 0)) {
    errs.push(fieldErrors.invalid('spec.healthCheckNodePort', spec.healthCheckNodePort ?? 0, 'cannot change healthCheckNodePort on loadBalancer service with externalTraffic=Local during update'));
  }
  return errs;
}
