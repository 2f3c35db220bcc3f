// The Service strategy: defaults, the type-change erasures and carried-over
// allocations on update, validation, and allocation of cluster IPs and node
// ports through the ServiceAllocators bound at start-up (runtime/builtins);
// without bound allocators nothing is allocated and the cluster is IPv4.

import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import { type IPFamily, parseIP } from '../../allocators/ip.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { validateDNS1123Subdomain } from '../../../api/validation.ts';
import { type Strategy } from '../../strategy.ts';
import { jsonEqual } from '../../../api/json-equal.ts';
import { statusWithMetadata } from '../common/status.ts';
import { validIPErrors } from '../common/ip-rules.ts';
import type { ServiceAllocators } from './allocate.ts';
import { defaultIPFamilies, defaultService, needsClusterIP, needsHealthCheckNodePort, needsNodePorts, NEEDS_NODE_PORT } from './defaults.ts';
import { validateService, validateServiceUpdate } from './validate.ts';

interface Holder {
  allocs?: ServiceAllocators;
}
/** The allocator slot travels with copies of the strategy object (spread copies symbol keys). */
const HOLDER = Symbol('service allocators');

/** Gives a Service strategy (the store's) the allocators it reserves from. */
export function bindServiceAllocators(strategy: Strategy, allocs: ServiceAllocators): void {
  const h = (strategy as unknown as Record<symbol, Holder | undefined>)[HOLDER];
  if (!h) throw new Error('not a Service strategy');
  h.allocs = allocs;
}

/** On update, values the client left out are carried over from the stored object (upstream's patchAllocatedValues). */
export function carryAllocatedValues(obj: Obj, old: Obj): void {
  const spec = obj.spec;
  const o = old.spec ?? {};
  if (needsClusterIP(spec) && needsClusterIP(o)) {
    if (!spec.clusterIP && !spec.clusterIPs?.length && o.clusterIPs?.length) {
      spec.clusterIP = o.clusterIP;
      spec.clusterIPs = structuredClone(o.clusterIPs);
    }
    if (!spec.ipFamilies?.length && o.ipFamilies?.length) spec.ipFamilies = structuredClone(o.ipFamilies);
    if (!spec.ipFamilyPolicy && o.ipFamilyPolicy) spec.ipFamilyPolicy = o.ipFamilyPolicy;
  }
  if (needsNodePorts(spec) && needsNodePorts(o) && Array.isArray(spec.ports)) {
    const used = new Set<number>(spec.ports.map((p: Obj) => p.nodePort).filter(Boolean));
    const byName = new Map<string, number>();
    for (const p of o.ports ?? []) if (p.nodePort) byName.set(p.name ?? '', p.nodePort);
    for (const p of spec.ports) {
      if (p.nodePort) continue;
      const v = byName.get(p.name ?? '');
      if (v && !used.has(v)) {
        p.nodePort = v;
        used.add(v);
      }
    }
  }
  if (needsHealthCheckNodePort(spec) && needsHealthCheckNodePort(o) && !spec.healthCheckNodePort && o.healthCheckNodePort) {
    spec.healthCheckNodePort = o.healthCheckNodePort;
  }
}

/** Fields the new type does not use are dropped when the client left them as stored (type-change erasures). */
export function dropTypeDependentFields(obj: Obj, old: Obj): void {
  const spec = obj.spec;
  const o = old.spec ?? {};
  if (spec.type === o.type) return;
  const same = (f: string) => jsonEqual(spec[f], o[f]);
  if (!needsClusterIP(spec) && needsClusterIP(o)) {
    if (same('clusterIP') || same('clusterIPs')) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (same('ipFamilies')) delete spec.ipFamilies;
    if (same('ipFamilyPolicy')) delete spec.ipFamilyPolicy;
    if (same('internalTrafficPolicy')) delete spec.internalTrafficPolicy;
  }
  if (!needsNodePorts(spec) && needsNodePorts(o) && Array.isArray(spec.ports)) {
    const oldPorts = new Set<number>((o.ports ?? []).map((p: Obj) => p.nodePort).filter(Boolean));
    for (const p of spec.ports) if (p.nodePort && oldPorts.has(p.nodePort)) delete p.nodePort;
  }
  if (!needsHealthCheckNodePort(spec) && needsHealthCheckNodePort(o) && same('healthCheckNodePort')) delete spec.healthCheckNodePort;
  if (spec.type !== 'LoadBalancer') {
    if (same('allocateLoadBalancerNodePorts')) delete spec.allocateLoadBalancerNodePorts;
    if (same('loadBalancerClass')) delete spec.loadBalancerClass;
  }
  if (!NEEDS_NODE_PORT.has(spec.type) && same('externalTrafficPolicy')) delete spec.externalTrafficPolicy;
}

