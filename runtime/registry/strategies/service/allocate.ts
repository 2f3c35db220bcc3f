// Cluster IP and node port allocation for Services: the allocators of the
// configured ranges (one IP range per family, one node-port range), the
// reservation a write makes (requested values checked and taken, missing
// ones picked), and what is released when the write is committed (values
// the old object held and the new one does not), rolled back, or deleted.
// Once bound to storage (bindStorage) each range is kept there as
// kube-apiserver keeps it, a RangeAllocation changed by compare-and-swap
// (allocators/stored-range.ts), so servers sharing a store never hand out
// a value twice; repair() reconciles a range with the stored Services.
// A dry run reserves on a copy of the cached state and keeps nothing.
// Observers (IPAddress objects) hear about addresses taken and given back.

import { errors } from '../../../api/errors.ts';
import { keyRoot } from '../../../api/keys.ts';
import type { Obj, Storage } from '../../../storage/interface.ts';
import { type IPFamily, canonicalIP, parseIP } from '../../allocators/ip.ts';
import { AllocationError, IPAllocator, PortAllocator } from '../../allocators/range.ts';
import { StoredRange } from '../../allocators/stored-range.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import type { Allocation } from '../../strategy.ts';
import { isHeadless, needsClusterIP, needsHealthCheckNodePort, needsNodePorts } from './defaults.ts';

export const DEFAULT_SERVICE_CIDR = '10.0.0.0/24';
export const DEFAULT_NODE_PORT_RANGE = '30000-32767';

/** kube-apiserver's keys of the ranges (`/registry/ranges/...` in etcd): the primary family's, the secondary's, node ports. */
export const RANGE_KEYS = {
  primary: `${keyRoot('', 'ranges')}serviceips`,
  secondary: `${keyRoot('', 'ranges')}secondaryserviceips`,
  nodePorts: `${keyRoot('', 'ranges')}servicenodeports`,
};

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

/** One requested or missing node port of a Service, in the order they are reported. */
interface PortWant {
  want: number | undefined;
  field: string;
  prefix: string;
}

/** What a port reservation did: the values, or the field errors (then nothing stays taken). */
interface PortOutcome {
  values: number[];
  taken: number[];
  errs: FieldError[];
}

/** Takes the ports a Service needs in one go: all of them, or (errors, range full) none. */
function takePorts(alloc: PortAllocator, wants: PortWant[], held: number[]): PortOutcome {
  const taken: number[] = [];
  const values: number[] = [];
  const errs: FieldError[] = [];
  try {
    for (const w of wants) {
      if (w.want) {
        values.push(w.want);
        if (held.includes(w.want) && !taken.includes(w.want)) continue;
        try {
          taken.push(alloc.allocate(w.want));
        } catch (err) {
          if (!(err instanceof AllocationError)) throw err;
          errs.push(fieldErrors.invalid(w.field, w.want, `${w.prefix}${err.message}`));
        }
      } else {
        const p = alloc.allocateNext();
        taken.push(p);
        values.push(p);
      }
    }
  } catch (err) {
    for (const p of taken) alloc.release(p);
    throw err;
  }
  if (errs.length) {
    for (const p of taken) alloc.release(p);
    return { values, taken: [], errs };
  }
  return { values, taken, errs };
}

export class ServiceAllocators {
  /** The cached state of each family's range (the primary family first in `families`). */
  readonly ip = new Map<IPFamily, IPAllocator>();
  readonly families: IPFamily[] = [];
  readonly nodePorts: PortAllocator;
  private ipRanges = new Map<IPFamily, StoredRange<IPAllocator>>();
  private portRange: StoredRange<PortAllocator>;
  observer?: AddressObserver;
  /** Called after a deleted Service's values are released (the `kubernetes` Service comes back). */
  onServiceGone?: (obj: Obj) => void;

  constructor(cidrs: string = DEFAULT_SERVICE_CIDR, nodePortRange: string = DEFAULT_NODE_PORT_RANGE) {
    const list = cidrs
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    if (list.length === 0 || list.length > 2) throw new Error(`--service-cluster-ip-range: one or two CIDRs expected, got ${cidrs}`);
    list.forEach((c, i) => {
      const a = new IPAllocator(c, i === 0 ? '--service-cluster-ip-range' : '--secondary-service-cluster-ip-range');
      if (this.ip.has(a.family)) throw new Error(`--service-cluster-ip-range: two CIDRs of family ${a.family}`);
      this.ip.set(a.family, a);
      this.ipRanges.set(a.family, new StoredRange(a));
      this.families.push(a.family);
    });
    this.nodePorts = new PortAllocator(nodePortRange);
    this.portRange = new StoredRange(this.nodePorts);
  }

