// The Kubernetes names specserver answers to, in one place: API domains,
// media types, reserved namespaces, the system users and groups,
// well-known annotations and headers.
// Clients (kubectl, helm, client-go) look for these exact strings.

export const META_GROUP = 'meta.k8s.io';
export const DISCOVERY_GROUP = 'apidiscovery.k8s.io';
export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export const MEDIA_JSON = 'application/json';
export const MEDIA_YAML = 'application/yaml';
export const MEDIA_PROTOBUF = 'application/vnd.kubernetes.protobuf';

export const NS_DEFAULT = 'default';
export const NS_SYSTEM = 'kube-system';
export const NS_PUBLIC = 'kube-public';
export const NS_NODE_LEASE = 'kube-node-lease';
export const INITIAL_NAMESPACES = [NS_DEFAULT, NS_SYSTEM, NS_PUBLIC, NS_NODE_LEASE];

// users and groups with a meaning to the server (authentication, impersonation, in-process writers)
export const GROUP_MASTERS = 'system:masters';
export const GROUP_AUTHENTICATED = 'system:authenticated';
export const GROUP_UNAUTHENTICATED = 'system:unauthenticated';
export const USER_ANONYMOUS = 'system:anonymous';
/** `system:serviceaccount:<namespace>:<name>` */
export const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';
export const GROUP_SERVICE_ACCOUNTS = 'system:serviceaccounts';
/** `system:serviceaccounts:<namespace>` */
export const SERVICE_ACCOUNT_GROUP_PREFIX = 'system:serviceaccounts:';
/** `system:bootstrap:<token id>` */
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const GROUP_BOOTSTRAPPERS = 'system:bootstrappers';
export const NODE_USER_PREFIX = 'system:node:';
export const GROUP_NODES = 'system:nodes';

// the front proxy's headers (the --requestheader-*-headers defaults)
export const HEADER_REMOTE_USER = 'X-Remote-User';
export const HEADER_REMOTE_GROUP = 'X-Remote-Group';
export const HEADER_REMOTE_EXTRA_PREFIX = 'X-Remote-Extra-';

export const ANNOTATION_INITIAL_EVENTS_END = 'k8s.io/initial-events-end';
export const ANNOTATION_DESCRIPTION = 'kubernetes.io/description';
/** The ConfigMap in every namespace with the CA bundle (`ca.crt`) of the API server (root-ca-cert-publisher). */
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const SECRET_TYPE_BOOTSTRAP_TOKEN = 'bootstrap.kubernetes.io/token';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';
export const FINALIZER_NAMESPACE = 'kubernetes';

/** The version /version reports: a 1.31 server. */
export const SERVER_VERSION = {
  major: '1',
  minor: '31',
  gitVersion: 'v1.31.0-specserver',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'n/a',
  compiler: 'specserver',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

/** kube-apiserver's request body limit (3 MiB). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;
/** Responses larger than this are gzipped when the client accepts it. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;
