// Which requests are long-running, as kube-apiserver's default check
// (BasicLongRunningRequestCheck with the verbs watch and proxy and the
// subresources attach, exec, proxy, log and portforward, set in its
// control-plane config; /debug/pprof/ too): such a request has no
// --request-timeout deadline, is not counted toward the in-flight limits,
// and is not waited for when the server drains. The one rule every stage asks.

import type { RequestInfo } from './request-info.ts';

const VERBS = new Set(['watch', 'proxy']);
const SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

export function isLongRunning(info: Pick<RequestInfo, 'verb' | 'isResourceRequest' | 'subresource' | 'path'>): boolean {
  if (VERBS.has(info.verb)) return true;
  if (info.isResourceRequest) return SUBRESOURCES.has(info.subresource);
  return info.path.startsWith('/debug/pprof/');
}
