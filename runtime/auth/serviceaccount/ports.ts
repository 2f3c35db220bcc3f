// What the service-account modules need from the object store, as a small
// interface the server implements over its registry: read one object by
// resource, namespace and name (nodes are cluster-scoped: namespace '').
// Objects come back as plain API JSON; undefined means not found.

export type ReadableResource = 'secrets' | 'serviceaccounts' | 'pods' | 'nodes';

export interface ObjectReader {
  get(resource: ReadableResource, namespace: string, name: string): Promise<Record<string, unknown> | undefined>;
}

/** The metadata fields the token checks read. */
export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
}

export function metaOf(obj: Record<string, unknown>): ObjectMeta {
  const m = obj.metadata;
  return m && typeof m === 'object' ? (m as ObjectMeta) : {};
}
