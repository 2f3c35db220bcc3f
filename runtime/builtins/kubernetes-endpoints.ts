// The `kubernetes` Endpoints and EndpointSlice in `default`: the server's own
// address behind the `kubernetes` Service, port `https` (TCP) on the secure
// port. Written at start (created, or put back when they differ) and
// created again whenever one is deleted, as upstream's endpoint reconciler
// keeps them. The address is --advertise-address, else --bind-address
// unless it is a wildcard or loopback, else the first non-internal address
// of a host interface (upstream's choice of advertise address; endpoints
// may not hold loopback addresses); with none, no objects are written. The
// port is --secure-port (6443 by default), the Service's targetPort.

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

export function kubernetesEndpoints(ep: APIServerEndpoint): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: NAME, namespace: NS_DEFAULT, labels: { [LABEL_SKIP_MIRROR]: 'true' } },
    subsets: [{ addresses: [{ ip: ep.ip }], ports: [{ name: 'https', port: ep.port, protocol: 'TCP' }] }],
  };
}

export function kubernetesEndpointSlice(apiVersion: string, ep: APIServerEndpoint): Obj {
  return {
    apiVersion,
    kind: 'EndpointSlice',
    metadata: { name: NAME, namespace: NS_DEFAULT, labels: { [LABEL_SERVICE_NAME]: NAME } },
    addressType: ep.ip.includes(':') ? 'IPv6' : 'IPv4',
    endpoints: [{ addresses: [ep.ip], conditions: { ready: true } }],
    ports: [{ name: 'https', port: ep.port, protocol: 'TCP' }],
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
  stop(): Promise<void>;
}

export async function installKubernetesEndpoints(api: ApiIndex, flags: Record<string, unknown>): Promise<KubernetesEndpointsBuiltin> {
  const ep = apiServerEndpoint(flags);
  const targets: { res: ServedResource; desired: Obj }[] = [];
  if (!ep) return { async stop() {} };
  const endpoints = api.byKind('', 'Endpoints');
  if (endpoints) targets.push({ res: endpoints, desired: kubernetesEndpoints(ep) });
  const slices = api.byKind('discovery.k8s.io', 'EndpointSlice');
  if (slices) targets.push({ res: slices, desired: kubernetesEndpointSlice(groupVersion(slices.storageDef.group, slices.storageDef.version), ep) });

  const loops: WatchLoop[] = [];
  for (const t of targets) {
    await ensure(t.res, t.desired).catch((err) => {
      // `default` is missing only when namespaces are not served
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    });
    let pending: Promise<void> = Promise.resolve();
    const again = () => {
      pending = pending
        .then(() => ensure(t.res, t.desired))
        .catch(() => {
          /* the namespace may be going away at shutdown */
        });
    };
    loops.push(
      startWatchLoop(t.res.store, NS_DEFAULT, {
        resync(items) {
          if (!items.some((o) => o.metadata?.name === NAME)) again();
        },
        event(ev) {
          if (ev.type === 'DELETED' && ev.object.metadata?.name === NAME) again();
        },
      }),
    );
    loops.push({ stop: () => pending });
  }
  return {
    async stop() {
      for (const l of loops) await l.stop();
    },
  };
}
