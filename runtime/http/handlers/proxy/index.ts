// The proxy subresources of pods, services and nodes (`.../proxy` and
// `.../proxy/{path}`, every method upstream's proxy connecters take).
// kube-apiserver forwards such a request to the backend its registry
// finds (registry/proxy/location.ts); this server connects to no backend.
// So it answers what upstream answers up to the connection: the lookup's
// refusals (400, 404, 503), the redirect of a GET or HEAD of the proxy root
// to its path with a slash (301), and then, where upstream would connect,
// the error upstream sends when the connection fails, saying why: 503
// "error trying to reach service" for a forwarded request, 500 "error
// dialing backend" for a connection upgrade. Admission runs first, with
// the CONNECT operation (handlers/connect.ts).

import { ApiError, errors } from '../../../api/errors.ts';
import type { ApiIndex } from '../../../registry/served.ts';
import { type ProxyLocation, dialAddress, nodeLocation, podLocation, serviceLocation } from '../../../registry/proxy/location.ts';
import { requestHeader, requestTarget } from '../../request-headers.ts';
import type { RequestContext } from '../context.ts';
import { admitConnect } from '../connect.ts';

/** Why no connection is made, in place of the network error upstream would report. */
const NO_BACKEND = 'this API server does not connect to proxied backends';

/** The resources whose `proxy` subresource forwards requests. */
export const PROXIED = new Set(['pods', 'services', 'nodes']);

function storeOf(api: ApiIndex, resource: string) {
  const store = api.lookup('', 'v1', resource)?.store;
  if (!store) throw errors.notFoundPath();
  return store;
}

function locate(rc: RequestContext, api: ApiIndex): Promise<ProxyLocation> {
  const { resource, namespace, name } = rc.info;
  if (resource === 'pods') return podLocation(rc.res.store, namespace, name);
  if (resource === 'nodes') return nodeLocation(rc.res.store, name);
  return serviceLocation({ services: rc.res.store, endpoints: storeOf(api, 'endpoints'), pods: storeOf(api, 'pods') }, namespace, name);
}

/** The path forwarded: the segments after `proxy`, with a leading slash, and a trailing one when the request had one. */
function forwardedPath(parts: string[], requestPath: string): string {
  let p = parts.slice(3).join('/');
  if (p && !p.startsWith('/')) p = `/${p}`;
  if (requestPath.endsWith('/') && !p.endsWith('/')) p += '/';
  return p;
}

/** httpstream.IsUpgradeRequest: a Connection header naming an upgrade. */
const isUpgrade = (connection: string | undefined): boolean => (connection ?? '').toLowerCase().includes('upgrade');

export async function handleProxy(rc: RequestContext, api: ApiIndex): Promise<Response> {
  if (rc.query.has('dryRun')) throw errors.badRequest('dryRun is not supported');
  // admission sees the connect (a ...ProxyOptions with the forwarded path) before the object is looked up
  await admitConnect(rc, forwardedPath(rc.info.parts, rc.info.path));
  const loc = await locate(rc, api);
  const address = dialAddress(loc);
  if (isUpgrade(requestHeader(rc.c, 'connection'))) throw new ApiError(500, '', `error dialing backend: dial tcp ${address}: ${NO_BACKEND}`);
  const method = rc.info.method;
  if (forwardedPath(rc.info.parts, rc.info.path) === '' && (method === 'GET' || method === 'HEAD')) {
    // upstream redirects the proxy root to the same path with a slash before it connects
    const { path, query } = requestTarget(rc.c);
    return new Response(null, { status: 301, headers: { Location: `${path}/${query ? `?${query}` : ''}` } });
  }
  throw errors.serviceUnavailable(`error trying to reach service: dial tcp ${address}: ${NO_BACKEND}`);
}
