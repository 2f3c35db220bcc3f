// kube-apiserver's master leases, the record the lease endpoint reconciler
// (--endpoint-reconciler-type=lease, the default) keeps of the live API
// servers: one key per advertised address, `<prefix>/masterleases/<ip>`
// (beside the resources, not an object of the API), whose value is an
// Endpoints naming the address, written with a 15-second TTL and rewritten
// every 10 seconds by its server. A server that stops deletes its own key; a
// killed one's key expires. Where the store has no TTL (SQLite: one process
// owns it) the record is this server alone, kept in memory.

import type { KV } from '../storage/interface.ts';

/** upstream's DefaultEndpointReconcilerTTL and DefaultEndpointReconcilerInterval */
export const MASTER_LEASE_TTL_SECONDS = 15;
export const ENDPOINT_RECONCILE_INTERVAL_MS = 10_000;

export const MASTER_LEASES_PREFIX = '/masterleases/';

export interface MasterLeases {
  /** The addresses of the live servers. */
  list(): Promise<string[]>;
  /** Writes (or refreshes) the lease of an address. */
  update(ip: string): Promise<void>;
  remove(ip: string): Promise<void>;
}

/** The value upstream keeps under a master lease: an Endpoints named by the address. */
export function masterLeaseValue(ip: string): string {
  return JSON.stringify({ kind: 'Endpoints', apiVersion: 'v1', metadata: { name: ip }, subsets: [{ addresses: [{ ip }] }] });
}

/** The leases in the store when it can expire keys, else this process's own record. */
export function masterLeases(kv: KV, ttlSeconds = MASTER_LEASE_TTL_SECONDS): MasterLeases {
  if (!kv.putWithTTL) return memoryLeases();
  const put = kv.putWithTTL.bind(kv);
  return {
    async list() {
      const { kvs } = await kv.list(MASTER_LEASES_PREFIX);
      return kvs.map((e) => e.key.slice(MASTER_LEASES_PREFIX.length)).filter((ip) => ip !== '');
    },
    update: (ip) => put(MASTER_LEASES_PREFIX + ip, masterLeaseValue(ip), ttlSeconds),
    async remove(ip) {
      try {
        await kv.delete(MASTER_LEASES_PREFIX + ip);
      } catch {
        // already gone (expired, or removed by a previous stop)
      }
    },
  };
}

function memoryLeases(): MasterLeases {
  const ips = new Set<string>();
  return {
    list: () => Promise.resolve([...ips]),
    update: (ip) => Promise.resolve(void ips.add(ip)),
    remove: (ip) => Promise.resolve(void ips.delete(ip)),
  };
}
