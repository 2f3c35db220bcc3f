// kube-controller-manager's two bootstrap-token controllers, run in-process
// when --controllers names them (they are off by default, as upstream):
//   - tokencleaner deletes bootstrap-token Secrets in kube-system once they
//     expire (with the Secret's uid as a precondition), and wakes again when
//     the next one will;
//   - bootstrapsigner keeps kube-public/cluster-info signed: one
//     `jws-kubeconfig-<id>` entry per token usable for signing, dropped when
//     the token expires or goes away.
// The decisions are runtime/auth/bootstrap/'s pure functions; this file
// watches and writes, with each controller's identity.

import { ApiError } from '../api/errors.ts';
import { planTokenCleanup } from '../auth/bootstrap/cleaner.ts';
import { CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE, signClusterInfo } from '../auth/bootstrap/signer.ts';
import { TOKEN_SECRET_NAMESPACE } from '../auth/bootstrap/token.ts';
import type { ApiIndex } from '../registry/served.ts';
import { BOOTSTRAP_SIGNER_WRITER, TOKEN_CLEANER_WRITER } from '../registry/write-services.ts';
import type { Obj } from '../storage/interface.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';
import { ignoreStatus } from './ignore-status.ts';

export interface BootstrapTokenControllers {
  stop(): Promise<void>;
}

export function startBootstrapTokenControllers(api: ApiIndex, enabled: { cleaner: boolean; signer: boolean }, now: () => number = Date.now): BootstrapTokenControllers | undefined {
  const secretsRes = api.lookup('', 'v1', 'secrets');
  const cmRes = api.lookup('', 'v1', 'configmaps');
  if (!secretsRes || (!enabled.cleaner && !enabled.signer)) return undefined;
  const secrets = new Map<string, Obj>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const clean = async (): Promise<void> => {
    const plan = planTokenCleanup([...secrets.values()], now());
    for (const d of plan.delete) {
      await secretsRes.store.delete(d.namespace, d.name, { preconditions: d.uid ? { uid: d.uid } : undefined, writer: TOKEN_CLEANER_WRITER }).catch(ignoreStatus([404, 409]));
    }
    if (timer) clearTimeout(timer);
    timer = undefined;
    // wake when the next token expires (at least a second later, at most a day)
    if (plan.nextCheckInMs !== undefined && !stopped) {
      timer = setTimeout(() => schedule(), Math.min(Math.max(plan.nextCheckInMs + 1000, 1000), 86_400_000));
      timer.unref();
    }
  };

  const sign = async (): Promise<void> => {
    if (!cmRes) return;
    let cm: Obj;
    try {
      cm = await cmRes.store.get(CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_NAME);
    } catch (err) {
      ignoreStatus([404])(err);
      return;
    }
    const { changed } = await signClusterInfo(cm.data ?? {}, [...secrets.values()], now());
    if (!changed) return;
    await cmRes.store
      .update(
        CLUSTER_INFO_NAMESPACE,
        CLUSTER_INFO_NAME,
        async (live) => {
          if (!live) throw new ApiError(404, 'NotFound', 'cluster-info is gone');
          return { ...live, data: (await signClusterInfo(live.data ?? {}, [...secrets.values()], now())).data };
        },
        { writer: BOOTSTRAP_SIGNER_WRITER },
      )
      .catch(ignoreStatus([404, 409]));
  };

  // one pass at a time, in order: a pass sees every event before it
  const schedule = (): Promise<void> => {
    running = running
      .then(async () => {
        if (stopped) return;
        if (enabled.cleaner) await clean();
        if (enabled.signer) await sign();
      })
      .catch(() => {
        // the store is closing, or a write raced another: the next event or wake-up tries again
      });
    return running;
  };

  const keyOf = (o: Obj) => String(o.metadata?.name);
  const loops: WatchLoop[] = [
    startWatchLoop(secretsRes.store, TOKEN_SECRET_NAMESPACE, {
      resync: (items) => {
        secrets.clear();
        for (const s of items) secrets.set(keyOf(s), s);
        void schedule();
      },
      event: (ev) => {
        if (ev.type === 'DELETED') secrets.delete(keyOf(ev.object));
        else secrets.set(keyOf(ev.object), ev.object);
        void schedule();
      },
    }),
  ];
  if (enabled.signer && cmRes) {
    loops.push(
      startWatchLoop(cmRes.store, CLUSTER_INFO_NAMESPACE, {
        resync: () => {
          void schedule();
        },
        event: (ev) => {
          if (ev.object.metadata?.name === CLUSTER_INFO_NAME && ev.type !== 'DELETED') void schedule();
        },
      }),
    );
  }
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.all(loops.map((l) => l.stop()));
      await running;
    },
  };
}
