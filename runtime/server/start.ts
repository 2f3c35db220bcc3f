// startServer(): assembles a running API server — storage (SQLite file or
// in-memory), the generated API, the Hono app with its stages, the health
// checks, initial namespaces — listens, writes the admin kubeconfig, and
// returns a handle with the URL and stop() (graceful: see drain.ts). Used by
// the CLI and in-process by tests.

import type { ValidatorCompiler } from '../schema/validator-worker.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { MergeSchema, SchemaValidator } from '../../generated/api-types.ts';
import { AdmissionChain, type AdmissionPlugin } from '../admission/chain.ts';
import type { RequestAuthenticator } from '../auth/authenticator.ts';
import { buildAuthentication, type BuiltAuthentication, type RequestHeaderFlags } from './authentication.ts';
import { objectReader } from './object-reader.ts';
import { buildOpenIDMetadata, type OpenIDMetadata } from '../auth/serviceaccount/oidc.ts';
import { createTokenRequest } from '../auth/serviceaccount/token-request.ts';
import { createApp } from '../http/app.ts';
import { loadMatchConditionCompiler } from '../authz/webhook/match.ts';
import { buildServerAuthorization, validateAuthorizationOptions, type AuthorizationOptions, type ServerAuthorization } from './authorization.ts';
import { tlsMinVersion, tlsCiphers } from '../config/tls.ts';
import { enabledControllers } from '../config/controllers.ts';
import { enabledAdmissionPlugins } from '../config/admission-plugins.ts';
import { loadAdmissionConfig } from '../config/admission-config.ts';
import { readAdmissionPluginConfigs } from '../builtins/admission-configs.ts';
import { IPAllocator } from '../registry/allocators/range.ts';
import { preparePKI, type ServerPKI } from './pki.ts';
import { Discovery } from '../http/discovery.ts';
import { createManagedFieldsHook } from '../registry/managed-fields.ts';
import { openAPIServer } from '../http/openapi.ts';
import { protobufSupport } from '../http/protobuf.ts';
import { WatchGuard } from '../http/watch-guard.ts';
import { installBuiltins } from '../builtins/index.ts';
import { startNodeGraph } from '../builtins/node-graph.ts';
import type { WatchLoop } from '../builtins/watch-loop.ts';
import { GarbageCollector } from '../gc/garbage-collector.ts';
import { Defaulter } from '../registry/defaults.ts';
import { openStorage, type EtcdStorageOptions, type OpenedStorage } from '../storage/factory.ts';
import { formatters } from '../table/formatters.ts';
import { parseRuntimeConfig, validateRuntimeConfig } from '../api/runtime-config.ts';
import { serverFeatureGates } from './feature-gates.ts';
import { buildApiIndex } from '../registry/served.ts';
import type { WriteServices } from '../registry/write-services.ts';
import { sharedValidatorCache } from '../registry/object-checks.ts';
import { CustomSchemas } from '../registry/custom-schemas.ts';
import { compileCustomResourceRules, loadCustomResourceRules } from '../registry/custom-rules.ts';
import { loadGeneratedApi } from './generated-api.ts';
import type { Check } from '../http/health.ts';
import { RequestDrain } from './drain.ts';
import { type AuditFlags, buildAuditor } from './audit.ts';
import { kubeconfigYAML } from './kubeconfig.ts';
import { listen } from './listen.ts';
import { boundURL, canonicalAddress, checkBindAddress, clientURL, insecureBindWarning, isWildcardAddress } from '../http/bind-address.ts';
import { apiServerEndpoint, endpointReconcilerType } from '../builtins/kubernetes-endpoints.ts';
import { masterLeases } from '../builtins/master-leases.ts';
import { startIdentityLease, type IdentityLease } from '../builtins/apiserver-identity.ts';
import { DEFAULT_LEADER_ELECTION, runElectedControllers, type ElectedControllers, type LeaderElectionFlags } from '../builtins/leader-election.ts';
import { validateElectionTimings } from '../controllers/leaderelection/elector.ts';
import { DEFAULT_SERVICE_CIDR } from '../registry/strategies/service/allocate.ts';
import { ServerMetrics } from '../metrics/server-metrics.ts';
import { showHiddenMetrics } from '../metrics/stability.ts';
import { instrumentKV } from '../metrics/store-kv.ts';
import { ObjectCountPoller, objectCounter, storageFileSize } from './metric-sources.ts';
import { serverLogger, type Logger } from '../logging/logger.ts';
import { nextTurn } from '../api/next-turn.ts';

