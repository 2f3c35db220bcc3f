// The address of a Service port for a conversion webhook's `service`
// clientConfig: the Service's port of that number, then a ready address of
// its Endpoints with the port of the same name (kube-apiserver's endpoint
// resolver, used with --enable-aggregator-routing; texts as upstream's).

import type { Obj } from '../../storage/interface.ts';
import type { ServiceResolver } from './client.ts';

/** Reads an object of core/v1 services or endpoints; rejects when it is missing. */
export type CoreGetter = (resource: 'services' | 'endpoints', namespace: string, name: string) => Promise<Obj>;

export function endpointsResolver(get: CoreGetter): ServiceResolver {
  return async (namespace, name, port) => {
    let svc: Obj;
    try {
      svc = await get('services', namespace, name);
    } catch {
      throw new Error(`service "${name}" not found`);
    }
    const ports: Obj[] = Array.isArray(svc.spec?.ports) ? svc.spec.ports : [];
    const svcPort = ports.find((p) => p.port === port);
    if (!svcPort) throw new Error(`no service port ${port} found for service ${JSON.stringify(name)}`);
    let eps: Obj | undefined;
    try {
      eps = await get('endpoints', namespace, name);
    } catch {
      eps = undefined;
    }
    for (const subset of Array.isArray(eps?.subsets) ? (eps.subsets as Obj[]) : []) {
      const addresses: Obj[] = Array.isArray(subset.addresses) ? subset.addresses : [];
      const epPort = (Array.isArray(subset.ports) ? (subset.ports as Obj[]) : []).find((p) => (p.name ?? '') === (svcPort.name ?? ''));
      if (epPort && addresses.length > 0) return { host: String(addresses[0].ip), port: Number(epPort.port) };
    }
    throw new Error(`no endpoints available for service ${JSON.stringify(name)}`);
  };
}
