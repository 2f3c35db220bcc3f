// kube-controller-manager's csrsigning (`csrsigning` in --controllers, on
// by default), run in-process for the kube-apiserver-client and
// kubelet-serving signers with the server's CA (the CA client certificates
// are verified with, unless --client-ca-file names others): every approved
// request of those signers gets its certificate in status, or a Failed
// condition (reason SignerValidationFailure) when the signer's rules refuse
// it. Writes go through the status subresource as the controller's service
// account. Over plain HTTP there is no CA: the server does not start it.

import { ApiError } from '../api/errors.ts';
import type { KeyPairPEM } from '../auth/pki/certs.ts';
import { signCSR, wantsSigning } from '../controllers/csrsigning/signer.ts';
import type { ApiIndex } from '../registry/served.ts';
import { CERTIFICATE_CONTROLLER_WRITER } from '../registry/write-services.ts';
import type { Obj } from '../storage/interface.ts';
import { ignoreStatus } from './ignore-status.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';

export interface CSRSigningOptions {
  ca: KeyPairPEM;
  /** --cluster-signing-duration (ms). */
  durationMs?: number;
  now?: () => number;
}

const nowRFC3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function startCSRSigning(api: ApiIndex, o: CSRSigningOptions): WatchLoop | undefined {
  const csrs = api.lookup('certificates.k8s.io', 'v1', 'certificatesigningrequests');
  if (!csrs) return undefined;
  const now = o.now ?? Date.now;

  const sync = async (name: string): Promise<void> => {
    await csrs.store
      .update(
        '',
        name,
        (live) => {
          if (!live) throw new ApiError(404, 'NotFound', `certificatesigningrequest ${name} is gone`);
          if (!wantsSigning(live)) return live;
          let outcome;
          try {
            outcome = signCSR(live, { ca: o.ca, durationMs: o.durationMs, now });
          } catch {
            return live; // unreadable request: validation keeps these out; nothing to sign
          }
          const status = structuredClone(live.status ?? {});
          if ('certificatePEM' in outcome) status.certificate = Buffer.from(outcome.certificatePEM).toString('base64');
          else {
            const conditions: Obj[] = Array.isArray(status.conditions) ? status.conditions : [];
            conditions.push({ type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: outcome.failure, lastUpdateTime: nowRFC3339(now()) });
            status.conditions = conditions;
          }
          return { ...live, status };
        },
        { subresource: 'status', writer: CERTIFICATE_CONTROLLER_WRITER },
      )
      .catch(ignoreStatus([404, 409]));
  };

  // one request at a time, each queued once until it is synced; a conflict is retried by the event of the write that caused it
  const queued = new Set<string>();
  let running: Promise<void> = Promise.resolve();
  const enqueue = (csr: Obj) => {
    const name = csr.metadata?.name;
    if (!name || queued.has(name) || !wantsSigning(csr)) return;
    queued.add(name);
    running = running
      .then(() => {
        queued.delete(name);
        return sync(name);
      })
      .catch(() => {});
  };

  const loop = startWatchLoop(csrs.store, '', {
    resync: (items) => {
      for (const csr of items) enqueue(csr);
    },
    event: (ev) => {
      if (ev.type !== 'DELETED') enqueue(ev.object);
    },
  });
  return {
    async stop() {
      await loop.stop();
      await running;
    },
  };
}