  /** Keeps every range in storage from now on (kube-apiserver's keys); call before any allocation. */
  bindStorage(storage: Storage): void {
    this.families.forEach((f, i) => this.ipRanges.set(f, new StoredRange(this.ip.get(f)!, { storage, key: i === 0 ? RANGE_KEYS.primary : RANGE_KEYS.secondary })));
    this.portRange = new StoredRange(this.nodePorts, { storage, key: RANGE_KEYS.nodePorts });
  }

  /** Observers mirror the allocator; their failures never undo a stored write. */
  private async observe(f: () => void | Promise<void>): Promise<void> {
    try {
      await f();
    } catch {
      /* the allocator stays authoritative */
    }
  }

  /**
   * Reconciles the stored ranges with what the stored Services hold (the
   * start-up repair, and kube-apiserver's periodic one): held values are
   * marked taken; a taken value no Service holds is freed when `leaked`
   * says so (upstream frees a leak once several repairs in a row saw it).
   */
  async repair(services: Obj[], leaked?: (range: string, value: string | number) => boolean): Promise<void> {
    const ips = new Map<IPFamily, number[]>();
    const ports: number[] = [];
    for (const s of services) {
      const held = heldBy(s);
      for (const ip of held.ips) {
        const p = parseIP(ip);
        const alloc = p && this.ip.get(p.family);
        if (!p || !alloc || !alloc.contains(ip)) continue;
        const list = ips.get(p.family) ?? [];
        list.push(alloc.offsetOf(ip));
        ips.set(p.family, list);
      }
      for (const port of held.ports) if (this.nodePorts.contains(port)) ports.push(port - this.nodePorts.base);
    }
    for (const f of this.families) {
      const alloc = this.ip.get(f)!;
      await this.ipRanges.get(f)!.repair(ips.get(f) ?? [], leaked && ((o) => leaked(alloc.cidr.text, alloc.nth(o))));
    }
    await this.portRange.repair(ports, leaked && ((o) => leaked(this.nodePorts.text, this.nodePorts.base + o)));
  }

  async release(obj: Obj): Promise<void> {
    const { ips, ports } = heldBy(obj);
    await this.give(ips, ports);
    this.onServiceGone?.(obj);
  }

  private async give(ips: string[], ports: number[]): Promise<void> {
    const jobs: Promise<void>[] = [];
    if (ports.length) jobs.push(this.portRange.run((a) => ports.forEach((p) => a.release(p))));
    for (const ip of ips) {
      const range = this.ipRanges.get(parseIP(ip)?.family as IPFamily);
      if (range) jobs.push(range.run((a) => a.release(ip)));
    }
    await Promise.all(jobs);
    for (const ip of ips) await this.observe(() => this.observer?.released(ip));
  }

