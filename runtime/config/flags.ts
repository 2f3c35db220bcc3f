// Command-line flags with kube-apiserver's names (`--secure-port`,
// `--bind-address`, `--runtime-config` ...) plus `--data-dir`, parsed into
// server options. `--flag=value` and `--flag value` both work; an unknown
// flag or a bad value is an error naming it.

export class FlagError extends Error {}

/** Parses Go durations (`300ms`, `5s`, `1m30s`, `2h`) into milliseconds. */
export function parseDuration(text: string): number {
  if (text === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let consumed = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (m.index !== consumed) break;
    total += Number(m[1]) * unit[m[2]];
    consumed = m.index + m[0].length;
  }
  if (consumed !== text.length || text.length === 0) throw new FlagError(`invalid duration "${text}"`);
  return total;
}

type Kind = 'string' | 'int' | 'bool' | 'duration';

interface FlagSpec {
  kind: Kind;
  help: string;
  default?: string;
}

export const FLAGS: Record<string, FlagSpec> = {
  'secure-port': { kind: 'int', default: '6443', help: 'port to serve on (0 picks a free port)' },
  'bind-address': { kind: 'string', default: '127.0.0.1', help: 'address to listen on (with --insecure-serve-http: loopback only, unless --insecure-allow-unauthenticated-remote)' },
  'insecure-serve-http': { kind: 'bool', default: 'false', help: 'INSECURE: serve plain HTTP instead of TLS (no client certificates; tokens and data cross the wire in the clear)' },
  'insecure-allow-unauthenticated-remote': { kind: 'bool', default: 'false', help: 'INSECURE: with --insecure-serve-http, allow a non-loopback --bind-address' },
  'cert-dir': { kind: 'string', help: 'directory of the generated CA and certificates (default <data-dir>/pki)' },
  'tls-cert-file': { kind: 'string', help: 'serving certificate (PEM; intermediates after the leaf) instead of a generated one' },
  'tls-private-key-file': { kind: 'string', help: 'the private key of --tls-cert-file (PEM)' },
  'client-ca-file': { kind: 'string', help: 'CA bundle client certificates are verified with (default: the generated CA); CN is the user, O the groups' },
  'tls-min-version': { kind: 'string', help: 'minimum TLS version: VersionTLS10, VersionTLS11, VersionTLS12 (default), VersionTLS13' },
  'tls-cipher-suites': { kind: 'string', help: "comma-separated TLS 1.2 cipher suites (Go/IANA names, e.g. TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256); default: Node's" },
  'anonymous-auth': { kind: 'bool', help: 'a request without credentials is system:anonymous (default true; false: 401); not with an anonymous section in --authentication-config' },
  'authentication-config': { kind: 'string', help: 'AuthenticationConfiguration file (apiserver.config.k8s.io/v1beta1): anonymous.enabled and anonymous.conditions[].path' },
  'api-audiences': { kind: 'string', help: 'comma-separated audiences tokens for this server must carry (default https://kubernetes.default.svc.cluster.local)' },
  'service-account-signing-key-file': { kind: 'string', help: 'private key (PEM) that signs service-account tokens (default: <data-dir>/pki/sa.key, generated on first start)' },
  'service-account-key-file': { kind: 'string', help: 'comma-separated PEM files of public keys (or certificates) that verify service-account tokens' },
  'service-account-issuer': { kind: 'string', help: 'comma-separated issuers of service-account tokens; the first signs (default https://kubernetes.default.svc.cluster.local)' },
  'service-account-max-token-expiration': { kind: 'duration', default: '0s', help: 'longest lifetime of a requested service-account token (0: no limit)' },
  controllers: {
    kind: 'string',
    default: '*',
    help: 'in-process controllers: * (namespace, serviceaccount, serviceaccount-token, garbagecollector), names to add (tokencleaner, bootstrapsigner), -name to remove',
  },
  'enable-bootstrap-token-auth': { kind: 'bool', default: 'false', help: 'accept bootstrap tokens (Secrets bootstrap-token-<id> in kube-system) as bearer tokens' },
  'authentication-token-webhook-config-file': { kind: 'string', help: 'kubeconfig-format file of a TokenReview webhook that authenticates bearer tokens' },
  'authentication-token-webhook-version': { kind: 'string', default: 'v1beta1', help: 'TokenReview version sent to the webhook: v1 or v1beta1' },
  'authentication-token-webhook-cache-ttl': { kind: 'duration', default: '2m0s', help: 'how long webhook answers are cached' },
  'requestheader-client-ca-file': { kind: 'string', help: 'CA bundle of front-proxy client certificates; the front proxy is trusted only with a certificate it verifies' },
  'requestheader-allowed-names': { kind: 'string', help: 'comma-separated common names a front-proxy certificate may carry (empty: any)' },
  'requestheader-username-headers': { kind: 'string', help: 'comma-separated headers naming the user (default X-Remote-User)' },
  'requestheader-uid-headers': { kind: 'string', help: "comma-separated headers carrying the user's uid" },
  'requestheader-group-headers': { kind: 'string', help: 'comma-separated headers naming groups (default X-Remote-Group)' },
  'requestheader-extra-headers-prefix': { kind: 'string', help: 'comma-separated header prefixes of extra attributes (default X-Remote-Extra-)' },
  'advertise-address': { kind: 'string', help: 'address published in the kubernetes Endpoints (default: --bind-address if routable, else a host interface address)' },
  'endpoint-reconciler-type': {
    kind: 'string',
    default: 'lease',
    help: 'how the kubernetes Endpoints list the API servers: lease (every live replica, by expiring leases in etcd), master-count or none',
  },
  'apiserver-count': { kind: 'int', default: '1', help: 'the number of API servers the master-count endpoint reconciler keeps listed' },
  'leader-elect': { kind: 'bool', default: 'true', help: 'on etcd, run the controllers that must run once only while this replica holds the kube-controller-manager Lease' },
  'leader-elect-lease-duration': { kind: 'duration', default: '15s', help: 'how long other replicas wait after the last renewal seen before taking the lease' },
  'leader-elect-renew-deadline': { kind: 'duration', default: '10s', help: 'how long the leader tries to renew before it stops leading; less than the lease duration' },
  'leader-elect-retry-period': { kind: 'duration', default: '2s', help: 'the wait between attempts to take or renew the lease' },
  'leader-elect-resource-name': { kind: 'string', default: 'kube-controller-manager', help: 'the name of the Lease of leader election' },
  'leader-elect-resource-namespace': { kind: 'string', default: 'kube-system', help: 'the namespace of the Lease of leader election' },
  'cluster-signing-cert-file': { kind: 'string', help: 'CA certificate (PEM) that signs the serving, admin and CSR certificates instead of a generated CA; replicas share it' },
  'cluster-signing-key-file': { kind: 'string', help: 'the private key (PEM) of --cluster-signing-cert-file' },
  'data-dir': { kind: 'string', default: './data', help: 'directory for the SQLite database and admin.kubeconfig; ":memory:" keeps nothing' },
  'etcd-servers': { kind: 'string', help: 'comma-separated etcd client URLs (the etcd storage backend)' },
  'etcd-compaction-interval': { kind: 'duration', default: '5m', help: 'history window kept for watches and continue tokens (on etcd: the interval of the compaction loop; 0 disables it)' },
  'etcd-prefix': { kind: 'string', default: '/registry', help: 'the prefix put before every resource path in etcd' },
  'etcd-cafile': { kind: 'string', help: 'SSL Certificate Authority file used to secure etcd communication' },
  'etcd-certfile': { kind: 'string', help: 'SSL certification file used to secure etcd communication' },
  'etcd-keyfile': { kind: 'string', help: 'SSL key file used to secure etcd communication' },
  'etcd-healthcheck-timeout': { kind: 'duration', default: '2s', help: 'the timeout to use when checking etcd health' },
  'etcd-servers-overrides': { kind: 'string', help: 'per-resource etcd servers, comma separated: group/resource#servers, servers semicolon separated (e.g. /events#http://127.0.0.1:4002)' },
  'etcd-count-metric-poll-period': { kind: 'duration', default: '1m', help: 'how often the objects of each resource are counted for apiserver_storage_objects (0 disables it)' },
  'enable-admission-plugins': {
    kind: 'string',
    help: 'admission plugins to enable beside the default ones (NamespaceLifecycle, ServiceAccount, NodeRestriction, Priority, CertificateApproval, CertificateSigning, CertificateSubjectRestriction); the server fixes their order',
  },
  'disable-admission-plugins': { kind: 'string', help: 'admission plugins to disable although they are in the default set' },
  'admission-control-config-file': {
    kind: 'string',
    help: 'AdmissionConfiguration file (apiserver.config.k8s.io/v1) with the configuration of admission plugins (PodSecurity, ResourceQuota, and the kubeConfigFile of the webhook plugins)',
  },
  'default-not-ready-toleration-seconds': {
    kind: 'int',
    default: '300',
    help: 'the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration',
  },
  'default-unreachable-toleration-seconds': {
    kind: 'int',
    default: '300',
    help: 'the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration',
  },
  'event-ttl': { kind: 'duration', default: '1h0m0s', help: 'how long an Event is kept after its last write' },
  'authorization-mode': {
    kind: 'string',
    help: 'ordered list of authorization modes: AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC, Node (default Node,RBAC; system:masters is always allowed)',
  },
  'authorization-policy-file': { kind: 'string', help: 'ABAC policy file (one JSON policy a line), used with --authorization-mode=ABAC' },
  'authorization-webhook-config-file': { kind: 'string', help: 'kubeconfig-format file of a SubjectAccessReview webhook, used with --authorization-mode=Webhook' },
  'authorization-webhook-version': { kind: 'string', help: 'SubjectAccessReview version sent to the webhook: v1 or v1beta1 (default v1beta1)' },
  'authorization-webhook-cache-authorized-ttl': { kind: 'duration', help: "how long the webhook's 'authorized' answers are cached (default 5m0s)" },
  'authorization-webhook-cache-unauthorized-ttl': { kind: 'duration', help: "how long the webhook's 'unauthorized' answers are cached (default 30s)" },
  'authorization-config': {
    kind: 'string',
    help: 'AuthorizationConfiguration file (apiserver.config.k8s.io/v1beta1): the authorizer chain, reloaded on change; not with --authorization-mode or --authorization-webhook-*',
  },
  'token-auth-file': { kind: 'string', help: 'static bearer tokens (CSV: token,user,uid,"group1,group2")' },
  'runtime-config': { kind: 'string', help: 'enable or disable API group-versions (api/all=true, networking.k8s.io/v1beta1=true)' },
  'feature-gates': { kind: 'string', help: 'feature gates (Name=true,Other=false)' },
  'min-request-timeout': { kind: 'int', default: '1800', help: 'minimum watch duration in seconds before the server ends it (jittered up to twice)' },
  'livez-grace-period': { kind: 'duration', default: '0s', help: 'time after start during which unfinished start-up hooks count as live' },
  'shutdown-delay-duration': { kind: 'duration', default: '0s', help: 'time to keep serving after SIGTERM while /readyz reports 503' },
  'max-requests-inflight': { kind: 'int', default: '400', help: 'non-mutating requests served at once before 429 (0: no limit)' },
  'max-mutating-requests-inflight': { kind: 'int', default: '200', help: 'mutating requests served at once before 429 (0: no limit)' },
  'request-timeout': { kind: 'duration', default: '1m0s', help: 'longest a non-long-running request may take before 504 (a shorter ?timeout= wins; 0: none)' },
  'max-watches': { kind: 'int', default: '10000', help: 'open watches in total before 429 (0: no limit)' },
  'max-watches-per-user': { kind: 'int', default: '1000', help: 'open watches of one user before 429 (0: no limit)' },
  'watch-stall-timeout': { kind: 'duration', default: '30s', help: 'a watch whose client takes no data for this long is closed (0: never)' },
  'watch-cache': { kind: 'bool', default: 'true', help: 'serve reads and watches from the in-memory watch cache' },
  'quarantine-unreadable': { kind: 'bool', default: 'false', help: 'move stored values that cannot be read into the table "quarantine" of the database and start (docs/recovery.md)' },
  'service-cluster-ip-range': { kind: 'string', default: '10.0.0.0/24', help: 'CIDR(s) for Service cluster IPs' },
  'service-node-port-range': { kind: 'string', default: '30000-32767', help: 'port range for NodePort Services' },
  'generated-dir': { kind: 'string', help: 'load the API from another codegen output directory (development)' },
  'audit-policy-file': { kind: 'string', help: 'audit.k8s.io/v1 Policy file (YAML or JSON): which requests are audited at which level' },
  'audit-log-path': { kind: 'string', help: "audit log file (JSON lines of audit.k8s.io/v1 Event); '-' for standard output" },
  'audit-log-format': { kind: 'string', default: 'json', help: 'audit log format: json or legacy (one line of text per event)' },
  'audit-log-maxage': { kind: 'int', default: '0', help: 'days to keep rotated audit log files (0: no limit)' },
  'audit-log-maxbackup': { kind: 'int', default: '0', help: 'rotated audit log files to keep (0: all)' },
  'audit-log-maxsize': { kind: 'int', default: '0', help: 'megabytes of an audit log file before it is rotated (0: 100)' },
  'audit-log-compress': { kind: 'bool', default: 'false', help: 'gzip rotated audit log files' },
  'audit-log-mode': {
    kind: 'string',
    // server/audit.ts DEFAULT_LOG_MODE (a test checks they agree)
    default: 'batch',
    help: 'audit log backend mode: blocking (requests wait for the write), blocking-strict (and fail when an event cannot be written at its first stage) or batch (written later)',
  },
  'audit-log-batch-buffer-size': { kind: 'int', default: '10000', help: 'batch mode: audit events waiting before more are dropped' },
  'audit-log-batch-max-size': { kind: 'int', default: '1', help: 'batch mode: audit events per write' },
  'audit-log-batch-max-wait': { kind: 'duration', default: '0s', help: 'batch mode: longest an event waits for its batch to fill' },
  'audit-log-batch-throttle-enable': { kind: 'bool', default: 'false', help: 'batch mode: limit the rate of writes' },
  'audit-log-batch-throttle-qps': { kind: 'string', default: '0', help: 'batch mode: writes per second on average' },
  'audit-log-batch-throttle-burst': { kind: 'int', default: '0', help: 'batch mode: writes at once when the rate allowed it before' },
  'audit-log-truncate-enabled': { kind: 'bool', default: 'false', help: 'drop the objects of audit events larger than the max event size (then the event)' },
  'audit-log-truncate-max-batch-size': { kind: 'int', default: '10485760', help: 'bytes of audit events written together at most' },
  'audit-log-truncate-max-event-size': { kind: 'int', default: '102400', help: 'bytes of an audit event before it is truncated' },
  'audit-webhook-config-file': { kind: 'string', help: 'kubeconfig-format file of the audit webhook (EventList posts)' },
  'audit-webhook-initial-backoff': { kind: 'duration', default: '10s', help: 'wait before the first retry of a failed audit webhook post' },
  'audit-webhook-mode': {
    kind: 'string',
    default: 'batch',
    help: 'audit webhook backend mode: batch, blocking (requests wait for the post) or blocking-strict (and fail when an event cannot be posted at its first stage)',
  },
  'audit-webhook-batch-buffer-size': { kind: 'int', default: '10000', help: 'batch mode: audit events waiting before more are dropped' },
  'audit-webhook-batch-max-size': { kind: 'int', default: '400', help: 'batch mode: audit events per post' },
  'audit-webhook-batch-max-wait': { kind: 'duration', default: '30s', help: 'batch mode: longest an event waits for its batch to fill' },
  'audit-webhook-batch-throttle-enable': { kind: 'bool', default: 'true', help: 'batch mode: limit the rate of posts' },
  'audit-webhook-batch-throttle-qps': { kind: 'string', default: '10', help: 'batch mode: posts per second on average' },
  'audit-webhook-batch-throttle-burst': { kind: 'int', default: '15', help: 'batch mode: posts at once when the rate allowed it before' },
  'audit-webhook-truncate-enabled': { kind: 'bool', default: 'false', help: 'drop the objects of audit events larger than the max event size (then the event)' },
  'audit-webhook-truncate-max-batch-size': { kind: 'int', default: '10485760', help: 'bytes of audit events posted together at most' },
  'audit-webhook-truncate-max-event-size': { kind: 'int', default: '102400', help: 'bytes of an audit event before it is truncated' },
  'show-hidden-metrics-for-version': {
    kind: 'string',
    help: "the previous version for which you want to show hidden metrics; only the previous minor version is meaningful, other values will not be allowed (the format is <major>.<minor>, e.g. '1.30')",
  },
  'disabled-metrics': { kind: 'string', help: 'comma-separated fully qualified metric names that are neither exported nor recorded (ahead of --show-hidden-metrics-for-version)' },
  'logging-format': { kind: 'string', default: 'text', help: 'log format: "text" (klog lines) or "json"' },
  v: { kind: 'int', default: '0', help: 'number for the log level verbosity (-v: a request log line per request from 3 on)' },
  help: { kind: 'bool', default: 'false', help: 'print the flags' },
};

