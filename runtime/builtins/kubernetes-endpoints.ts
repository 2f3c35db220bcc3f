// The `kubernetes` Endpoints and EndpointSlice in `default`: the addresses
// of the API servers behind the `kubernetes` Service, port `https` (TCP) on
// the secure port, kept as upstream's endpoint reconciler keeps them
// (--endpoint-reconciler-type):
//   - lease (the default): every server refreshes its master lease
//     (master-leases.ts) every 10 seconds and writes the addresses of all live
//     leases, sorted; a server that stops removes its lease and writes the
//     others (the last one leaves the objects as they are, as upstream refuses
//     to erase every address); a killed one drops out when its lease expires.
//   - master-count: this server's address is added to those listed, and with
//     more than --apiserver-count the ones after it (wrapping around) go.
//   - none: the objects are not written.
// Written at start (created, or put back when they differ), at every
// interval, and again whenever one is deleted. The address is
// --advertise-address, else --bind-address unless it is a wildcard or
// loopback, else the first non-internal address of a host interface
// (upstream's choice of advertise address; endpoints may not hold loopback
// addresses); with none, no objects are written. The port is --secure-port
// (6443 by default), the Service's targetPort.

import { networkInterfaces } from 'node:os';
import { ApiError } from '../api/errors.ts';
import { NS_DEFAULT } from '../api/k8s-names.ts';
import { parseIP } from '../registry/allocators/ip.ts';
import { specialIPErrors } from '../registry/strategies/common/ip-rules.ts';
import type { ApiIndex, ServedResource } from '../registry/served.ts';
import type { Obj } from '../storage/interface.ts';
import { jsonEqual } from '../api/json-equal.ts';
import { type WatchLoop, startWatchLoop } from './watch-loop.ts';
import { groupVersion } from '../api/keys.ts';
import { APISERVER_WRITER } from '../registry/write-services.ts';
import { storedOrNone } from './read-first.ts';
import { ENDPOINT_RECONCILE_INTERVAL_MS, type MasterLeases } from './master-leases.ts';

export const NAME = 'kubernetes';
export const LABEL_SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror';
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';

export interface APIServerEndpoint {
  ip: string;
  port: number;
}

/** An address endpoints may hold (not unspecified, loopback or link-local). */
function usable(v: unknown): string {
  const s = typeof v === 'string' ? v : '';
  return s && parseIP(s) && specialIPErrors(s).length === 0 ? s : '';
}

/** The first non-internal host address, IPv4 preferred. */
export function hostAddress(ifaces = networkInterfaces()): string {
  const all = Object.values(ifaces)
    .flatMap((l) => l ?? [])
    .filter((i) => !i.internal);
  for (const family of ['IPv4', 'IPv6']) {
    const hit = all.find((i) => i.family === family && usable(i.address));
    if (hit) return hit.address;
  }
  return '';
}

/** Where clients reach this server, from the flags (see the header); undefined without a usable address. */
export function apiServerEndpoint(flags: Record<string, unknown>, host = hostAddress): APIServerEndpoint | undefined {
  const ip = usable(flags['advertise-address']) || usable(flags['bind-address']) || host();
  const port = Number(flags['secure-port']) || 6443;
  return ip ? { ip, port } : undefined;
}

export type EndpointReconcilerType = 'lease' | 'master-count' | 'none';
export const ENDPOINT_RECONCILER_TYPES: readonly EndpointReconcilerType[] = ['master-count', 'lease', 'none'];

export class EndpointReconcilerTypeError extends Error {}

/** --endpoint-reconciler-type (default lease). */
export function endpointReconcilerType(v: string | undefined): EndpointReconcilerType {
  const t = v === undefined || v === '' ? 'lease' : v;
  if (!(ENDPOINT_RECONCILER_TYPES as readonly string[]).includes(t)) {
    throw new EndpointReconcilerTypeError(`--endpoint-reconciler-type: invalid value "${t}" (one of ${ENDPOINT_RECONCILER_TYPES.join(', ')})`);
  }
  return t as EndpointReconcilerType;
}

/** The addresses the master-count reconciler writes: ours added, sorted; over count, those after ours (wrapping) removed. */
export function masterCountAddresses(current: readonly string[], own: string, count: number): string[] {
  const ips = [...new Set([...current, own])].sort();
  const max = Math.max(1, count);
  let i = ips.indexOf(own);
  while (ips.length > max) {
    const drop = (i + 1) % ips.length;
    ips.splice(drop, 1);
    if (drop < i) i--;
  }
  return ips;
}

/** The Endpoints listing every address (sorted) on the port. */
export function kubernetesEndpoints(ips: readonly string[], port: number): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: NAME, namespace: NS_DEFAULT, labels: { [LABEL_SKIP_MIRROR]: 'true' } },
    subsets: [{ addresses: [...ips].sort().map((ip) => ({ ip })), ports: [{ name: 'https', port, protocol: 'TCP' }] }],
  };
}

/** The EndpointSlice of the addresses of one family (that of the first), one endpoint each. */
export function kubernetesEndpointSlice(apiVersion: string, ips: readonly string[], port: number): Obj {
  const v6 = ips[0]?.includes(':') ?? false;
  return {
    apiVersion,
    kind: 'EndpointSlice',
    metadata: { name: NAME, namespace: NS_DEFAULT, labels: { [LABEL_SERVICE_NAME]: NAME } },
    addressType: v6 ? 'IPv6' : 'IPv4',
    endpoints: [...ips]
      .filter((ip) => ip.includes(':') === v6)
      .sort()
      .map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    ports: [{ name: 'https', port, protocol: 'TCP' }],
  };
}

