// startServer(): assembles a running API server — storage (SQLite file or
// in-memory), the generated API, the Hono app with its stages, the health
// checks, initial namespaces — listens, writes the admin kubeconfig, and
// returns a handle with the URL and stop() (graceful: see drain.ts). Used by
// the CLI and in-process by tests.

import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Hono } from 'hono';
import type { SchemaValidator } from '../../generated/api-types.ts';
import { AdmissionChain, type AdmissionPlugin } from '../admission/chain.ts';
import { ADMIN } from '../auth/user.ts';
import { type Authenticator, type Authorizer, createApp } from '../http/app.ts';
import { Discovery } from '../http/discovery.ts';
import { createManagedFieldsHook } from '../registry/managed-fields.ts';
import { alwaysAllow } from '../http/handlers/review.ts';
import { openAPIServer } from '../http/openapi.ts';
import { protobufSupport } from '../http/protobuf.ts';
import { WatchGuard } from '../http/watch-guard.ts';
import { installBuiltins } from '../builtins/index.ts';
import { GarbageCollector } from '../gc/garbage-collector.ts';
import { Defaulter } from '../registry/defaults.ts';
import { openStorage, type OpenedStorage } from '../storage/factory.ts';
import { formatters } from '../table/formatters.ts';
import { parseRuntimeConfig } from '../api/served-index.ts';
import { buildApiIndex } from '../registry/served.ts';
import type { WriteServices } from '../registry/write-services.ts';
import { sharedValidatorCache } from '../registry/object-checks.ts';
import { loadGeneratedApi } from './generated-api.ts';
import type { Check } from '../http/health.ts';
import { RequestDrain } from './drain.ts';
import { kubeconfigYAML } from './kubeconfig.ts';
import { listen } from './listen.ts';
import { boundURL, checkBindAddress, clientURL, insecureBindWarning } from '../http/bind-address.ts';

export interface StartOptions {
  /** Directory for the database and admin.kubeconfig; undefined or ':memory:' keeps everything in memory. */
  dataDir?: string;
  bindAddress?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  runtimeConfig?: string;
  minRequestTimeoutSeconds?: number;
  livezGracePeriodMs?: number;
  /** Admission plugins run after the built-in ones (for embedders and tests). */
  admissionPlugins?: AdmissionPlugin[];
  shutdownDelayMs?: number;
  /** History kept for watches and continue tokens (default 5 minutes). */
  historyWindowMs?: number;
  watchCache?: boolean;
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  /** --request-timeout in ms (default 60 s; 0: none). */
  requestTimeoutMs?: number;
  /** --max-watches, --max-watches-per-user (defaults 10000 and 1000; 0: no limit). */
  maxWatches?: number;
  maxWatchesPerUser?: number;
  /** --watch-stall-timeout in ms: a watch whose client takes no data for this long is closed (default 30 s; 0: never). */
  watchStallTimeoutMs?: number;
  /** Who a request is (tests and embedders); none by default: every caller is the anonymous admin. */
  authenticators?: Authenticator[];
  /** What a request may do (tests and embedders); default: everything. */
  authorizer?: Authorizer;
  /** --advertise-address: the address the `kubernetes` Endpoints publish. */
  advertiseAddress?: string;
  /** --service-cluster-ip-range (CIDRs, comma-separated for dual-stack). */
  serviceClusterIPRange?: string;
  /** --service-node-port-range (`30000-32767`). */
  serviceNodePortRange?: string;
  /** Another codegen output directory to serve (tests of dropped-in specs). */
  generatedDir?: string;
  /**
   * Serve a non-loopback bindAddress although there is no authentication yet
   * (--insecure-allow-unauthenticated-remote); without it startServer refuses one.
   */
  allowInsecureRemote?: boolean;
  /** --quarantine-unreadable: move stored values that cannot be read aside instead of refusing to start. */
  quarantineUnreadable?: boolean;
  /** How long stop() waits for requests in flight before ending them (default 60 s, upstream's request timeout). */
  shutdownTimeoutMs?: number;
  /** Where shutdown phases and storage state changes are reported (default: nowhere). */
  log?: (msg: string) => void;
  /** Test only: SQLite's max_page_count (a full database without a full disk) and the readiness probe interval. */
  storageTesting?: { maxPageCount?: number; probeIntervalMs?: number };
}

