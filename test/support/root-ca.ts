// The root CA publisher writes kube-root-ca.crt into every namespace soon
// after the namespace appears: tests that count the ConfigMaps of a
// namespace wait for it first, so the count is the same on every run.
import type { RunningServer } from '../../runtime/index.ts';
import { serverFetch } from './server-fetch.ts';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';

/**
 * Resolves once kube-root-ca.crt exists in `namespace` of an in-process
 * server (read through app.request) or of a server process at a URL (read
 * as its admin). Polls; no assertion on how long it takes.
 */
export async function rootCAPublished(server: RunningServer | string, namespace = 'default'): Promise<void> {
  const path = `/api/v1/namespaces/${namespace}/configmaps/${ROOT_CA_CONFIGMAP}`;
  for (let i = 0; i < 4000; i++) {
    const r = typeof server === 'string' ? await serverFetch(`${server}${path}`) : await server.app.request(path);
    await r.body?.cancel();
    if (r.status === 200) return;
    await new Promise((res) => setTimeout(res, 5));
  }
  throw new Error(`no ${ROOT_CA_CONFIGMAP} in ${namespace}`);
}
