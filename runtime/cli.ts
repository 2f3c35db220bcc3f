// `npm start -- [flags]`: runs the server with kube-apiserver's flag names,
// SQLite under --data-dir (default ./data), prints where the admin
// kubeconfig is, and shuts down gracefully on SIGTERM/SIGINT: /readyz turns
// 503 at once, requests are served for --shutdown-delay-duration, then the
// server stops listening, lets requests in flight finish, ends watches and
// exits 0. A store that cannot be opened
// (data directory in use, damaged file, unreadable values) is one message
// and exit 1.

import { resolve } from 'node:path';
import { FlagError, parseFlags, usage } from './config/flags.ts';
import { BindAddressError, checkBindAddress, INSECURE_REMOTE_FLAG } from './http/bind-address.ts';
import { ListenError } from './server/listen.ts';
import { PKIError } from './server/pki.ts';
import { AuthenticationSetupError } from './server/authentication.ts';
import { AuthorizationModeError, validateModeFiles, validateModes, type WebhookFlags } from './authz/modes.ts';
import { TLSFlagError, tlsCiphers, tlsMinVersion } from './config/tls.ts';
import { EtcdOverridesError, parseEtcdServersOverrides } from './config/etcd-overrides.ts';
import { ControllersFlagError, enabledControllers } from './config/controllers.ts';
import { AdmissionPluginsFlagError, enabledAdmissionPlugins } from './config/admission-plugins.ts';
import { startServer } from './server/start.ts';
import { RuntimeConfigError } from './api/runtime-config.ts';
import { FeatureGateError } from './features/feature-gates.ts';
import { AuditSetupError, type AuditFlags } from './server/audit.ts';
import { AdmissionConfigError } from './config/admission-config.ts';
import { StorageOpenError } from './storage/sqlite/open-errors.ts';
import { startupDone, tuneServerHeap } from './server/heap.ts';
import { ShowHiddenMetricsError, disabledMetrics, showHiddenMetrics } from './metrics/stability.ts';
import { Logger, LoggingFormatError, loggingFormat, serverLogger, setServerLogger } from './logging/logger.ts';
import { EndpointReconcilerTypeError } from './builtins/kubernetes-endpoints.ts';
import { LeaderElectionConfigError } from './controllers/leaderelection/elector.ts';