export type FlagValues = Record<string, string | number | boolean | undefined>;

export function parseFlags(argv: string[]): FlagValues {
  const out: FlagValues = {};
  for (const [name, spec] of Object.entries(FLAGS)) if (spec.default !== undefined) out[name] = convert(name, spec, spec.default);
  for (let i = 0; i < argv.length; i++) {
    const arg = shorthand(argv[i]);
    if (!arg.startsWith('--')) throw new FlagError(`unexpected argument "${arg}"`);
    let name = arg.slice(2);
    let value: string | undefined;
    const eq = name.indexOf('=');
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    const spec = FLAGS[name];
    if (!spec) throw new FlagError(`unknown flag: --${name}`);
    if (value === undefined) {
      if (spec.kind === 'bool') value = 'true';
      else {
        value = argv[++i];
        if (value === undefined) throw new FlagError(`flag needs an argument: --${name}`);
      }
    }
    out[name] = convert(name, spec, value);
  }
  return out;
}

/** klog's shorthand -v (`-v=3`, `-v 3`, `-v3`) is --v. */
function shorthand(arg: string): string {
  const m = /^-v(=.*|\d+)?$/.exec(arg);
  if (!m) return arg;
  const rest = m[1] ?? '';
  return `--v${rest && !rest.startsWith('=') ? `=${rest}` : rest}`;
}

function convert(name: string, spec: FlagSpec, value: string): string | number | boolean {
  switch (spec.kind) {
    case 'int': {
      if (!/^-?\d+$/.test(value)) throw new FlagError(`invalid argument "${value}" for "--${name}" flag: parse error`);
      return Number(value);
    }
    case 'bool':
      if (value !== 'true' && value !== 'false') throw new FlagError(`invalid argument "${value}" for "--${name}" flag: parse error`);
      return value === 'true';
    case 'duration':
      try {
        return parseDuration(value);
      } catch {
        throw new FlagError(`invalid argument "${value}" for "--${name}" flag: time: invalid duration "${value}"`);
      }
    default:
      return value;
  }
}

export function usage(): string {
  return Object.entries(FLAGS)
    .map(([n, s]) => `  --${n}${s.default !== undefined ? ` (default ${s.default})` : ''}\n      ${s.help}`)
    .join('\n');
}
