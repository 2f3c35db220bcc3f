// The labels kube-apiserver's request metrics carry (endpoints/metrics):
// the verb as reported (cleanVerb: LIST for collection reads, WATCH,
// APPLY for server-side-apply patches, CONNECT for connect subresources,
// the HTTP method upper-cased otherwise), the dry-run value, the scope
// (resource, namespace, cluster) and the API group, version, resource and
// subresource of the request.

/** What the metrics read of a request (the HTTP layer's RequestInfo has these fields). */
export interface RequestFacts {
  isResourceRequest: boolean;
  path: string;
  method: string;
  verb: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

export const APPLY_PATCH = 'application/apply-patch+yaml';

/** Subresources served as CONNECT upstream (connecter storages). */
const CONNECT_SUBRESOURCES = new Set(['proxy', 'exec', 'attach', 'portforward']);

/** The verb as apiserver_request_total reports it. */
export function reportedVerb(info: RequestFacts, contentType: string | undefined): string {
  if (!info.isResourceRequest) return info.method === 'HEAD' ? 'GET' : info.method;
  // connecter subresources are CONNECT whatever the method
  if (CONNECT_SUBRESOURCES.has(info.subresource)) return 'CONNECT';
  switch (info.verb) {
    case 'list':
      return 'LIST';
    case 'watch':
      return 'WATCH';
    case 'get':
      return 'GET';
    case 'create':
      return 'POST';
    case 'update':
      return 'PUT';
    case 'patch':
      return contentType?.split(';')[0].trim().toLowerCase() === APPLY_PATCH ? 'APPLY' : 'PATCH';
    case 'delete':
      return 'DELETE';
    case 'deletecollection':
      return 'DELETECOLLECTION';
    default:
      return info.method;
  }
}

/** The scope label: resource (one named object), namespace, cluster; empty for non-resource paths. */
export function requestScope(info: RequestFacts): string {
  if (!info.isResourceRequest) return '';
  if (info.name) return 'resource';
  if (info.namespace) return 'namespace';
  return 'cluster';
}

/** The dry_run label: the request's dryRun values, sorted and without repeats; `invalid` for a value other than All. */
export function dryRunLabel(query: URLSearchParams): string {
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return 'All';
}