export interface RunningServer {
  /** The URL clients on this machine use (written to the kubeconfig): loopback for a wildcard bind address. */
  url: string;
  /** The address really listened on (`http://0.0.0.0:6443` for a wildcard bind address). */
  boundURL: string;
  port: number;
  /** An admin kubeconfig for this server (YAML). */
  kubeconfig: string;
  /** Where the kubeconfig was written (with a dataDir). */
  kubeconfigPath?: string;
  /** The Hono app, for app.request() tests without a socket. */
  app: Hono<any>;
  /** Readiness turns false at once; the server drains and closes storage. */
  stop(): Promise<void>;
  /** Marks the server as shutting down (readyz 503) without stopping it. */
  beginShutdown(): void;
  /** What opening the store found (quarantined rows, a previous owner that was killed). */
  storageReport: OpenedStorage['report'];
  /** Internal (tests): the storage stack. */
  storage: OpenedStorage;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const startedAt = Date.now();
  // no credentials are checked yet: a non-loopback address only when the caller accepted that
  checkBindAddress(options.bindAddress ?? '127.0.0.1', options.allowInsecureRemote ?? false);
  const bindWarning = insecureBindWarning(options.bindAddress ?? '127.0.0.1');
  if (bindWarning) console.warn(bindWarning);
  const inMemory = !options.dataDir || options.dataDir === ':memory:';
  const dataDir = inMemory ? undefined : options.dataDir!;
  if (dataDir) mkdirSync(dataDir, { recursive: true });

  const [generated, storage] = await Promise.all([
    loadGeneratedApi(options.generatedDir),
    openStorage({
      dataDir, historyWindowMs: options.historyWindowMs, watchCache: options.watchCache ?? true,
      quarantineUnreadable: options.quarantineUnreadable, log: options.log, testing: options.storageTesting,
    }),
  ]);
  // the write pipeline's services, shared by request handlers and in-process writers
  const admission = new AdmissionChain();
  const validatorCache = sharedValidatorCache(generated.dir);
  const writeServices: WriteServices = {
    validator(schema) {
      const loader = generated.validators[schema];
      if (!loader) return Promise.resolve(undefined);
      let p = validatorCache.get(schema);
      if (!p) {
        p = loader();
        validatorCache.set(schema, p);
      }
      return p as Promise<SchemaValidator>;
    },
    defaulter: new Defaulter(generated.mergeSchema),
    managedFields: createManagedFieldsHook(generated.mergeSchema),
    admission,
  };
  const api = buildApiIndex(generated.resources, storage.storageFor, parseRuntimeConfig(options.runtimeConfig), writeServices);

  let shuttingDown = false;
  let bootstrapped = false;
  const storageCheck: Check = { name: 'etcd', run: async () => { await storage.kv.currentRevision(); } };
  // readiness also needs writes to commit (a full disk fails it); liveness only reads, as upstream's
  const storageReady: Check = {
    name: 'etcd',
    run: async () => {
      await storage.kv.currentRevision();
      const err = storage.commitHealth();
      if (err) throw err;
    },
  };
  const bootstrapCheck: Check = {
    name: 'poststarthook/start-system-namespaces-controller',
    run: () => {
      if (!bootstrapped && Date.now() - startedAt > (options.livezGracePeriodMs ?? 0)) throw new Error('not finished');
    },
  };
  const readyBootstrap: Check = { name: bootstrapCheck.name, run: () => { if (!bootstrapped) throw new Error('not finished'); } };
  const common: Check[] = [{ name: 'ping', run: () => {} }, { name: 'log', run: () => {} }, storageCheck];