/** The flags of the server (kube-apiserver's names in camel case) and what tests and embedders may hand in; the authorization ones are AuthorizationOptions (server/authorization.ts). */
export interface StartOptions extends AuthorizationOptions {
  /** Compiles the validators of CustomResourceDefinitions (default: ajv in a worker thread; tests hold compiles with it). */
  crdValidatorCompiler?: ValidatorCompiler;
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
  /** --enable-admission-plugins: upstream plugin names added to the default set (config/admission-plugins.ts). */
  enableAdmissionPlugins?: string[];
  /** --disable-admission-plugins: upstream plugin names taken from the default set. */
  disableAdmissionPlugins?: string[];
  /** --admission-control-config-file: an AdmissionConfiguration file (config/admission-config.ts). */
  admissionControlConfigFile?: string;
  shutdownDelayMs?: number;
  /** The --audit-* flags (server/audit.ts): policy file, log and webhook backends. */
  audit?: AuditFlags;
  /** --event-ttl (ms, default one hour): Events are deleted this long after their last write. */
  eventTTLMs?: number;
  /** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds (DefaultTolerationSeconds admission; default 300). */
  defaultNotReadyTolerationSeconds?: number;
  defaultUnreachableTolerationSeconds?: number;
  /** History kept for watches and continue tokens (default 5 minutes). */
  historyWindowMs?: number;
  /** --etcd-servers and the other --etcd-* flags: store in etcd instead of <dataDir>/specserver.db. */
  etcd?: EtcdStorageOptions;
  /** --etcd-count-metric-poll-period: how often apiserver_storage_objects is counted (default 1 minute; 0: never). */
  etcdCountMetricPollPeriodMs?: number;
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
  /** Authenticators consulted before the server's own (tests and embedders). */
  authenticators?: RequestAuthenticator[];
  /** --anonymous-auth: a request without credentials is system:anonymous (default true); false: 401. */
  anonymousAuth?: boolean;
  /** INSECURE (--insecure-serve-http): plain HTTP instead of TLS. */
  insecureServeHTTP?: boolean;
  /** --cert-dir: where the generated CA and certificates are kept (default <dataDir>/pki; in memory without a dataDir). */
  certDir?: string;
  /** --tls-cert-file and --tls-private-key-file: the serving certificate instead of a generated one. */
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  /** --client-ca-file: the CAs client certificates are verified with (default: the server's CA). */
  clientCAFile?: string;
  /** --tls-min-version (VersionTLS12 by default). */
  tlsMinVersion?: string;
  /** --tls-cipher-suites (Go names). */
  tlsCipherSuites?: string[];
  /** --requestheader-client-ca-file and the other --requestheader-* flags (the front proxy). */
  requestHeader?: RequestHeaderFlags;
  /** --token-auth-file (CSV: token,user,uid,"group1,group2"). */
  tokenAuthFile?: string;
  /** --authentication-token-webhook-config-file, -version (default v1beta1) and -cache-ttl (default 2m). */
  authenticationTokenWebhook?: { configFile: string; version?: string; cacheTtlMs?: number };
  /** --authentication-config: an AuthenticationConfiguration file (anonymous access conditions). */
  authenticationConfig?: string;
  /** --feature-gates: the flag's text (`WatchList=true,...`) or the settings by name; 1.31's defaults for the others. */
  featureGates?: string | Record<string, boolean>;
  /** --api-audiences (default: the service-account issuers). */
  apiAudiences?: string[];
  /** --service-account-signing-key-file, --service-account-key-file, --service-account-issuer (default: a key pair under <dataDir>/pki, issuer https://kubernetes.default.svc.cluster.local). */
  serviceAccountSigningKeyFile?: string;
  serviceAccountKeyFiles?: string[];
  serviceAccountIssuers?: string[];
  /** --service-account-max-token-expiration in seconds (0: none). */
  serviceAccountMaxTokenExpirationSeconds?: number;
  /** --enable-bootstrap-token-auth */
  enableBootstrapTokenAuth?: boolean;
  /** --controllers (`*`, names, `-name`): the in-process controllers; tokencleaner and bootstrapsigner only when named. */
  controllers?: string[];
  /** --advertise-address: the address the `kubernetes` Endpoints publish. */
  advertiseAddress?: string;
  /** --endpoint-reconciler-type: lease (default; every live replica's address), master-count or none. */
  endpointReconcilerType?: string;
  /** --apiserver-count: the addresses the master-count reconciler keeps (default 1). */
  apiserverCount?: number;
  /**
   * --leader-elect (default true): the controllers that must run once (garbage collector, namespace, tokens ...) run only while this
   * replica holds the kube-controller-manager Lease. Only on etcd: a SQLite store has one process.
   */
  leaderElect?: boolean;
  /** --leader-elect-lease-duration, -renew-deadline, -retry-period (ms; 15 s, 10 s, 2 s) and -resource-namespace/-name. */
  leaderElection?: Partial<LeaderElectionFlags>;
  /** --cluster-signing-cert-file and --cluster-signing-key-file: the CA (PEM) that signs the serving, admin and CSR certificates instead of a generated one (replicas share it). */
  clusterSigningCertFile?: string;
  clusterSigningKeyFile?: string;
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
  /** --show-hidden-metrics-for-version: the previous minor release (`1.30`) shows the metrics hidden in this one. */
  showHiddenMetricsForVersion?: string;
  /** --disabled-metrics: metric names neither exported nor recorded. */
  disabledMetrics?: string[];
  /** The server's log (default: the process's, see logging/logger.ts); the request log is written at -v=3 and above. */
  logger?: Logger;
}

