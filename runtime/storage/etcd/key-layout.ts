// Where the storage keys of specserver live in etcd: kube-apiserver's layout,
// so that `etcdctl get --prefix /registry` shows familiar keys. Our keys are
// `/registry/<group or core>/<resource>/[<namespace>/]<name>`; in etcd they
// are `<prefix>/<resource>/...` for the groups kube-apiserver serves itself
// (with its compiled-in exceptions: services/specs, services/endpoints,
// minions, controllers, ingress), and `<prefix>/<group>/<resource>/...` for
// apiextensions.k8s.io, apiregistration.k8s.io and custom resources. Keys
// outside that shape go under `<prefix>` as they are. A mapping of one
// resource's subtree is a prefix replacement, so key order within it (what
// ranges and continue tokens rely on) is kept. A resource served in another
// group too (events.k8s.io Events) is one store keyed under its storage
// group (core), so its objects are `<prefix>/events/...` whichever group
// wrote them, as upstream's. Its own group's key (`/registry/events.k8s.io/
// events/...`, which no store uses now) still maps to the directory earlier
// versions stored events.k8s.io Events in, `<prefix>/events.k8s.io/events/`,
// so that the start-up migration (builtins/event-key-migration.ts) reads and
// deletes what they left there.

/** The groups whose resources kube-apiserver stores under `<prefix>/<resource>/`. */
const KUBE_GROUPS = new Set([
  '',
  'admissionregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'extensions',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

/** kube-apiserver's SpecialDefaultResourcePrefixes (group/resource -> prefix). */
const SPECIAL_PREFIXES: Record<string, string> = {
  '/replicationcontrollers': 'controllers',
  '/endpoints': 'services/endpoints',
  '/nodes': 'minions',
  '/services': 'services/specs',
  'extensions/ingresses': 'ingress',
  'networking.k8s.io/ingresses': 'ingress',
  'extensions/podsecuritypolicies': 'podsecuritypolicy',
  'policy/podsecuritypolicies': 'podsecuritypolicy',
  // the retired directory of events.k8s.io Events (see the header)
  'events.k8s.io/events': 'events.k8s.io/events',
};

/** The etcd directory (without the prefix) of a group's resource, as kube-apiserver names it. */
export function etcdResourcePath(group: string, resource: string): string {
  const special = SPECIAL_PREFIXES[`${group}/${resource}`];
  if (special) return special;
  return KUBE_GROUPS.has(group) ? resource : `${group}/${resource}`;
}

const OUR_ROOT = /^\/registry\/([^/]+)\/([^/]+)\//;
const OUR_ROOT_END = /^\/registry\/([^/]+)\/([^/]+)0$/;

/** The key after the last one with this prefix (etcd's range end for a prefix). */
export function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

export class KeyLayout {
  /** The etcd prefix without a trailing slash ('/registry'). */
  readonly prefix: string;
  constructor(prefix = '/registry') {
    this.prefix = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  }

  /** Our resource root of a key and its etcd root, or null for a key outside the layout. */
  private root(key: string): { ours: string; etcd: string } | null {
    const m = OUR_ROOT.exec(key);
    if (!m) return null;
    const group = m[1] === 'core' ? '' : m[1];
    return { ours: m[0], etcd: `${this.prefix}/${etcdResourcePath(group, m[2])}/` };
  }

  /** The etcd key of one of our keys. */
  toEtcd(key: string): string {
    const r = this.root(key);
    if (r) return r.etcd + key.slice(r.ours.length);
    return this.prefix + key;
  }

  /** The etcd end of a range [start, end) of our keys. */
  endToEtcd(end: string): string {
    // the end of a whole resource (`/registry/g/r0`): the end of its etcd directory
    const m = OUR_ROOT_END.exec(end);
    if (m) return prefixEnd(this.toEtcd(`/registry/${m[1]}/${m[2]}/`));
    return this.toEtcd(end);
  }

  /**
   * Our key for an etcd key read from a range or watch that started at our
   * key `from` (every key such a read returns shares its etcd root).
   */
  fromEtcd(etcdKey: string, from: string): string {
    const r = this.root(from);
    if (r && etcdKey.startsWith(r.etcd)) return r.ours + etcdKey.slice(r.etcd.length);
    if (etcdKey.startsWith(this.prefix)) return etcdKey.slice(this.prefix.length);
    return etcdKey;
  }
}