/** The part of each kind the server owns (compared to decide whether to write it back). */
function owned(obj: Obj): Obj {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = obj;
  return { labels: obj.metadata?.labels ?? {}, ...rest };
}

/** `live` with what the server owns put back (undefined when nothing differs). */
function reconciled(live: Obj, desired: Obj): Obj | undefined {
  const next = { ...live, ...structuredClone(desired), metadata: { ...live.metadata, labels: { ...(live.metadata.labels ?? {}), ...desired.metadata.labels } } };
  return jsonEqual(owned(next), owned(live)) ? undefined : next;
}

async function ensure(res: ServedResource, desired: Obj): Promise<void> {
  const stored = await storedOrNone(res.store, NS_DEFAULT, NAME);
  if (stored && !reconciled(stored, desired)) return;
  if (!stored) {
    try {
      await res.store.create(NS_DEFAULT, structuredClone(desired), { writer: APISERVER_WRITER });
      return;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    }
  }
  await res.store.update(
    NS_DEFAULT,
    NAME,
    (live) => {
      if (!live) throw new Error(`${desired.kind} ${NAME} is gone`);
      return reconciled(live, desired) ?? live;
    },
    { writer: APISERVER_WRITER },
  );
}

export interface KubernetesEndpointsBuiltin {
  /** Removes this server's lease and writes the others' addresses, then stops. */
  stop(): Promise<void>;
}

export interface EndpointReconcilerOptions {
  type?: EndpointReconcilerType;
  /** The lease reconciler's record of live servers. */
  leases: MasterLeases;
  /** --apiserver-count (master-count; default 1). */
  masterCount?: number;
  /** How often the addresses are written again (default 10 s, upstream's). */
  intervalMs?: number;
  log?: (msg: string) => void;
}

/** The addresses listed in a stored Endpoints. */
function listedAddresses(ep: Obj | undefined): string[] {
  const subsets: Obj[] = Array.isArray(ep?.subsets) ? ep.subsets : [];
  return subsets
    .flatMap((s) => (Array.isArray(s.addresses) ? s.addresses : []))
    .map((a: Obj) => String(a?.ip ?? ''))
    .filter((ip: string) => ip !== '');
}

export async function installKubernetesEndpoints(api: ApiIndex, flags: Record<string, unknown>, opts: EndpointReconcilerOptions): Promise<KubernetesEndpointsBuiltin> {
  const ep = apiServerEndpoint(flags);
  const type = opts.type ?? 'lease';
  if (!ep || type === 'none') return { async stop() {} };
  const endpoints = api.byKind('', 'Endpoints');
  const slices = api.byKind('discovery.k8s.io', 'EndpointSlice');
  const sliceVersion = slices && groupVersion(slices.storageDef.group, slices.storageDef.version);
  const targets = [endpoints, slices].filter((r): r is ServedResource => !!r);
  const leases = opts.leases;
  let stopping = false;

  /** The addresses to write: none when there is nothing this server may write. */
  const addresses = async (): Promise<string[]> => {
    if (type === 'master-count') {
      const stored = endpoints ? await storedOrNone(endpoints.store, NS_DEFAULT, NAME) : undefined;
      return masterCountAddresses(listedAddresses(stored), ep.ip, opts.masterCount ?? 1);
    }
    if (!stopping) await leases.update(ep.ip);
    const ips = new Set(await leases.list());
    if (stopping) ips.delete(ep.ip);
    else ips.add(ep.ip);
    return [...ips].sort();
  };
  const reconcile = async (): Promise<void> => {
    const ips = await addresses();
    // upstream refuses to erase every address of the kubernetes Service
    if (ips.length === 0) return;
    for (const res of targets) {
      const desired = res === endpoints ? kubernetesEndpoints(ips, ep.port) : kubernetesEndpointSlice(sliceVersion!, ips, ep.port);
      await ensure(res, desired).catch((err) => {
        // `default` is missing only when namespaces are not served
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      });
    }
  };

  await reconcile();
  let pending: Promise<void> = Promise.resolve();
  const again = () => {
    pending = pending.then(reconcile).catch((err) => opts.log?.(`unable to reconcile the kubernetes endpoints: ${(err as Error).message}`));
  };
  const timer = setInterval(again, opts.intervalMs ?? ENDPOINT_RECONCILE_INTERVAL_MS);
  timer.unref();
  const loops: WatchLoop[] = targets.map((res) =>
    startWatchLoop(res.store, NS_DEFAULT, {
      resync(items) {
        if (!items.some((o) => o.metadata?.name === NAME)) again();
      },
      event(ev) {
        if (ev.type === 'DELETED' && ev.object.metadata?.name === NAME) again();
      },
    }),
  );
  return {
    async stop() {
      clearInterval(timer);
      for (const l of loops) await l.stop();
      await pending;
      if (type !== 'lease') return;
      stopping = true;
      await leases.remove(ep.ip);
      await reconcile().catch((err) => opts.log?.(`unable to remove this server from the kubernetes endpoints: ${(err as Error).message}`));
    },
  };
}