export interface RunningServer {
  /** The URL clients on this machine use (written to the kubeconfig): loopback for a wildcard bind address. */
  url: string;
  /** The CA that signed the serving certificate (PEM), for clients; undefined with plain HTTP or a foreign --tls-cert-file. */
  caPEM?: string;
  /** The admin's client certificate and key (PEM), as in the kubeconfig; undefined with plain HTTP. */
  adminCredentials?: { certPEM: string; keyPEM: string };
  /** The address really listened on (`http://0.0.0.0:6443` for a wildcard bind address). */
  boundURL: string;
  port: number;
  /** An admin kubeconfig for this server (YAML). */
  kubeconfig: string;
  /** Where the kubeconfig was written (with a dataDir). */
  kubeconfigPath?: string;
  /** The Hono app, for app.request() tests without a socket. */
  app: ReturnType<typeof createApp>;
  /** Readiness turns false at once; the server drains and closes storage. */
  stop(): Promise<void>;
  /** Marks the server as shutting down (readyz 503) without stopping it. */
  beginShutdown(): void;
  /** What opening the store found (quarantined rows, a previous owner that was killed). */
  storageReport: OpenedStorage['report'];
  /** Internal (tests): the storage stack. */
  storage: OpenedStorage;
  /** Internal (tests): the merge schema served with (the generated types and those of served CRDs). */
  mergeSchema: MergeSchema;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const startedAt = Date.now();
  const logger = options.logger ?? serverLogger();
  const warn = options.log ?? ((msg: string) => logger.warning(msg));
  const host = options.bindAddress ?? '127.0.0.1';
  const plain = options.insecureServeHTTP ?? false;
  if (plain) {
    // no TLS: a non-loopback address only when the caller accepted that
    checkBindAddress(host, options.allowInsecureRemote ?? false);
    const bindWarning = insecureBindWarning(host);
    if (bindWarning) logger.warning(bindWarning);
  }
  validateAuthorizationOptions(options);
  const reconcilerType = endpointReconcilerType(options.endpointReconcilerType);
  const election = leaderElection(options);
  const features = serverFeatureGates(options);
  for (const w of features.warnings) (options.log ?? console.warn)(w);
  const metrics = new ServerMetrics({ showHidden: showHiddenMetrics(options.showHiddenMetricsForVersion), disabled: options.disabledMetrics });
  const auditor = options.audit ? buildAuditor(options.audit, undefined, metrics.auditObserver) : undefined;
  const controllers = enabledControllers(options.controllers);
  const admissionPlugins = new Set(enabledAdmissionPlugins(options.enableAdmissionPlugins, options.disableAdmissionPlugins));
  const admissionConfigs = readAdmissionPluginConfigs(loadAdmissionConfig(options.admissionControlConfigFile), admissionPlugins);
  const inMemory = !options.dataDir || options.dataDir === ':memory:';
  const dataDir = inMemory ? undefined : options.dataDir!;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const tlsOptions = plain ? undefined : { minVersion: tlsMinVersion(options.tlsMinVersion), ciphers: tlsCiphers(options.tlsCipherSuites) };
  const pki: ServerPKI | undefined = plain
    ? undefined
    : await preparePKI({
        certDir: options.certDir ?? (dataDir ? join(dataDir, 'pki') : undefined),
        hosts: servingHosts(host, options.advertiseAddress, options.serviceClusterIPRange),
        tlsCertFile: options.tlsCertFile,
        tlsPrivateKeyFile: options.tlsPrivateKeyFile,
        clientCAFile: options.clientCAFile,
        clusterSigningCertFile: options.clusterSigningCertFile,
        clusterSigningKeyFile: options.clusterSigningKeyFile,
      });
  for (const note of pki?.notes ?? []) warn(note);