  /**
   * Reserves what obj needs beyond what old holds, filling clusterIP(s),
   * nodePorts and healthCheckNodePort. Throws 422 for requested values that
   * are out of range or taken, 500 for a full range (nothing stays reserved
   * then). A dry run reserves on a copy and keeps nothing.
   */
  async reserve(obj: Obj, old: Obj | null, dryRun = false): Promise<Allocation> {
    const spec = obj.spec;
    const before = heldBy(old);
    const on = <A extends IPAllocator | PortAllocator, R>(range: StoredRange<A>, op: (a: A) => R): Promise<R> => (dryRun ? Promise.resolve().then(() => range.tryRun(op)) : range.run(op));
    // each family's address and the ports are taken concurrently; outcomes are reported in field order
    type IPJob = { fam: IPFamily; want?: string; result: Promise<string> };
    const ipJobs: IPJob[] = [];
    const ips: string[] = Array.isArray(spec.clusterIPs) ? [...spec.clusterIPs] : [];
    const ipSlots: number[] = [];
    const assignsIPs = needsClusterIP(spec) && !isHeadless(spec);
    if (assignsIPs) {
      const fams: IPFamily[] = Array.isArray(spec.ipFamilies) ? spec.ipFamilies : [this.families[0]];
      fams.forEach((fam, i) => {
        const range = this.ipRanges.get(fam);
        if (!range) return;
        const want = ips[i];
        if (want) {
          const canon = canonicalIP(want) ?? want;
          if (before.ips.includes(canon)) {
            ips[i] = canon;
            return;
          }
          ipJobs.push({ fam, want, result: on(range, (a) => a.allocate(want)) });
        } else {
          ipJobs.push({ fam, result: on(range, (a) => a.allocateNext()) });
        }
        ipSlots.push(i);
      });
    }
    const wants: PortWant[] = [];
    const portSlots: ((v: number) => void)[] = [];
    if (needsNodePorts(spec) && Array.isArray(spec.ports)) {
      spec.ports.forEach((p: Obj, i: number) => {
        wants.push({ want: p.nodePort || undefined, field: `spec.ports[${i}].nodePort`, prefix: '' });
        portSlots.push((v) => (p.nodePort = v));
      });
    }
    if (needsHealthCheckNodePort(spec)) {
      const want = spec.healthCheckNodePort || undefined;
      wants.push({ want, field: 'spec.healthCheckNodePort', prefix: want ? `failed to allocate requested HealthCheck NodePort ${want}: ` : '' });
      portSlots.push((v) => (spec.healthCheckNodePort = v));
    }
    const portJob = wants.length ? on(this.portRange, (a) => takePorts(a, wants, before.ports)) : undefined;
    const [ipOutcomes, portOutcome] = await Promise.all([
      Promise.allSettled(ipJobs.map((j) => j.result)),
      portJob
        ? portJob.then(
            (value) => ({ status: 'fulfilled' as const, value }),
            (reason: unknown) => ({ status: 'rejected' as const, reason }),
          )
        : undefined,
    ]);

    const takenIPs: string[] = [];
    const takenPorts: number[] = portOutcome?.status === 'fulfilled' ? portOutcome.value.taken : [];
    const errs: FieldError[] = [];
    let failure: unknown;
    ipOutcomes.forEach((o, k) => {
      const job = ipJobs[k];
      if (o.status === 'fulfilled') {
        ips[ipSlots[k]] = o.value;
        takenIPs.push(o.value);
      } else if (!(o.reason instanceof AllocationError)) failure ??= o.reason;
      else if (job.want !== undefined) errs.push(fieldErrors.invalid('spec.clusterIPs', spec.clusterIPs, `failed to allocate IP ${job.want}: ${o.reason.message}`));
      else failure ??= errors.internal(new Error(`failed to allocate a serviceIP: ${o.reason.message}`));
    });
    if (portOutcome?.status === 'rejected') {
      const r = portOutcome.reason;
      failure ??= r instanceof AllocationError ? errors.internal(new Error(`failed to allocate a nodePort: ${r.message}`)) : r;
    } else if (portOutcome) errs.push(...portOutcome.value.errs);

    const undo = async () => {
      if (dryRun) return;
      // a store that cannot take the release now leaves the values taken: the repair frees them later
      await this.giveQuietly(takenIPs, takenPorts).catch(() => undefined);
    };
    if (failure !== undefined || errs.length) {
      await undo();
      if (failure !== undefined) throw failure;
      throw errors.invalid({ group: '', kind: 'Service' }, obj.metadata?.name ?? '', errs);
    }
    if (assignsIPs && ips.length) {
      spec.clusterIPs = ips;
      spec.clusterIP = ips[0];
    }
    if (portOutcome?.status === 'fulfilled') portOutcome.value.values.forEach((v, i) => portSlots[i](v));
    let done = dryRun;
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
      rollback: async () => {
        if (done) return;
        done = true;
        await undo();
      },
    };
  }

  /** Gives back what a failed write took, without telling observers (they never heard of it). */
  private async giveQuietly(ips: string[], ports: number[]): Promise<void> {
    const jobs: Promise<void>[] = [];
    if (ports.length) jobs.push(this.portRange.run((a) => ports.forEach((p) => a.release(p))));
    for (const ip of ips) jobs.push(this.ipRanges.get(parseIP(ip)!.family)!.run((a) => a.release(ip)));
    await Promise.all(jobs);
  }
}
