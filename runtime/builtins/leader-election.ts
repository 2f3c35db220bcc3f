// kube-controller-manager's leader election in this server: the controllers
// that must run once across replicas (the garbage collector, namespace
// deletion, service accounts and their tokens, kube-root-ca.crt, CSR
// signing, bootstrap tokens, Event TTL, quota usage) run only while this
// server holds the Lease `kube-system/kube-controller-manager`
// (--leader-elect-resource-namespace/-name), as upstream's
// kube-controller-manager elects itself (controllers/leaderelection/); they
// stop when the lease is lost and start again when it is won back. The
// identity is `<hostname>_<uuid>`, new at every start. As client-go does,
// a Normal Event `LeaderElection` on the Lease says `<identity> became
// leader` (and `stopped leading` when a renewal deadline passed), from the
// component kube-controller-manager. Without election
// (--leader-elect=false, or a store one process owns: SQLite) they run from
// start to stop.

import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { LeaderElector, realClock, type Clock } from '../controllers/leaderelection/elector.ts';
import { LeaseLock } from '../controllers/leaderelection/lease-lock.ts';
import type { ApiIndex } from '../registry/served.ts';
import { CONTROLLER_MANAGER_WRITER } from '../registry/write-services.ts';
import type { RegistryStore } from '../registry/store.ts';
import { formatRFC3339 } from '../api/rfc3339.ts';
import { storedOrNone } from './read-first.ts';

export interface LeaderElectionFlags {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** --leader-elect-resource-namespace (kube-system) and --leader-elect-resource-name (kube-controller-manager). */
  namespace: string;
  name: string;
}

export const DEFAULT_LEADER_ELECTION: LeaderElectionFlags = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
  namespace: 'kube-system',
  name: 'kube-controller-manager',
};

export interface Running {
  stop(): Promise<void>;
}

export interface ElectedControllers {
  /** This server's candidate identity (undefined without election). */
  identity?: string;
  /** Stops the controllers (and, when leading, releases the lease). */
  stop(): Promise<void>;
}

let eventSeq = 0n;

/** client-go's legacy event recorder's Event about the Lease: named `<lease>.<nanoseconds in hex>`, source and reporting component kube-controller-manager. */
async function recordLeaseEvent(api: ApiIndex, leases: RegistryStore, namespace: string, name: string, message: string): Promise<void> {
  const events = api.byKind('', 'Event');
  if (!events) return;
  const lease = await storedOrNone(leases, namespace, name);
  const now = Date.now();
  const at = formatRFC3339(now);
  await events.store.create(
    namespace,
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${name}.${(BigInt(now) * 1_000_000n + (eventSeq++ % 1_000_000n)).toString(16)}`, namespace },
      involvedObject: { kind: 'Lease', namespace, name, uid: lease?.metadata?.uid, apiVersion: 'coordination.k8s.io/v1', resourceVersion: lease?.metadata?.resourceVersion },
      reason: 'LeaderElection',
      message,
      source: { component: 'kube-controller-manager' },
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
      type: 'Normal',
      reportingComponent: 'kube-controller-manager',
    },
    { writer: CONTROLLER_MANAGER_WRITER },
  );
}

/** kube-controller-manager's identity: the host name, `_`, a new UUID. */
export function candidateIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

/**
 * Runs start() while this server leads (or at once without election);
 * resolves after the first attempt to take the lease (and, when it was
 * taken, once the controllers started).
 */
export async function runElectedControllers(
  api: ApiIndex,
  election: LeaderElectionFlags | undefined,
  start: () => Promise<Running | undefined>,
  log: (msg: string) => void,
  clock: Clock = realClock,
): Promise<ElectedControllers> {
  const leases = election && api.byKind('coordination.k8s.io', 'Lease');
  if (election && !leases) log('leader election is off: coordination.k8s.io/v1 Leases are not served; the controllers run in this server regardless');
  if (!election || !leases) {
    const running = await start();
    return { stop: async () => await running?.stop() };
  }
  const identity = candidateIdentity();
  let running: Running | undefined;
  let firstDone: () => void = () => {};
  const first = new Promise<void>((resolve) => (firstDone = resolve));
  const elector = new LeaderElector({
    lock: new LeaseLock(leases.store, election.namespace, election.name, CONTROLLER_MANAGER_WRITER),
    identity,
    leaseDurationMs: election.leaseDurationMs,
    renewDeadlineMs: election.renewDeadlineMs,
    retryPeriodMs: election.retryPeriodMs,
    clock,
    log,
    recordEvent(message) {
      recordLeaseEvent(api, leases.store, election.namespace, election.name, `${identity} ${message}`).catch((err) => log(`unable to record the leader election event: ${(err as Error).message}`));
    },
    async onStartedLeading() {
      log(`leading as ${identity}: starting the controllers`);
      try {
        running = await start();
      } finally {
        firstDone();
      }
    },
    async onStoppedLeading() {
      log(`no longer leading as ${identity}: stopping the controllers`);
      const r = running;
      running = undefined;
      await r?.stop();
    },
    onFirstAttempt(acquired) {
      if (!acquired) firstDone();
    },
  });
  elector.run();
  await first;
  return {
    identity,
    async stop() {
      firstDone();
      await elector.stop();
    },
  };
}