  const runtimeConfig = parseRuntimeConfig(options.runtimeConfig);
  const [generated, storage] = await Promise.all([
    loadGeneratedApi(options.generatedDir),
    openStorage({
      dataDir,
      historyWindowMs: options.historyWindowMs,
      watchCache: options.watchCache ?? true,
      quarantineUnreadable: options.quarantineUnreadable,
      log: options.log,
      testing: options.storageTesting,
      instrumentKV: (kv) => instrumentKV(kv, (operation, type, seconds) => metrics.storeRequest(operation, type, seconds)),
      etcd: options.etcd,
    }),
  ]);
  try {
    // upstream's start-up checks of --runtime-config against the served group-versions
    validateRuntimeConfig(runtimeConfig, generated.resources);
  } catch (err) {
    await storage.close();
    throw err;
  }
  // the write pipeline's services, shared by request handlers and in-process writers
  const admission = new AdmissionChain();
  admission.observe({
    plugin: (name, step, operation, rejected, seconds) => metrics.admissionPluginDone(name, step, operation, rejected, seconds),
    step: (step, operation, rejected, seconds) => metrics.admissionStepDone(step, operation, rejected, seconds),
  });
  const validatorCache = sharedValidatorCache(generated.dir);
  // the schemas of the CustomResourceDefinitions served while running
  const customSchemas = new CustomSchemas(generated.mergeSchema, compileCustomResourceRules, loadCustomResourceRules);
  const writeServices: WriteServices = {
    validator(schema) {
      const custom = customSchemas.validator(schema);
      if (custom) return Promise.resolve(custom);
      const loader = generated.validators[schema];
      if (!loader) return Promise.resolve(undefined);
      let p = validatorCache.get(schema);
      if (!p) {
        p = loader();
        validatorCache.set(schema, p);
      }
      return p as Promise<SchemaValidator>;
    },
    defaulter: new Defaulter(generated.mergeSchema, (schema) => customSchemas.defaults(schema)),
    embedded: (schema) => customSchemas.embedded(schema),
    managedFields: createManagedFieldsHook(generated.mergeSchema),
    admission,
    customResources: customSchemas,
    features,
  };
  const api = buildApiIndex(generated.resources, storage.storageFor, runtimeConfig, writeServices);
  const countPeriodMs = options.etcdCountMetricPollPeriodMs ?? 60_000;
  const objectCounts = new ObjectCountPoller(objectCounter(api, { count: (prefix) => storage.baseFor(prefix).count(prefix) }), countPeriodMs);
  metrics.setSources({ objectCounts: countPeriodMs > 0 ? objectCounts.latest : undefined, storageSize: storageFileSize(storage.report.file) });
  let authz: ServerAuthorization;
  try {
    // CEL, for the matchConditions of an --authorization-config file (and its reloads): loaded only then
    if (options.authorizationConfig) await loadMatchConditionCompiler();
    authz = buildServerAuthorization(options, api, warn);
  } catch (err) {
    await storage.close();
    throw err;
  }
  const { built: authorization, nodeGraph, rbacIndex } = authz;
  writeServices.writePolicy = authz.writePolicy;
  // what token checks and TokenRequest read (Secrets, ServiceAccounts, Pods, Nodes)
  const reader = objectReader(api);
  let authn: BuiltAuthentication;
  try {
    authn = buildAuthentication({
      extra: options.authenticators,
      clientCAs: pki?.clientCAs,
      clientCAPEM: pki?.clientCAPEM,
      requestHeader: plain ? undefined : options.requestHeader,
      tokenAuthFile: options.tokenAuthFile,
      webhook: options.authenticationTokenWebhook,
      anonymousAuth: options.anonymousAuth,
      authenticationConfig: options.authenticationConfig,
      apiAudiences: options.apiAudiences,
      serviceAccounts: {
        signingKeyFile: options.serviceAccountSigningKeyFile,
        keyFiles: options.serviceAccountKeyFiles,
        issuers: options.serviceAccountIssuers,
        pkiDir: options.certDir ?? (dataDir ? join(dataDir, 'pki') : undefined),
      },
      bootstrapTokens: options.enableBootstrapTokenAuth,
      reader,
      log: warn,
    });
  } catch (err) {
    authorization.close();
    await storage.close();
    throw err;
  }

