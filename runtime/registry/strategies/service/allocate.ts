// Cluster IP and node port allocation for Services: the allocators of the
// configured ranges (one IP allocator per family, one node-port range), the
// reservation a write makes (requested values checked and taken, missing
// ones picked), and what is released when the write is committed (values
// the old object held and the new one does not), rolled back, or deleted.
// Observers (IPAddress objects) hear about addresses taken and given back.

import { errors } from '../../../api/errors.ts';
import type { Obj } from '../../../storage/interface.ts';
import { type IPFamily, canonicalIP, parseIP } from '../../allocators/ip.ts';
import { AllocationError, IPAllocator, PortAllocator } from '../../allocators/range.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import type { Allocation } from '../../strategy.ts';
import { isHeadless, needsClusterIP, needsHealthCheckNodePort, needsNodePorts } from './defaults.ts';

export const DEFAULT_SERVICE_CIDR = '10.0.0.0/24';
export const DEFAULT_NODE_PORT_RANGE = '30000-32767';

export interface AddressObserver {
  allocated(ip: string, family: IPFamily, svc: Obj): void | Promise<void>;
  released(ip: string): void | Promise<void>;
}

/** What a Service holds: its cluster IPs and its node ports (health check included). */
export function heldBy(obj: Obj | null): { ips: string[]; ports: number[] } {
  const spec = obj?.spec ?? {};
  const ips: string[] = needsClusterIP(spec) && !isHeadless(spec) && Array.isArray(spec.clusterIPs) ? spec.clusterIPs.filter((ip: string) => parseIP(ip)) : [];
  const ports: number[] = [];
  if (Array.isArray(spec.ports)) for (const p of spec.ports) if (typeof p?.nodePort === 'number' && p.nodePort > 0) ports.push(p.nodePort);
  if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort > 0) ports.push(spec.healthCheckNodePort);
  return { ips: ips.map((ip) => canonicalIP(ip) ?? ip), ports };
}

export class ServiceAllocators {
  readonly ip = new Map<IPFamily, IPAllocator>();
  readonly families: IPFamily[] = [];
  readonly nodePorts: PortAllocator;
  observer?: AddressObserver;
  /** Called after a deleted Service's values are released (the `kubernetes` Service comes back). */
  onServiceGone?: (obj: Obj) => void;

  constructor(cidrs: string = DEFAULT_SERVICE_CIDR, nodePortRange: string = DEFAULT_NODE_PORT_RANGE) {
    const list = cidrs
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    if (list.length === 0 || list.length > 2) throw new Error(`--service-cluster-ip-range: one or two CIDRs expected, got ${cidrs}`);
    for (const c of list) {
      const a = new IPAllocator(c);
      if (this.ip.has(a.family)) throw new Error(`--service-cluster-ip-range: two CIDRs of family ${a.family}`);
      this.ip.set(a.family, a);
      this.families.push(a.family);
    }
    this.nodePorts = new PortAllocator(nodePortRange);
  }

  /** Observers mirror the allocator; their failures never undo a stored write. */
  private async observe(f: () => void | Promise<void>): Promise<void> {
    try {
      await f();
    } catch {
      /* the allocator stays authoritative */
    }
  }

  /** Marks what a stored Service holds as taken (start-up repair); conflicts are ignored. */
  restore(obj: Obj): void {
    const { ips, ports } = heldBy(obj);
    for (const ip of ips) {
      const p = parseIP(ip);
      try {
        if (p) this.ip.get(p.family)?.allocate(ip);
      } catch {
        /* out of range or duplicate */
      }
    }
    for (const port of ports) {
      try {
        this.nodePorts.allocate(port);
      } catch {
        /* out of range or duplicate */
      }
    }
  }

  async release(obj: Obj): Promise<void> {
    const { ips, ports } = heldBy(obj);
    await this.give(ips, ports);
    this.onServiceGone?.(obj);
  }

  private async give(ips: string[], ports: number[]): Promise<void> {
    for (const port of ports) this.nodePorts.release(port);
    for (const ip of ips) {
      const p = parseIP(ip);
      if (!p) continue;
      this.ip.get(p.family)?.release(ip);
      await this.observe(() => this.observer?.released(ip));
    }
  }