  const protobuf = await protobufSupport(generated.dir);
  const discovery = new Discovery(api.served, `${options.bindAddress ?? '127.0.0.1'}:${options.port ?? 0}`);
  const app = createApp({
    api,
    services: {
      validator: writeServices.validator,
      formatters,
      mergeSchema: generated.mergeSchema,
      defaulter: writeServices.defaulter,
      admission,
      managedFields: writeServices.managedFields,
      minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
      protobuf,
      watches: new WatchGuard({ maxWatches: options.maxWatches, maxWatchesPerUser: options.maxWatchesPerUser, stallTimeoutMs: options.watchStallTimeoutMs }),
    },
    authenticators: options.authenticators ?? [],
    anonymous: ADMIN,
    authorizer: options.authorizer ?? { authorize() {} },
    access: alwaysAllow,
    health: {
      livez: [...common, bootstrapCheck],
      readyz: [...common.map((c) => (c === storageCheck ? storageReady : c)), readyBootstrap, { name: 'shutdown', run: () => { if (shuttingDown) throw new Error('shutting down'); } }],
    },
    openapi: openAPIServer(generated.openapiDir),
    discovery,
    bindAddress: options.bindAddress ?? '127.0.0.1',
    maxRequestsInflight: options.maxRequestsInflight,
    maxMutatingRequestsInflight: options.maxMutatingRequestsInflight,
    requestTimeoutMs: options.requestTimeoutMs,
  });

  const host = options.bindAddress ?? '127.0.0.1';
  let drain: RequestDrain | undefined;
  const fetch = (req: Request, env: unknown) => drain?.refusal(req) ?? app.fetch(req, env as never);
  let server: Server;
  try {
    server = await listen(fetch, host, options.port ?? 0, (s) => { drain = new RequestDrain(s); });
  } catch (err) {
    // nothing was served: release the store (and its lock on the data directory)
    await storage.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;

  // Built-ins after listening, so they know the port (the kubernetes Endpoints); /readyz
  // reports not ready until they are installed, and startServer() resolves after them.
  const builtins = await installBuiltins({
    api, admission, discovery,
    flags: {
      'service-cluster-ip-range': options.serviceClusterIPRange,
      'service-node-port-range': options.serviceNodePortRange,
      'secure-port': port,
      'bind-address': host,
      'advertise-address': options.advertiseAddress,
    },
  });
  for (const plugin of options.admissionPlugins ?? []) admission.add(plugin);
  const gc = new GarbageCollector(api);
  await gc.start();
  bootstrapped = true;
  const url = clientURL(host, port);
  storage.describeOwner(url);
  const kubeconfig = kubeconfigYAML({ server: url });
  let kubeconfigPath: string | undefined;
  if (dataDir) {
    kubeconfigPath = join(dataDir, 'admin.kubeconfig');
    writeFileSync(kubeconfigPath, kubeconfig, { mode: 0o600 });
  }

  // the protobuf messages load once the server answers, not before
  setTimeout(() => protobuf.preload(), 100).unref();

  let stopped: Promise<void> | undefined;
  const log = options.log ?? (() => {});
  const drainTimeoutMs = options.shutdownTimeoutMs ?? 60_000;
  return {
    url, port, kubeconfig, kubeconfigPath, app,
    boundURL: boundURL((server.address() as AddressInfo).address, port),
    storageReport: storage.report,
    storage,
    beginShutdown() { shuttingDown = true; },
    stop() {
      stopped ??= (async () => {
        shuttingDown = true;
        // stop listening; requests in flight finish, new ones on open connections get 503
        const closed = drain!.begin();
        const inFlight = drain!.counts();
        log(`stopped listening; waiting for ${inFlight.short} request(s) in flight (at most ${drainTimeoutMs / 1000}s), ` +
          `then ending ${inFlight.watches} watch(es)`);
        if (!(await drain!.shortDone(drainTimeoutMs))) {
          log(`${drain!.counts().short} request(s) still in flight after ${drainTimeoutMs / 1000}s: ending them`);
        }
        await gc.stop();
        await builtins.stop();
        // closing the storage ends every watch stream: each response ends normally
        await storage.close();
        await drain!.allDone(5000);
        drain!.closeConnections(false);
        const force = setTimeout(() => drain!.closeConnections(true), 5000);
        await closed;
        clearTimeout(force);
        log('stopped');
      })();
      return stopped;
    },
  };
}