  let shuttingDown = false;
  let bootstrapped = false;
  // on etcd: one request with --etcd-healthcheck-timeout, as upstream's etcd check
  const pingStorage = async (): Promise<void> => {
    if (!storage.ping) {
      await storage.kv.currentRevision();
      return;
    }
    const err = await storage.ping();
    if (err) throw err;
  };
  const storageCheck: Check = {
    name: 'etcd',
    run: pingStorage,
  };
  // readiness also needs writes to commit (a full disk fails it); liveness only reads, as upstream's
  const storageReady: Check = {
    name: 'etcd',
    run: async () => {
      await pingStorage();
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
  const readyBootstrap: Check = {
    name: bootstrapCheck.name,
    run: () => {
      if (!bootstrapped) throw new Error('not finished');
    },
  };
  const common: Check[] = [{ name: 'ping', run: () => {} }, { name: 'log', run: () => {} }, storageCheck];

  const protobuf = await protobufSupport(generated.proto);
  const discovery = new Discovery(api.served, `${options.bindAddress ?? '127.0.0.1'}:${options.port ?? 0}`);
  const openapi = openAPIServer(generated.openapiDir, {
    served: () => api.served.map((s) => s.def),
    custom: () => customSchemas.publishedOf(api.served.map((s) => s.def)),
    known: generated.resources,
  });
  // CustomResourceDefinitions change what is served: discovery and OpenAPI are built again
  api.onChange(() => {
    discovery.servedChanged();
    openapi.changed();
  });
  const app = createApp({
    auditor,
    api,
    services: {
      validator: writeServices.validator,
      formatters,
      mergeSchema: generated.mergeSchema,
      defaulter: writeServices.defaulter,
      embedded: writeServices.embedded,
      admission,
      managedFields: writeServices.managedFields,
      writePolicy: writeServices.writePolicy,
      minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
      protobuf,
      watches: new WatchGuard({ maxWatches: options.maxWatches, maxWatchesPerUser: options.maxWatchesPerUser, stallTimeoutMs: options.watchStallTimeoutMs }),
      features,
      metrics,
    },
    authentication: authn.chain,
    tokenRequests: {
      create: (namespace, serviceAccountName, body) =>
        createTokenRequest({
          namespace,
          serviceAccountName,
          body,
          apiAudiences: authn.apiAudiences,
          issuer: authn.issuer,
          reader,
          maxExpirationSeconds: options.serviceAccountMaxTokenExpirationSeconds,
          now: Date.now,
        }),
    },
    openid: () => openid,
    authorizer: authorization.authorizer,
    ruleResolver: authorization.ruleResolver,
    health: {
      livez: [...common, bootstrapCheck],
      readyz: [
        ...common.map((c) => (c === storageCheck ? storageReady : c)),
        readyBootstrap,
        {
          // upstream's hook reconciling the bootstrap roles (runtime/builtins/rbac.ts)
          name: 'poststarthook/rbac/bootstrap-roles',
          run: () => {
            if (!bootstrapped) throw new Error('not finished');
          },
        },
        {
          name: 'shutdown',
          run: () => {
            if (shuttingDown) throw new Error('shutting down');
          },
        },
      ],
    },
    openapi,
    discovery,
    bindAddress: options.bindAddress ?? '127.0.0.1',
    maxRequestsInflight: options.maxRequestsInflight,
    maxMutatingRequestsInflight: options.maxMutatingRequestsInflight,
    requestTimeoutMs: options.requestTimeoutMs,
    metrics,
    logger,
  });

  // the Node mode answers from the first lists on: the graph is loaded before the server listens
  let nodeGraphLoop: WatchLoop | undefined;
  try {
    nodeGraphLoop = nodeGraph ? await startNodeGraph(api, nodeGraph) : undefined;
  } catch (err) {
    authn.close();
    await storage.close();
    throw err;
  }

  let drain: RequestDrain | undefined;
  const fetch = (req: Request, env: unknown) => drain?.refusal(req) ?? app.fetch(req, env as never);
  let server: Server;
  try {
    server = await listen(
      fetch,
      host,
      options.port ?? 0,
      (s) => {
        drain = new RequestDrain(s);
      },
      pki && {
        certPEM: pki.serving.certPEM,
        keyPEM: pki.serving.keyPEM,
        ...tlsOptions,
        // the CAs named in the certificate request: clients and front proxies
        clientCAPEM: pki.clientCAPEM + (authn.requestHeaderCAPEM ? `\n${authn.requestHeaderCAPEM}` : ''),
      },
    );
  } catch (err) {
    // nothing was served: release the store (and its lock on the data directory)
    await nodeGraphLoop?.stop();
    authn.close();
    authorization.close();
    await storage.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  // the issuer discovery documents name the address clients reach; an issuer that is not an https URL has none (as upstream)
  let openid: OpenIDMetadata | undefined;
  try {
    openid = await buildOpenIDMetadata({ issuer: authn.serviceAccounts.issuer, externalAddress: new URL(clientURL(host, port)).host, keys: authn.serviceAccounts.verificationKeys });
  } catch (err) {
    warn(`service-account issuer discovery is off: ${(err as Error).message}`);
  }

  // Built-ins after listening, so they know the port (the kubernetes Endpoints); /readyz
  // reports not ready until they are installed, and startServer() resolves after them.
  const builtins = await installBuiltins({
    api,
    admission,
    authorizer: authorization.authorizer,
    discovery,
    flags: {
      'service-cluster-ip-range': options.serviceClusterIPRange,
      'service-node-port-range': options.serviceNodePortRange,
      'secure-port': port,
      'bind-address': host,
      'advertise-address': options.advertiseAddress,
      'default-not-ready-toleration-seconds': options.defaultNotReadyTolerationSeconds,
      'default-unreachable-toleration-seconds': options.defaultUnreachableTolerationSeconds,
    },
    extensionAuthentication: plain ? undefined : authn.extensionData,
    // the Service ranges are kept in etcd, where replicas share them; a SQLite store has one process, which
    // keeps them in memory, rebuilt from the stored Services at start (a stored range would cost every Service
    // create a second durable commit)
    rangeStorage: options.etcd ? storage.base : undefined,
    baseStorageFor: storage.baseFor,
    controllers,
    serviceAccountTokens: { issuer: authn.issuer, rootCA: pki?.servingCAPEM ?? '' },
    rbacIndex,
    log: warn,
    rootCA: pki?.servingCAPEM,
    csrSigning: pki ? { ca: pki.ca } : undefined,
    eventTTLMs: options.eventTTLMs,
    admissionPlugins,
    admissionConfigs,
    webhookObserver: {
      call: (name, type, operation, outcome, seconds) => metrics.webhookCall(name, type, operation, outcome, seconds),
      failOpen: (name, type) => metrics.webhookFailedOpen(name, type),
    },
    openapiDir: generated.openapiDir,
    crds: { storageFor: storage.storageFor, services: writeServices, schemas: customSchemas, compiler: options.crdValidatorCompiler, features },
    endpointReconciler: { type: reconcilerType, leases: masterLeases(storage.kv), masterCount: options.apiserverCount, log: warn },
  });
  for (const plugin of options.admissionPlugins ?? []) admission.add(plugin);
  bootstrapped = true;
  // ready. The controllers, the garbage collector among them, are kube-controller-manager's
  // upstream, which readiness does not wait for: they start on a later turn of the event
  // loop, while this replica leads (on etcd), and startServer() resolves once they have
  // started or another replica was found leading
  let elected: ElectedControllers | undefined;
  let identityLease: IdentityLease | undefined;
  await startAfterReady(async () => {
    // replicas on etcd publish their identity Leases (APIServerIdentity); a lone SQLite server keeps its store quiet
    if (options.etcd && features.enabled('APIServerIdentity')) identityLease = await startIdentityLease(api, { log: warn });
    elected = await runElectedControllers(
      api,
      election,
      async () => {
        const started = await builtins.startControllers();
        if (!started) return undefined;
        const gc = controllers.has('garbagecollector') ? new GarbageCollector(api) : undefined;
        await gc?.start();
        return {
          async stop() {
            await gc?.stop();
            await started.stop();
          },
        };
      },
      warn,
    );
  });
  // counted every period, and on the first scrape before that
  objectCounts.start();
  const scheme = plain ? 'http' : 'https';
  const url = clientURL(host, port, scheme);
  storage.describeOwner(url);
  const kubeconfig = kubeconfigYAML({
    server: url,
    caPEM: pki?.servingCAPEM,
    clientCertPEM: pki?.admin.certPEM,
    clientKeyPEM: pki?.admin.keyPEM,
  });
  let kubeconfigPath: string | undefined;
  if (dataDir) {
    kubeconfigPath = join(dataDir, 'admin.kubeconfig');
    writeFileSync(kubeconfigPath, kubeconfig, { mode: 0o600 });
  }

  let stopped: Promise<void> | undefined;
  const log = options.log ?? (() => {});
  const drainTimeoutMs = options.shutdownTimeoutMs ?? 60_000;
  return {
    url,
    port,
    kubeconfig,
    kubeconfigPath,
    app,
    caPEM: pki?.servingCAPEM,
    adminCredentials: pki && { certPEM: pki.admin.certPEM, keyPEM: pki.admin.keyPEM },
    boundURL: boundURL((server.address() as AddressInfo).address, port, scheme),
    storageReport: storage.report,
    storage,
    mergeSchema: generated.mergeSchema,
    beginShutdown() {
      shuttingDown = true;
    },
    stop() {
      stopped ??= (async () => {
        shuttingDown = true;
        // stop listening; requests in flight finish, new ones on open connections get 503
        const closed = drain!.begin();
        const inFlight = drain!.counts();
        log(`stopped listening; waiting for ${inFlight.short} request(s) in flight (at most ${drainTimeoutMs / 1000}s), ` + `then ending ${inFlight.watches} watch(es)`);
        if (!(await drain!.shortDone(drainTimeoutMs))) {
          log(`${drain!.counts().short} request(s) still in flight after ${drainTimeoutMs / 1000}s: ending them`);
        }
        objectCounts.stop();
        await elected?.stop();
        await identityLease?.stop();
        await builtins.stop();
        await nodeGraphLoop?.stop();
        authn.close();
        authorization.close();
        // closing the storage ends every watch stream: each response ends normally
        await storage.close();
        await drain!.allDone(5000);
        // the audit events of every request, watches included, are written before the process goes
        await auditor?.close();
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

/** The election settings when the controllers are elected: on etcd unless --leader-elect=false; the timings checked as client-go checks them. */
function leaderElection(options: StartOptions): LeaderElectionFlags | undefined {
  const given = Object.fromEntries(Object.entries(options.leaderElection ?? {}).filter(([, v]) => v !== undefined && v !== '')) as Partial<LeaderElectionFlags>;
  const election = { ...DEFAULT_LEADER_ELECTION, ...given };
  if (!options.etcd || options.leaderElect === false) return undefined;
  validateElectionTimings(election.leaseDurationMs, election.renewDeadlineMs, election.retryPeriodMs);
  return election;
}

/** Runs start on the event loop's next turn, after the callbacks already due on this one and the I/O waiting. */
export function startAfterReady(start: () => Promise<void>): Promise<void> {
  return nextTurn().then(start);
}

/** The names and addresses the serving certificate covers (kube-apiserver's list). */
function servingHosts(bind: string, advertise: string | undefined, serviceRange: string | undefined): string[] {
  const hosts = ['localhost', '127.0.0.1', '::1', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];
  const a = canonicalAddress(bind);
  if (!isWildcardAddress(a) && a !== 'localhost') hosts.push(a);
  if (advertise) hosts.push(canonicalAddress(advertise));
  const advertised = apiServerEndpoint({ 'advertise-address': advertise, 'bind-address': bind })?.ip;
  if (advertised) hosts.push(advertised);
  try {
    hosts.push(new IPAllocator((serviceRange || DEFAULT_SERVICE_CIDR).split(',')[0].trim()).nth(0));
  } catch {
    // a bad range is reported where the services are set up
  }
  return [...new Set(hosts)];
}
