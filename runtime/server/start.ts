// startServer(): assembles a running API server — storage (SQLite file or
// in-memory), the generated API, the Hono app with its stages, the health
// checks, initial namespaces — listens, writes the admin kubeconfig, and
// returns a handle with the URL and stop(). Used by the CLI and in-process
// by tests.

import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { SchemaValidator } from '../../generated/api-types.ts';
import { AdmissionChain } from '../admission/chain.ts';
import { ADMIN } from '../auth/user.ts';
import { createApp } from '../http/app.ts';
import { createManagedFieldsHook } from '../http/managed-fields.ts';
import { alwaysAllow } from '../http/handlers/review.ts';
import { openAPIServer } from '../http/openapi.ts';
import { protobufSupport } from '../http/protobuf.ts';
import { installBuiltins } from '../builtins/index.ts';
import { GarbageCollector } from '../gc/garbage-collector.ts';
import { Defaulter } from '../registry/defaults.ts';
import { openStorage } from '../storage/factory.ts';
import { formatters } from '../table/formatters.ts';
import { ApiIndex, parseRuntimeConfig } from './api-index.ts';
import { loadGeneratedApi } from './generated-api.ts';
import type { Check } from './health.ts';
import { kubeconfigYAML } from './kubeconfig.ts';

export interface StartOptions {
  /** Directory for the database and admin.kubeconfig; undefined or ':memory:' keeps everything in memory. */
  dataDir?: string;
  bindAddress?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  runtimeConfig?: string;
  minRequestTimeoutSeconds?: number;
  livezGracePeriodMs?: number;
  shutdownDelayMs?: number;
  /** History kept for watches and continue tokens (default 5 minutes). */
  historyWindowMs?: number;
  watchCache?: boolean;
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  /** --advertise-address: the address the `kubernetes` Endpoints publish. */
  advertiseAddress?: string;
  /** --service-cluster-ip-range (CIDRs, comma-separated for dual-stack). */
  serviceClusterIPRange?: string;
  /** --service-node-port-range (`30000-32767`). */
  serviceNodePortRange?: string;
  /** Another codegen output directory to serve (tests of dropped-in specs). */
  generatedDir?: string;
}

export interface RunningServer {
  url: string;
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
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const startedAt = Date.now();
  const inMemory = !options.dataDir || options.dataDir === ':memory:';
  const dataDir = inMemory ? undefined : options.dataDir!;
  if (dataDir) mkdirSync(dataDir, { recursive: true });

  const [generated, storage] = await Promise.all([
    loadGeneratedApi(options.generatedDir),
    openStorage({ dataDir, historyWindowMs: options.historyWindowMs, watchCache: options.watchCache ?? true }),
  ]);
  const api = new ApiIndex(generated.resources, storage.storageFor, parseRuntimeConfig(options.runtimeConfig));

  let shuttingDown = false;
  let bootstrapped = false;
  const storageCheck: Check = { name: 'etcd', run: async () => { await storage.kv.currentRevision(); } };
  const bootstrapCheck: Check = {
    name: 'poststarthook/start-system-namespaces-controller',
    run: () => {
      if (!bootstrapped && Date.now() - startedAt > (options.livezGracePeriodMs ?? 0)) throw new Error('not finished');
    },
  };
  const readyBootstrap: Check = { name: bootstrapCheck.name, run: () => { if (!bootstrapped) throw new Error('not finished'); } };
  const common: Check[] = [{ name: 'ping', run: () => {} }, { name: 'log', run: () => {} }, storageCheck];

  const admission = new AdmissionChain();
  const protobuf = await protobufSupport(generated.dir);
  const validatorCache = new Map<string, Promise<SchemaValidator>>();
  const app = createApp({
    api,
    services: {
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
      formatters,
      mergeSchema: generated.mergeSchema,
      defaulter: new Defaulter(generated.mergeSchema),
      admission,
      managedFields: createManagedFieldsHook(generated.mergeSchema),
      minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
      protobuf,
    },
    authenticators: [],
    anonymous: ADMIN,
    authorizer: { authorize() {} },
    access: alwaysAllow,
    health: {
      livez: [...common, bootstrapCheck],
      readyz: [...common, readyBootstrap, { name: 'shutdown', run: () => { if (shuttingDown) throw new Error('shutting down'); } }],
    },
    openapi: openAPIServer(generated.openapiDir),
    serverAddress: `${options.bindAddress ?? '127.0.0.1'}:${options.port ?? 0}`,
    maxRequestsInflight: options.maxRequestsInflight,
    maxMutatingRequestsInflight: options.maxMutatingRequestsInflight,
  });

  const host = options.bindAddress ?? '127.0.0.1';
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 0 }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;

  // Built-ins after listening, so they know the port (the kubernetes Endpoints); /readyz
  // reports not ready until they are installed, and startServer() resolves after them.
  const builtins = await installBuiltins({
    api, admission,
    flags: {
      'service-cluster-ip-range': options.serviceClusterIPRange,
      'service-node-port-range': options.serviceNodePortRange,
      'secure-port': port,
      'bind-address': host,
      'advertise-address': options.advertiseAddress,
    },
  });
  const gc = new GarbageCollector(api);
  await gc.start();
  bootstrapped = true;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${urlHost}:${port}`;
  const kubeconfig = kubeconfigYAML({ server: url });
  let kubeconfigPath: string | undefined;
  if (dataDir) {
    kubeconfigPath = join(dataDir, 'admin.kubeconfig');
    writeFileSync(kubeconfigPath, kubeconfig, { mode: 0o600 });
  }

  // the protobuf messages load once the server answers, not before
  setTimeout(() => protobuf.preload(), 100).unref();

  let stopped: Promise<void> | undefined;
  return {
    url, port, kubeconfig, kubeconfigPath, app,
    beginShutdown() { shuttingDown = true; },
    stop() {
      stopped ??= (async () => {
        shuttingDown = true;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // watches are long-lived: end open connections so close() can finish
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        await gc.stop();
        await builtins.stop();
        await storage.close();
      })();
      return stopped;
    },
  };
}
