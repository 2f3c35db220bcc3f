// The API server's identity Lease (the APIServerIdentity feature, beta and on
// in 1.31): a Lease in kube-system named `apiserver-<hash>`, the hash being
// the first 16 bytes of SHA-256 over the host name and `kube-apiserver`
// (each with a two-byte length before it), in lower-case unpadded base32;
// labelled `apiserver.kubernetes.io/identity: kube-apiserver` and
// `kubernetes.io/hostname: <host name>`; held by `<name>_<uuid>` (new at every
// start) for 3600 seconds and renewed every 10 seconds. A server on the same
// host name takes the Lease over, as upstream's do. Every server also deletes
// the identity Leases in kube-system that expired (renewTime plus duration
// passed), once an hour. Written through the registry as kube-apiserver.

import { createHash, randomUUID } from 'node:crypto';
import { hostname as osHostname } from 'node:os';
import { ApiError } from '../api/errors.ts';
import type { ApiIndex } from '../registry/served.ts';
import { APISERVER_WRITER } from '../registry/write-services.ts';
import type { Obj } from '../storage/interface.ts';
import { formatMicroTime } from '../controllers/leaderelection/lease-lock.ts';
import { storedOrNone } from './read-first.ts';

export const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';
export const KUBE_APISERVER = 'kube-apiserver';
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
/** upstream's IdentityLeaseDurationSeconds, IdentityLeaseRenewIntervalPeriod and IdentityLeaseGCPeriod */
export const IDENTITY_LEASE_DURATION_SECONDS = 3600;
const RENEW_INTERVAL_MS = 10_000;
const GC_PERIOD_MS = 3_600_000;
const NS_SYSTEM = 'kube-system';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 without padding, lower case. */
export function base32Lower(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The identity Lease's name for a host name. */
export function identityLeaseName(hostname: string): string {
  const part = (s: string) => {
    const b = Buffer.from(s, 'utf8');
    const len = Buffer.alloc(2);
    len.writeUInt16BE(b.length);
    return Buffer.concat([len, b]);
  };
  const hash = createHash('sha256')
    .update(Buffer.concat([part(hostname), part(KUBE_APISERVER)]))
    .digest();
  return `apiserver-${base32Lower(hash.subarray(0, 16))}`;
}

/** Whether an identity Lease expired at now (no renewTime or duration counts as expired). */
export function identityLeaseExpired(lease: Obj, now: number): boolean {
  const renew = Date.parse(String(lease.spec?.renewTime ?? ''));
  const seconds = lease.spec?.leaseDurationSeconds;
  if (!Number.isFinite(renew) || typeof seconds !== 'number') return true;
  return renew + seconds * 1000 < now;
}

export interface IdentityLease {
  name: string;
  holderIdentity: string;
  stop(): Promise<void>;
}

export interface IdentityLeaseOptions {
  hostname?: string;
  renewIntervalMs?: number;
  gcPeriodMs?: number;
  now?: () => number;
  log?: (msg: string) => void;
}

/** Writes this server's identity Lease now and then every renewal interval; collects expired ones every GC period. */
export async function startIdentityLease(api: ApiIndex, opts: IdentityLeaseOptions = {}): Promise<IdentityLease | undefined> {
  const leases = api.byKind('coordination.k8s.io', 'Lease');
  if (!leases) return undefined;
  const hostname = opts.hostname ?? osHostname();
  const name = identityLeaseName(hostname);
  const holderIdentity = `${name}_${randomUUID()}`;
  const now = opts.now ?? Date.now;
  const labels = { [IDENTITY_LABEL]: KUBE_APISERVER, [HOSTNAME_LABEL]: hostname };
  const spec = () => ({ holderIdentity, leaseDurationSeconds: IDENTITY_LEASE_DURATION_SECONDS, renewTime: formatMicroTime(now()) });

  const renew = async (): Promise<void> => {
    const stored = await storedOrNone(leases.store, NS_SYSTEM, name);
    if (!stored) {
      try {
        await leases.store.create(NS_SYSTEM, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: NS_SYSTEM, labels }, spec: spec() }, { writer: APISERVER_WRITER });
        return;
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 409)) throw err;
      }
    }
    await leases.store.update(
      NS_SYSTEM,
      name,
      (live) => {
        if (!live) throw new Error(`lease ${NS_SYSTEM}/${name} is gone`);
        return { ...live, metadata: { ...live.metadata, labels: { ...(live.metadata?.labels ?? {}), ...labels } }, spec: { ...(live.spec ?? {}), ...spec() } };
      },
      { writer: APISERVER_WRITER },
    );
  };
  const collect = async (): Promise<void> => {
    const { items } = await leases.store.list(NS_SYSTEM, {});
    for (const lease of items) {
      if (lease.metadata?.labels?.[IDENTITY_LABEL] !== KUBE_APISERVER || !identityLeaseExpired(lease, now())) continue;
      // deleted only as it was read: a renewal in between keeps it
      await leases.store
        .delete(NS_SYSTEM, lease.metadata.name, { writer: APISERVER_WRITER, preconditions: { resourceVersion: lease.metadata.resourceVersion } })
        .catch((err) => opts.log?.(`unable to delete the expired identity lease ${lease.metadata.name}: ${(err as Error).message}`));
    }
  };

  let pending: Promise<void> = Promise.resolve();
  const run = (what: string, fn: () => Promise<void>) => {
    pending = pending.then(fn).catch((err) => opts.log?.(`${what}: ${(err as Error).message}`));
  };
  run('unable to write the identity lease', renew);
  run('unable to collect expired identity leases', collect);
  await pending;
  const renewTimer = setInterval(() => run('unable to renew the identity lease', renew), opts.renewIntervalMs ?? RENEW_INTERVAL_MS);
  const gcTimer = setInterval(() => run('unable to collect expired identity leases', collect), opts.gcPeriodMs ?? GC_PERIOD_MS);
  renewTimer.unref();
  gcTimer.unref();
  return {
    name,
    holderIdentity,
    async stop() {
      clearInterval(renewTimer);
      clearInterval(gcTimer);
      await pending;
    },
  };
}
