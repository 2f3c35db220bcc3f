// The lock of leader election as a coordination.k8s.io/v1 Lease (client-go's
// LeaseLock): the record is the Lease's spec (holderIdentity,
// leaseDurationSeconds, acquireTime and renewTime as MicroTime,
// leaseTransitions); a create fails when the Lease exists and an update
// names the resourceVersion read (409 when another candidate wrote in
// between). Every write goes through the registry pipeline as the writer
// given (kube-controller-manager's own identity).

import { ApiError } from '../../api/errors.ts';
import type { RegistryStore } from '../../registry/store.ts';
import type { Writer } from '../../registry/write-services.ts';
import type { Obj } from '../../storage/interface.ts';
import type { LeaderElectionRecord, LockedRecord, ResourceLock } from './elector.ts';

/** Go's MicroTime text: RFC 3339 in UTC with six fractional digits. */
export function formatMicroTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function parseTime(v: unknown): number {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? t : 0;
}

export function recordOfLease(lease: Obj): LeaderElectionRecord {
  const s = lease.spec ?? {};
  return {
    holderIdentity: typeof s.holderIdentity === 'string' ? s.holderIdentity : '',
    leaseDurationSeconds: Number.isInteger(s.leaseDurationSeconds) ? s.leaseDurationSeconds : 0,
    acquireTime: parseTime(s.acquireTime),
    renewTime: parseTime(s.renewTime),
    leaseTransitions: Number.isInteger(s.leaseTransitions) ? s.leaseTransitions : 0,
  };
}

export function leaseSpecOf(r: LeaderElectionRecord): Obj {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: formatMicroTime(r.acquireTime),
    renewTime: formatMicroTime(r.renewTime),
    leaseTransitions: r.leaseTransitions,
  };
}

export class LeaseLock implements ResourceLock {
  constructor(
    private readonly store: RegistryStore,
    private readonly namespace: string,
    private readonly name: string,
    private readonly writer: Writer,
  ) {}

  async get(): Promise<LockedRecord | null> {
    try {
      const lease = await this.store.get(this.namespace, this.name);
      return { record: recordOfLease(lease), version: String(lease.metadata?.resourceVersion ?? '') };
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return null;
      throw err;
    }
  }

  async create(record: LeaderElectionRecord): Promise<string> {
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.name, namespace: this.namespace }, spec: leaseSpecOf(record) };
    const made = await this.store.create(this.namespace, lease, { writer: this.writer });
    return String(made.metadata?.resourceVersion ?? '');
  }

  async update(record: LeaderElectionRecord, version: string): Promise<string> {
    const { obj } = await this.store.update(
      this.namespace,
      this.name,
      (live) => {
        if (!live) throw new Error(`lease ${this.namespace}/${this.name} is gone`);
        // the version read is a precondition: a write in between is a 409
        return { ...live, metadata: { ...live.metadata, resourceVersion: version }, spec: { ...(live.spec ?? {}), ...leaseSpecOf(record) } };
      },
      { writer: this.writer },
    );
    return String(obj.metadata?.resourceVersion ?? '');
  }
}