  /**
   * Reserves what obj needs beyond what old holds, filling clusterIP(s),
   * nodePorts and healthCheckNodePort. Throws 422 for requested values that
   * are out of range or taken (nothing stays reserved then).
   */
  reserve(obj: Obj, old: Obj | null): Allocation {
    const spec = obj.spec;
    const before = heldBy(old);
    const takenIPs: string[] = [];
    const takenPorts: number[] = [];
    const errs: FieldError[] = [];
    const undo = () => {
      for (const p of takenPorts) this.nodePorts.release(p);
      for (const ip of takenIPs) {
        const f = parseIP(ip)?.family;
        if (f) this.ip.get(f)?.release(ip);
      }
    };
    try {
      if (needsClusterIP(spec) && !isHeadless(spec)) {
        const fams: IPFamily[] = Array.isArray(spec.ipFamilies) ? spec.ipFamilies : [this.families[0]];
        const ips: string[] = Array.isArray(spec.clusterIPs) ? [...spec.clusterIPs] : [];
        fams.forEach((fam, i) => {
          const alloc = this.ip.get(fam);
          if (!alloc) return;
          const want = ips[i];
          if (want) {
            const canon = canonicalIP(want) ?? want;
            if (before.ips.includes(canon)) {
              ips[i] = canon;
              return;
            }
            try {
              ips[i] = alloc.allocate(want);
              takenIPs.push(ips[i]);
            } catch (err) {
              if (!(err instanceof AllocationError)) throw err;
              errs.push(fieldErrors.invalid('spec.clusterIPs', spec.clusterIPs, `failed to allocate IP ${want}: ${err.message}`));
            }
          } else {
            try {
              ips[i] = alloc.allocateNext();
              takenIPs.push(ips[i]);
            } catch (err) {
              if (err instanceof AllocationError) throw errors.internal(new Error(`failed to allocate a serviceIP: ${err.message}`));
              throw err;
            }
          }
        });
        if (ips.length) {
          spec.clusterIPs = ips;
          spec.clusterIP = ips[0];
        }
      }
      const reservePort = (want: number | undefined, field: string, prefix = ''): number | undefined => {
        if (want) {
          if (before.ports.includes(want) && !takenPorts.includes(want)) return want;
          try {
            this.nodePorts.allocate(want);
            takenPorts.push(want);
          } catch (err) {
            if (!(err instanceof AllocationError)) throw err;
            errs.push(fieldErrors.invalid(field, want, `${prefix}${err.message}`));
          }
          return want;
        }
        try {
          const p = this.nodePorts.allocateNext();
          takenPorts.push(p);
          return p;
        } catch (err) {
          if (err instanceof AllocationError) throw errors.internal(new Error(`failed to allocate a nodePort: ${err.message}`));
          throw err;
        }
      };
      if (needsNodePorts(spec) && Array.isArray(spec.ports)) {
        spec.ports.forEach((p: Obj, i: number) => {
          const got = reservePort(p.nodePort || undefined, `spec.ports[${i}].nodePort`);
          if (got) p.nodePort = got;
        });
      }
      if (needsHealthCheckNodePort(spec)) {
        const want = spec.healthCheckNodePort || undefined;
        const got = reservePort(want, 'spec.healthCheckNodePort', want ? `failed to allocate requested HealthCheck NodePort ${want}: ` : '');
        if (got) spec.healthCheckNodePort = got;
      }
    } catch (err) {
      undo();
      throw err;
    }
    if (errs.length) {
      undo();
      throw errors.invalid({ group: '', kind: 'Service' }, obj.metadata?.name ?? '', errs);
    }
    let done = false;
    return {
      commit: async (stored) => {
        if (done) return;
        done = true;
        const after = heldBy(stored);
        await this.give(
          before.ips.filter((ip) => !after.ips.includes(ip)),
          before.ports.filter((p) => !after.ports.includes(p)),
        );
        for (const ip of takenIPs) await this.observe(() => this.observer?.allocated(ip, parseIP(ip)!.family, stored));
      },
      rollback: () => {
        if (done) return;
        done = true;
        undo();
      },
    };
  }
}
