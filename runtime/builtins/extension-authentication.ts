// kube-system/extension-apiserver-authentication: the ConfigMap in which
// kube-apiserver publishes how it authenticates clients (its client CA and
// the front-proxy settings), so that extension API servers and webhooks can
// trust the same clients. Written at start with the server's identity,
// replaced when the settings changed since the last start (read first: an
// unchanged one is not written).

import { ApiError } from '../api/errors.ts';
import { jsonEqual } from '../api/json-equal.ts';
import { NS_SYSTEM } from '../api/k8s-names.ts';
import type { ApiIndex } from '../registry/served.ts';
import { APISERVER_WRITER } from '../registry/write-services.ts';
import { storedOrNone } from './read-first.ts';

export const EXTENSION_AUTHENTICATION = { namespace: NS_SYSTEM, name: 'extension-apiserver-authentication' };

export async function publishExtensionAuthentication(api: ApiIndex, data: Record<string, string>): Promise<void> {
  const cms = api.lookup('', 'v1', 'configmaps');
  if (!cms) return;
  const { namespace, name } = EXTENSION_AUTHENTICATION;
  const stored = await storedOrNone(cms.store, namespace, name);
  if (stored && jsonEqual(stored.data ?? {}, data)) return;
  if (!stored) {
    try {
      await cms.store.create(namespace, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data }, { writer: APISERVER_WRITER });
      return;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    }
  }
  await cms.store.update(
    namespace,
    name,
    (live) => {
      if (!live) throw new Error(`${namespace}/${name} is gone`);
      if (jsonEqual(live.data ?? {}, data)) return live;
      return { ...live, data };
    },
    { writer: APISERVER_WRITER },
  );
}
