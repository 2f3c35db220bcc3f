// Service allocation at start-up: builds the allocators from
// --service-cluster-ip-range and --service-node-port-range, keeps their
// ranges in storage (RangeAllocation objects changed by compare-and-swap,
// shared by every server on the store), repairs them from the stored
// Services at start and then every 3 minutes as kube-apiserver does (a value
// no Service holds is freed once 3 repairs in a row found it so; a range
// stored for other flags is rebuilt), binds them to the Service strategy,
// mirrors addresses as IPAddress objects when networking.k8s.io/v1beta1 is
// served, and makes sure the `kubernetes` Service exists in `default` with
// the range's first address.

import { NS_DEFAULT } from '../api/k8s-names.ts';
import type { IPFamily } from '../registry/allocators/ip.ts';
import { type AddressObserver, DEFAULT_NODE_PORT_RANGE, DEFAULT_SERVICE_CIDR, ServiceAllocators } from '../registry/strategies/service/allocate.ts';
import { bindServiceAllocators } from '../registry/strategies/service/strategy.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { Obj, Storage } from '../storage/interface.ts';
import { groupVersion } from '../api/keys.ts';
import { APISERVER_WRITER } from '../registry/write-services.ts';
import { ignoreStatus } from './ignore-status.ts';
import { storedOrNone } from './read-first.ts';

export const LABEL_IP_FAMILY = 'ipaddress.kubernetes.io/ip-family';
export const LABEL_MANAGED_BY = 'ipaddress.kubernetes.io/managed-by';
export const IP_ALLOCATOR_MANAGER = 'ipallocator.k8s.io';

/** IPAddress objects (networking.k8s.io) named by canonical address, parentRef to the Service. */
export function ipAddressObserver(api: ApiIndex): AddressObserver | undefined {
  const res = api.byKind('networking.k8s.io', 'IPAddress');
  if (!res) return undefined;
  const apiVersion = groupVersion(res.storageDef.group, res.storageDef.version);
  return {
    async allocated(ip: string, family: IPFamily, svc: Obj) {
      await res.store
        .create(
          '',
          {
            apiVersion,
            kind: 'IPAddress',
            metadata: { name: ip, labels: { [LABEL_IP_FAMILY]: family, [LABEL_MANAGED_BY]: IP_ALLOCATOR_MANAGER } },
            spec: { parentRef: { group: '', resource: 'services', namespace: svc.metadata.namespace, name: svc.metadata.name } },
          },
          { writer: APISERVER_WRITER },
        )
        .catch(ignoreStatus([409]));
    },
    async released(ip: string) {
      await res.store.delete('', ip, { writer: APISERVER_WRITER }).catch(ignoreStatus([404]));
    },
  };
}

export interface ServiceBuiltins {
  allocators: ServiceAllocators;
  stop(): Promise<void>;
}

/** kube-apiserver's repair interval for the service ranges, and the repairs a leak must survive before it is freed. */
export const REPAIR_INTERVAL_MS = 3 * 60_000;
export const REPAIRS_BEFORE_LEAK_CLEANUP = 3;

/** A repair's judge of leaks: a value no Service holds is freed at its `after`-th sighting in a row. */
export function leakCounter(after: number): { leaked(range: string, value: string | number): boolean; nextRound(): void } {
  let seen = new Map<string, number>();
  let now = new Map<string, number>();
  return {
    leaked(range, value) {
      const k = `${range} ${value}`;
      const n = (seen.get(k) ?? 0) + 1;
      if (n >= after) return true;
      now.set(k, n);
      return false;
    },
    nextRound() {
      seen = now;
      now = new Map();
    },
  };
}

