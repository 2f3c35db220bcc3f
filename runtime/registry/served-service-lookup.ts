// What a webhook `service` reference is resolved with
// (webhook-client/service-resolver.ts), read from the resources this server
// serves: Services and Endpoints of core/v1 and discovery.k8s.io/v1
// EndpointSlices.

import type { ServiceLookup } from '../webhook-client/service-resolver.ts';
import type { ApiIndex } from './served.ts';

export function servedServiceLookup(api: ApiIndex): ServiceLookup {
  return {
    get(resource, namespace, name) {
      const res = api.lookup('', 'v1', resource);
      if (!res) return Promise.reject(new Error(`${resource} are not served`));
      return res.store.get(namespace, name);
    },
    async endpointSlices(namespace) {
      const res = api.lookup('discovery.k8s.io', 'v1', 'endpointslices');
      if (!res) return [];
      return (await res.store.list(namespace, {})).items;
    },
  };
}
