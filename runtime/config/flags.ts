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
  'data-dir': { kind: 'string', default: './data', help: 'directory for the SQLite database and admin.kubeconfig; ":memory:" keeps nothing' },
  'etcd-servers': { kind: 'string', help: 'comma-separated etcd client URLs (the etcd storage backend)' },
  'etcd-compaction-interval': { kind: 'duration', default: '5m', help: 'history window kept for watches and continue tokens (on etcd: the interval of the compaction loop; 0 disables it)' },
  'etcd-prefix': { kind: 'string', default: '/registry', help: 'the prefix put before every resource path in etcd' },
  'etcd-cafile': { kind: 'string', help: 'SSL Certificate Authority file used to secure etcd communication' },
  'etcd-certfile': { kind: 'string', help: 'SSL certification file used to secure etcd communication' },
  'etcd-keyfile': { kind: 'string', help: 'SSL key file used to secure etcd communication' },
  'etcd-healthcheck-timeout': { kind: 'duration', default: '2s', help: 'the timeout to use when checking etcd health' },
  'enable-admission-plugins': {
    kind: 'string',
    help: 'admission plugins to enable beside the default ones (NamespaceLifecycle, ServiceAccount, NodeRestriction, Priority, CertificateApproval, CertificateSigning, CertificateSubjectRestriction); the server fixes their order',
  },
  'disable-admission-plugins': { kind: 'string', help: 'admission plugins to disable although they are in the default set' },
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
  help: { kind: 'bool', default: 'false', help: 'print the flags' },
};

export type FlagValues = Record<string, string | number | boolean | undefined>;

export function parseFlags(argv: string[]): FlagValues {
  const out: FlagValues = {};
  for (const [name, spec] of Object.entries(FLAGS)) if (spec.default !== undefined) out[name] = convert(name, spec, spec.default);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
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