/** Dual-stack to SingleStack: the secondary family and address go (when the client left them as stored). */
export function trimForSingleStack(obj: Obj, old: Obj): void {
  const spec = obj.spec;
  const o = old.spec ?? {};
  if (spec.ipFamilyPolicy !== 'SingleStack' || o.ipFamilyPolicy === 'SingleStack') return;
  if (Array.isArray(spec.ipFamilies) && spec.ipFamilies.length === 2 && jsonEqual(spec.ipFamilies, o.ipFamilies)) spec.ipFamilies = [spec.ipFamilies[0]];
  if (Array.isArray(spec.clusterIPs) && spec.clusterIPs.length === 2 && jsonEqual(spec.clusterIPs, o.clusterIPs)) spec.clusterIPs = [spec.clusterIPs[0]];
}

/** status.loadBalancer.ingress: valid IPs, ipMode only with an ip. */
export function serviceStatusErrors(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  (obj.status?.loadBalancer?.ingress ?? []).forEach((ing: Obj, i: number) => {
    const p = `status.loadBalancer.ingress[${i}]`;
    if (ing?.ip) for (const m of validIPErrors(ing.ip)) errs.push(fieldErrors.invalid(`${p}.ip`, ing.ip, m));
    if (ing?.hostname) {
      for (const m of validateDNS1123Subdomain(ing.hostname)) errs.push(fieldErrors.invalid(`${p}.hostname`, ing.hostname, m));
      if (parseIP(ing.hostname)) errs.push(fieldErrors.invalid(`${p}.hostname`, ing.hostname, 'must be a DNS name, not an IP address'));
    }
    if (ing?.ipMode !== undefined) {
      if (!ing.ip) errs.push(fieldErrors.forbidden(`${p}.ipMode`, 'may not be specified when `ip` is not set'));
      else if (ing.ipMode !== 'VIP' && ing.ipMode !== 'Proxy') errs.push(fieldErrors.notSupported(`${p}.ipMode`, ing.ipMode, ['Proxy', 'VIP']));
    }
  });
  return errs;
}

export function serviceStrategy(_def: ResourceDef, base: Strategy): Strategy {
  const holder: Holder = {};
  const families = (): IPFamily[] => holder.allocs?.families ?? ['IPv4'];
  const strategy: Strategy = {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      defaultService(obj);
    },
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      defaultIPFamilies(obj, families());
    },
    prepareForUpdate(obj, old) {
      carryAllocatedValues(obj, old);
      dropTypeDependentFields(obj, old);
      trimForSingleStack(obj, old);
      defaultIPFamilies(obj, families());
      base.prepareForUpdate(obj, old);
    },
    validate(obj) {
      return validateService(obj, families());
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...validateServiceUpdate(obj, old)];
    },
    subresources: {
      status: statusWithMetadata((obj) => serviceStatusErrors(obj)),
    },
    allocate(obj, old, ctx) {
      return holder.allocs?.reserve(obj, old, ctx.dryRun);
    },
    async afterDelete(obj) {
      await holder.allocs?.release(obj);
    },
  };
  (strategy as unknown as Record<symbol, Holder>)[HOLDER] = holder;
  return strategy;
}