export async function installServiceAllocation(api: ApiIndex, flags: Record<string, unknown>, rangeStorage?: Storage, repairIntervalMs = REPAIR_INTERVAL_MS): Promise<ServiceBuiltins | undefined> {
  const svc = api.byKind('', 'Service');
  if (!svc) return undefined;
  const allocators = new ServiceAllocators(String(flags['service-cluster-ip-range'] || DEFAULT_SERVICE_CIDR), String(flags['service-node-port-range'] || DEFAULT_NODE_PORT_RANGE));
  if (rangeStorage) allocators.bindStorage(rangeStorage);
  const { items } = await svc.store.list('', {});
  // at start nothing is freed: another server may be between taking a value and storing its Service
  await allocators.repair(items);
  const observer = ipAddressObserver(api);
  if (observer) {
    allocators.observer = observer;
    // addresses mirrored before the restart are not written again
    const ipRes = api.byKind('networking.k8s.io', 'IPAddress');
    const mirrored = new Set(ipRes ? (await ipRes.store.list('', {})).items.map((o) => o.metadata.name as string) : []);
    for (const s of items) {
      const ips: string[] = s.spec?.clusterIPs ?? [];
      for (const ip of ips) {
        const fam = ip.includes(':') ? 'IPv6' : 'IPv4';
        if (allocators.ip.get(fam)?.has(ip) && !mirrored.has(ip)) await observer.allocated(ip, fam, s);
      }
    }
  }
  bindServiceAllocators(svc.store.strategy, allocators);
  const targetPort = Number(flags['secure-port'] || 6443);
  await ensureKubernetesService(api, allocators, targetPort);
  await ensureDefaultServiceCIDR(api, allocators);
  let stopped = false;
  const leaks = leakCounter(REPAIRS_BEFORE_LEAK_CLEANUP);
  let repairing: Promise<void> = Promise.resolve();
  const repairTimer = setInterval(() => {
    repairing = repairing
      .then(async () => {
        if (stopped) return;
        const { items: now } = await svc.store.list('', {});
        await allocators.repair(now, leaks.leaked);
        leaks.nextRound();
      })
      .catch(() => {
        /* storage unavailable: the next repair tries again */
      });
  }, repairIntervalMs);
  repairTimer.unref();
  // the apiserver keeps its own Service: deleted, it is created again
  let pending: Promise<void> = Promise.resolve();
  allocators.onServiceGone = (obj) => {
    if (stopped || obj.metadata?.namespace !== NS_DEFAULT || obj.metadata?.name !== 'kubernetes') return;
    pending = pending
      .then(() => new Promise<void>((r) => setTimeout(r, 0)))
      .then(() => (stopped ? undefined : ensureKubernetesService(api, allocators, targetPort)))
      .catch(() => {
        /* the namespace may be gone at shutdown */
      });
  };
  return {
    allocators,
    async stop() {
      stopped = true;
      clearInterval(repairTimer);
      await repairing;
      await pending;
    },
  };
}

/** The `kubernetes` ServiceCIDR (networking.k8s.io, when served) naming the configured ranges, Ready. */
export async function ensureDefaultServiceCIDR(api: ApiIndex, allocators: ServiceAllocators): Promise<void> {
  const res = api.byKind('networking.k8s.io', 'ServiceCIDR');
  if (!res) return;
  const apiVersion = groupVersion(res.storageDef.group, res.storageDef.version);
  const cidrs = allocators.families.map((f) => allocators.ip.get(f)!.cidr.text);
  const stored = await storedOrNone(res.store, '', 'kubernetes');
  if (stored?.status?.conditions?.some((c: Obj) => c.type === 'Ready')) return;
  if (!stored) await res.store.create('', { apiVersion, kind: 'ServiceCIDR', metadata: { name: 'kubernetes' }, spec: { cidrs } }, { writer: APISERVER_WRITER }).catch(ignoreStatus([409]));
  await res.store.update(
    '',
    'kubernetes',
    (live) => {
      if (!live) throw new Error('ServiceCIDR kubernetes is gone');
      if (live.status?.conditions?.some((c: Obj) => c.type === 'Ready')) return live;
      const ready = { type: 'Ready', status: 'True', reason: 'ServiceCIDRReady', message: 'Kubernetes Service CIDR is ready', lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') };
      return { ...live, status: { conditions: [ready] } };
    },
    { subresource: 'status', writer: APISERVER_WRITER },
  );
}

export async function ensureKubernetesService(api: ApiIndex, allocators: ServiceAllocators, targetPort: number): Promise<void> {
  const svc = api.byKind('', 'Service');
  if (!svc) return;
  // kept as it is when stored (upstream's reconciler does not rewrite it either)
  if (await storedOrNone(svc.store, NS_DEFAULT, 'kubernetes')) return;
  const primary = allocators.ip.get(allocators.families[0])!;
  await svc.store
    .create(
      NS_DEFAULT,
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'kubernetes', namespace: NS_DEFAULT, labels: { component: 'apiserver', provider: 'kubernetes' } },
        spec: {
          type: 'ClusterIP',
          clusterIP: primary.nth(0),
          sessionAffinity: 'None',
          ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort }],
        },
      },
      { writer: APISERVER_WRITER },
    )
    .catch(ignoreStatus([409, 422]));
}
