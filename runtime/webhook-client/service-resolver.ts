// The address of a Service port for a webhook's `service` clientConfig
// (CRD conversion and admission webhooks): the Service's port of that
// number, then a ready endpoint of the Service's EndpointSlices (those
// labelled kubernetes.io/service-name=<name>) with the port of the same
// name; a Service without EndpointSlices is looked up in its Endpoints
// object instead. This is kube-apiserver's endpoint routing
// (--enable-aggregator-routing): no ClusterIP is routed on a single
// machine, so the webhook is called at a pod's address. Texts as upstream's
// resolver.

import type { Obj } from '../storage/interface.ts';
import type { ServiceResolver } from './client-config.ts';

/** Reads a Service, its EndpointSlices and its Endpoints as served; `get` rejects when the object is missing. */
export interface ServiceLookup {
  get(resource: 'services' | 'endpoints', namespace: string, name: string): Promise<Obj>;
  /** Every EndpointSlice of the namespace (absent: only Endpoints are read). */
  endpointSlices?(namespace: string): Promise<Obj[]>;
}

const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

/** A ready address of the slices for the Service port named portName, if any. */
function fromSlices(slices: Obj[], portName: string): { host: string; port: number } | undefined {
  for (const slice of slices) {
    const p = arr(slice.ports).find((sp) => (sp.name ?? '') === portName);
    if (!p || typeof p.port !== 'number') continue;
    for (const ep of arr(slice.endpoints)) {
      // ready unknown (nil) counts as ready, as EndpointSlice consumers read it
      if (ep.conditions?.ready === false) continue;
      const addresses = arr(ep.addresses);
      if (addresses.length > 0) return { host: String(addresses[0]), port: p.port };
    }
  }
  return undefined;
}

function fromEndpoints(eps: Obj | undefined, portName: string): { host: string; port: number } | undefined {
  for (const subset of arr(eps?.subsets)) {
    const addresses = arr(subset.addresses);
    const epPort = arr(subset.ports).find((p) => (p.name ?? '') === portName);
    if (epPort && addresses.length > 0) return { host: String(addresses[0].ip), port: Number(epPort.port) };
  }
  return undefined;
}

export function serviceResolver(lookup: ServiceLookup): ServiceResolver {
  return async (namespace, name, port) => {
    let svc: Obj;
    try {
      svc = await lookup.get('services', namespace, name);
    } catch {
      throw new Error(`service "${name}" not found`);
    }
    const svcPort = arr(svc.spec?.ports).find((p) => p.port === port);
    if (!svcPort) throw new Error(`no service port ${port} found for service ${JSON.stringify(name)}`);
    const portName = String(svcPort.name ?? '');
    const slices = lookup.endpointSlices ? (await lookup.endpointSlices(namespace).catch(() => [])).filter((s) => s.metadata?.labels?.[SERVICE_NAME_LABEL] === name) : [];
    if (slices.length > 0) {
      const at = fromSlices(slices, portName);
      if (at) return at;
    } else {
      const eps = await lookup.get('endpoints', namespace, name).catch(() => undefined);
      const at = fromEndpoints(eps, portName);
      if (at) return at;
    }
    throw new Error(`no endpoints available for service ${JSON.stringify(name)}`);
  };
}
