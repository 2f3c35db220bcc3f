// The objects authentication reads to check a token (Secrets, ServiceAccounts,
// Pods, Nodes), read from the registry's stores: undefined for an object that
// does not exist or a resource this server does not serve.

import { ApiError } from '../api/errors.ts';
import type { ObjectReader, ReadableResource } from '../auth/serviceaccount/ports.ts';
import type { ApiIndex } from '../registry/served.ts';

export function objectReader(api: ApiIndex): ObjectReader {
  return {
    async get(resource: ReadableResource, namespace: string, name: string) {
      const res = api.lookup('', 'v1', resource);
      if (!res) return undefined;
      try {
        return await res.store.get(resource === 'nodes' ? '' : namespace, name);
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) return undefined;
        throw err;
      }
    },
  };
}
