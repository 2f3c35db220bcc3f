// kube-controller-manager's service-account tokens controller, run
// in-process (`serviceaccount-token` in --controllers, on by default): a
// Secret of type kubernetes.io/service-account-token naming a
// ServiceAccount gets its legacy token, namespace and ca.crt filled in;
// one whose account is gone or was replaced is deleted. The decision per
// Secret is runtime/auth/serviceaccount/token-secrets.ts's.

import { ApiError } from '../api/errors.ts';
import type { TokenIssuer } from '../auth/serviceaccount/issuer.ts';
import { planTokenSecret, SA_NAME_ANNOTATION, SERVICE_ACCOUNT_TOKEN_TYPE } from '../auth/serviceaccount/token-secrets.ts';
import type { ApiIndex } from '../registry/served.ts';
import { TOKENS_CONTROLLER_WRITER } from '../registry/write-services.ts';
import type { Obj } from '../storage/interface.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';
import { ignoreStatus } from './ignore-status.ts';

export function startTokenSecretsController(api: ApiIndex, issuer: TokenIssuer, rootCA: string): WatchLoop | undefined {
  const secrets = api.lookup('', 'v1', 'secrets');
  const accounts = api.lookup('', 'v1', 'serviceaccounts');
  if (!secrets || !accounts) return undefined;
  let running: Promise<void> = Promise.resolve();

  const sync = async (secret: Obj): Promise<void> => {
    if (secret.type !== SERVICE_ACCOUNT_TOKEN_TYPE || secret.metadata?.deletionTimestamp) return;
    const { namespace, name } = secret.metadata;
    const saName = secret.metadata?.annotations?.[SA_NAME_ANNOTATION];
    let sa: Obj | undefined;
    if (saName)
      sa = await accounts.store.get(namespace, saName).catch((err) => {
        ignoreStatus([404])(err);
        return undefined;
      });
    const plan = await planTokenSecret(secret, sa, issuer, rootCA);
    if (plan.action === 'delete') {
      await secrets.store.delete(plan.namespace, plan.name, { preconditions: plan.uid ? { uid: plan.uid } : undefined, writer: TOKENS_CONTROLLER_WRITER }).catch(ignoreStatus([404, 409]));
    } else if (plan.action === 'update') {
      await secrets.store
        .update(
          namespace,
          name,
          async (live) => {
            if (!live) throw new ApiError(404, 'NotFound', `secret ${name} is gone`);
            const again = await planTokenSecret(live, sa, issuer, rootCA);
            return again.action === 'update' ? again.secret : live;
          },
          { writer: TOKENS_CONTROLLER_WRITER },
        )
        .catch(ignoreStatus([404, 409]));
    }
  };
  // one Secret at a time, in event order; a failed write is retried by the next event or resync
  const enqueue = (secret: Obj) => {
    running = running.then(() => sync(secret)).catch(() => {});
  };

  const secretLoop = startWatchLoop(secrets.store, '', {
    resync: (items) => {
      for (const s of items) enqueue(s);
    },
    event: (ev) => {
      if (ev.type !== 'DELETED') enqueue(ev.object);
    },
  });
  // an account deleted: its token Secrets go too
  const accountLoop = startWatchLoop(accounts.store, '', {
    resync: () => {},
    event: async (ev) => {
      if (ev.type !== 'DELETED') return;
      const { items } = await secrets.store.list(ev.object.metadata.namespace, {});
      for (const s of items) if (s.metadata?.annotations?.[SA_NAME_ANNOTATION] === ev.object.metadata.name) enqueue(s);
    },
  });
  return {
    async stop() {
      await Promise.all([secretLoop.stop(), accountLoop.stop()]);
      await running;
    },
  };
}