async function main(): Promise<void> {
  tuneServerHeap();
  let flags;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (err) {
    if (err instanceof FlagError) {
      console.error(`Error: ${err.message}\n\nFlags:\n${usage()}`);
      process.exit(1);
    }
    throw err;
  }
  if (flags.help) {
    console.log(`specserver: a Kubernetes-compatible API server\n\nFlags:\n${usage()}`);
    return;
  }
  const list = (v: unknown) =>
    typeof v === 'string' && v
      ? v
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : undefined;
  const authorizationMode = list(flags['authorization-mode']) ?? [];
  const authorizationPolicyFile = (flags['authorization-policy-file'] as string | undefined) || undefined;
  const authorizationConfig = (flags['authorization-config'] as string | undefined) || undefined;
  // only the --authorization-webhook-* flags given (any of them rules out --authorization-config)
  let authorizationWebhook: WebhookFlags | undefined;
  const webhookFlag = (name: string) => flags![`authorization-webhook-${name}`];
  if (['config-file', 'version', 'cache-authorized-ttl', 'cache-unauthorized-ttl'].some((n) => webhookFlag(n) !== undefined)) {
    authorizationWebhook = {};
    if (webhookFlag('config-file')) authorizationWebhook.configFile = String(webhookFlag('config-file'));
    if (webhookFlag('version') !== undefined) authorizationWebhook.version = String(webhookFlag('version'));
    if (webhookFlag('cache-authorized-ttl') !== undefined) authorizationWebhook.authorizedTtlMs = Number(webhookFlag('cache-authorized-ttl'));
    if (webhookFlag('cache-unauthorized-ttl') !== undefined) authorizationWebhook.unauthorizedTtlMs = Number(webhookFlag('cache-unauthorized-ttl'));
  }
  const allowInsecureRemote = Boolean(flags[INSECURE_REMOTE_FLAG]);
  const insecureServeHTTP = Boolean(flags['insecure-serve-http']);
  // the checks startServer would make, before anything is written
  try {
    validateModes(authorizationMode);
    validateModeFiles(authorizationMode, { policyFile: authorizationPolicyFile, webhook: authorizationWebhook, authorizationConfig });
    tlsMinVersion(flags['tls-min-version'] as string | undefined);
    tlsCiphers(list(flags['tls-cipher-suites']));
    enabledControllers(list(flags['controllers']));
    enabledAdmissionPlugins(list(flags['enable-admission-plugins']), list(flags['disable-admission-plugins']));
    parseEtcdServersOverrides(flags['etcd-servers-overrides'] as string | undefined, list(flags['etcd-servers']));
    if (insecureServeHTTP) checkBindAddress(String(flags['bind-address']), allowInsecureRemote);
  } catch (err) {
    if (!(
      err instanceof BindAddressError ||
      err instanceof AuthorizationModeError ||
      err instanceof TLSFlagError ||
      err instanceof ControllersFlagError ||
      err instanceof AdmissionPluginsFlagError ||
      err instanceof EtcdOverridesError
    ))
      throw err;
    console.error(`Error: ${err.message}`);
    process.exit(1);
  }
  const audit: AuditFlags = {
    policyFile: (flags['audit-policy-file'] as string | undefined) || undefined,
    logPath: (flags['audit-log-path'] as string | undefined) || undefined,
    logFormat: String(flags['audit-log-format']),
    logMaxAgeDays: Number(flags['audit-log-maxage']),
    logMaxBackups: Number(flags['audit-log-maxbackup']),
    logMaxSizeMB: Number(flags['audit-log-maxsize']),
    logMode: String(flags['audit-log-mode']),
    logBatchBufferSize: Number(flags['audit-log-batch-buffer-size']),
    logBatchMaxSize: Number(flags['audit-log-batch-max-size']),
    logBatchMaxWaitMs: Number(flags['audit-log-batch-max-wait']),
    logBatchThrottleEnable: Boolean(flags['audit-log-batch-throttle-enable']),
    logBatchThrottleQPS: Number(flags['audit-log-batch-throttle-qps']),
    logBatchThrottleBurst: Number(flags['audit-log-batch-throttle-burst']),
    logCompress: Boolean(flags['audit-log-compress']),
    logTruncateEnabled: Boolean(flags['audit-log-truncate-enabled']),
    logTruncateMaxBatchSize: Number(flags['audit-log-truncate-max-batch-size']),
    logTruncateMaxEventSize: Number(flags['audit-log-truncate-max-event-size']),
    webhookConfigFile: (flags['audit-webhook-config-file'] as string | undefined) || undefined,
    webhookInitialBackoffMs: Number(flags['audit-webhook-initial-backoff']),
    webhookMode: String(flags['audit-webhook-mode']),
    webhookBatchBufferSize: Number(flags['audit-webhook-batch-buffer-size']),
    webhookBatchMaxSize: Number(flags['audit-webhook-batch-max-size']),
    webhookBatchMaxWaitMs: Number(flags['audit-webhook-batch-max-wait']),
    webhookBatchThrottleEnable: Boolean(flags['audit-webhook-batch-throttle-enable']),
    webhookBatchThrottleQPS: Number(flags['audit-webhook-batch-throttle-qps']),
    webhookBatchThrottleBurst: Number(flags['audit-webhook-batch-throttle-burst']),
    webhookTruncateEnabled: Boolean(flags['audit-webhook-truncate-enabled']),
    webhookTruncateMaxBatchSize: Number(flags['audit-webhook-truncate-max-batch-size']),
    webhookTruncateMaxEventSize: Number(flags['audit-webhook-truncate-max-event-size']),
  };
  // the metrics and logging flags, checked as the others before anything is written
  try {
    showHiddenMetrics(flags['show-hidden-metrics-for-version'] as string | undefined);
    disabledMetrics(flags['disabled-metrics'] as string | undefined);
    // the server's log: klog text lines or JSON on standard error, -v deep
    setServerLogger(new Logger({ format: loggingFormat(flags['logging-format'] as string | undefined), verbosity: Number(flags['v']) }));
  } catch (err) {
    if (!(err instanceof ShowHiddenMetricsError || err instanceof LoggingFormatError)) throw err;
    console.error(`Error: ${err.message}`);
    process.exit(1);
  }
  const logger = serverLogger();
  const dataDirFlag = String(flags['data-dir']);
  const server = await startServer({
    quarantineUnreadable: Boolean(flags['quarantine-unreadable']),
    log: (msg) => logger.info(msg),
    dataDir: dataDirFlag === ':memory:' ? undefined : resolve(dataDirFlag),
    bindAddress: String(flags['bind-address']),
    allowInsecureRemote,
    insecureServeHTTP,
    authorizationMode,
    authorizationPolicyFile,
    authorizationWebhook,
    authorizationConfig,
    anonymousAuth: flags['anonymous-auth'] as boolean | undefined,
    authenticationConfig: flags['authentication-config'] as string | undefined,
    apiAudiences: list(flags['api-audiences']),
    tokenAuthFile: flags['token-auth-file'] as string | undefined,
    serviceAccountSigningKeyFile: flags['service-account-signing-key-file'] as string | undefined,
    serviceAccountKeyFiles: list(flags['service-account-key-file']),
    serviceAccountIssuers: list(flags['service-account-issuer']),
    serviceAccountMaxTokenExpirationSeconds: Number(flags['service-account-max-token-expiration']) / 1000,
    enableBootstrapTokenAuth: Boolean(flags['enable-bootstrap-token-auth']),
    controllers: list(flags['controllers']),
    enableAdmissionPlugins: list(flags['enable-admission-plugins']),
    disableAdmissionPlugins: list(flags['disable-admission-plugins']),
    admissionControlConfigFile: (flags['admission-control-config-file'] as string | undefined) || undefined,
    authenticationTokenWebhook: flags['authentication-token-webhook-config-file']
      ? {
          configFile: String(flags['authentication-token-webhook-config-file']),
          version: String(flags['authentication-token-webhook-version']),
          cacheTtlMs: Number(flags['authentication-token-webhook-cache-ttl']),
        }
      : undefined,
    requestHeader: flags['requestheader-client-ca-file']
      ? {
          clientCAFile: String(flags['requestheader-client-ca-file']),
          allowedNames: list(flags['requestheader-allowed-names']),
          usernameHeaders: list(flags['requestheader-username-headers']),
          uidHeaders: list(flags['requestheader-uid-headers']),
          groupHeaders: list(flags['requestheader-group-headers']),
          extraHeadersPrefix: list(flags['requestheader-extra-headers-prefix']),
        }
      : undefined,
    certDir: flags['cert-dir'] as string | undefined,
    tlsCertFile: flags['tls-cert-file'] as string | undefined,
    tlsPrivateKeyFile: flags['tls-private-key-file'] as string | undefined,
    clientCAFile: flags['client-ca-file'] as string | undefined,
    tlsMinVersion: flags['tls-min-version'] as string | undefined,
    tlsCipherSuites: list(flags['tls-cipher-suites']),
    port: Number(flags['secure-port']),
    runtimeConfig: flags['runtime-config'] as string | undefined,
    featureGates: flags['feature-gates'] as string | undefined,
    minRequestTimeoutSeconds: Number(flags['min-request-timeout']),
    livezGracePeriodMs: Number(flags['livez-grace-period']),
    shutdownDelayMs: Number(flags['shutdown-delay-duration']),
    eventTTLMs: Number(flags['event-ttl']),
    defaultNotReadyTolerationSeconds: Number(flags['default-not-ready-toleration-seconds']),
    defaultUnreachableTolerationSeconds: Number(flags['default-unreachable-toleration-seconds']),
    historyWindowMs: Number(flags['etcd-compaction-interval']),
    etcd: list(flags['etcd-servers'])
      ? {
          servers: list(flags['etcd-servers'])!,
          prefix: String(flags['etcd-prefix']),
          caFile: (flags['etcd-cafile'] as string | undefined) || undefined,
          certFile: (flags['etcd-certfile'] as string | undefined) || undefined,
          keyFile: (flags['etcd-keyfile'] as string | undefined) || undefined,
          healthcheckTimeoutMs: Number(flags['etcd-healthcheck-timeout']),
          compactionIntervalMs: Number(flags['etcd-compaction-interval']),
          overrides: parseEtcdServersOverrides(flags['etcd-servers-overrides'] as string | undefined, list(flags['etcd-servers'])),
        }
      : undefined,
    etcdCountMetricPollPeriodMs: Number(flags['etcd-count-metric-poll-period']),
    watchCache: Boolean(flags['watch-cache']),
    generatedDir: flags['generated-dir'] as string | undefined,
    serviceClusterIPRange: String(flags['service-cluster-ip-range']),
    advertiseAddress: flags['advertise-address'] as string | undefined,
    endpointReconcilerType: flags['endpoint-reconciler-type'] as string | undefined,
    apiserverCount: Number(flags['apiserver-count']),
    leaderElect: Boolean(flags['leader-elect']),
    leaderElection: {
      leaseDurationMs: Number(flags['leader-elect-lease-duration']),
      renewDeadlineMs: Number(flags['leader-elect-renew-deadline']),
      retryPeriodMs: Number(flags['leader-elect-retry-period']),
      name: String(flags['leader-elect-resource-name']),
      namespace: String(flags['leader-elect-resource-namespace']),
    },
    clusterSigningCertFile: (flags['cluster-signing-cert-file'] as string | undefined) || undefined,
    clusterSigningKeyFile: (flags['cluster-signing-key-file'] as string | undefined) || undefined,
    maxRequestsInflight: Number(flags['max-requests-inflight']),
    maxMutatingRequestsInflight: Number(flags['max-mutating-requests-inflight']),
    requestTimeoutMs: Number(flags['request-timeout']),
    maxWatches: Number(flags['max-watches']),
    maxWatchesPerUser: Number(flags['max-watches-per-user']),
    watchStallTimeoutMs: Number(flags['watch-stall-timeout']),
    serviceNodePortRange: String(flags['service-node-port-range']),
    audit,
    showHiddenMetricsForVersion: flags['show-hidden-metrics-for-version'] as string | undefined,
    disabledMetrics: disabledMetrics(flags['disabled-metrics'] as string | undefined),
  });
  startupDone();
  const report = server.storageReport;
  if (report.previousOwner) {
    logger.info(`took over ${report.file} from pid ${report.previousOwner.pid} (since ${report.previousOwner.since}), which did not shut down cleanly`);
  }
  for (const r of report.quarantined) {
    logger.warning(`quarantined unreadable value of ${r.key} (revision ${r.rev}${r.current ? '' : ', history'}: ${r.reason})`);
  }
  if (report.quarantined.length || report.quarantinedEarlier) {
    logger.warning(`the table "quarantine" of ${report.file} holds ${report.quarantined.length + report.quarantinedEarlier} row(s); see docs/recovery.md`);
  }
  // signal handlers before the lines that tell a supervisor (or a test) the server is up
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.beginShutdown();
    const delay = Number(flags!['shutdown-delay-duration']);
    logger.info(`${signal}: readyz now fails; serving for ${delay} ms more, then draining`);
    setTimeout(() => {
      server.stop().then(
        () => process.exit(0),
        (err) => {
          logger.errorS(err, 'Shutdown failed');
          process.exit(1);
        },
      );
    }, delay);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  if (server.kubeconfigPath) {
    console.log(`admin kubeconfig: ${server.kubeconfigPath}`);
    console.log(`try: kubectl --kubeconfig ${server.kubeconfigPath} get namespaces`);
  }
  // the address really bound; for a wildcard the kubeconfig reaches it through loopback
  console.log(server.boundURL === server.url ? `specserver listening on ${server.url}` : `specserver listening on ${server.boundURL} (kubeconfig uses ${server.url})`);
}

main().catch((err) => {
  if (
    err instanceof StorageOpenError ||
    err instanceof ListenError ||
    err instanceof PKIError ||
    err instanceof AuthenticationSetupError ||
    err instanceof AuthorizationModeError ||
    err instanceof RuntimeConfigError ||
    err instanceof FeatureGateError ||
    err instanceof AuditSetupError ||
    err instanceof EndpointReconcilerTypeError
  )
    console.error(`Error: ${err.message}`);
  else if (err instanceof AdmissionConfigError) console.error(`Error: failed to initialize admission: ${err.message}`);
  else if (err instanceof LeaderElectionConfigError) console.error(`Error: --leader-elect: ${err.message}`);
  else console.error(err);
  process.exit(1);
});
