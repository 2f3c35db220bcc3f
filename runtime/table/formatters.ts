// Table cell formatters: the cells of built-in printer columns that a plain
// JSONPath cannot express (Service ports, pod readiness, event sources ...),
// computed the way kube-apiserver 1.31 prints them for `kubectl get`. Each is
// a pure function of the object and the column (time-relative cells read the
// clock); api-specs columns name them in their `formatter` field and the
// table converter looks them up in `formatters`. Generic ones (orNone,
// joinComma, count ...) read the value at the column's jsonPath.

import type { PrinterColumn } from '../../generated/api-types.ts';
import type { Obj } from '../storage/interface.ts';
import { humanDuration } from './human-duration.ts';
import { evalPath } from './jsonpath.ts';

export type Cell = string | number | boolean | null;
export type CellFormatter = (obj: Obj, column: PrinterColumn) => Cell;

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

const NONE = '<none>';
const UNSET = '<unset>';

/** The value at the column's path: one value, or the list of values a wildcard reaches. */
function valueAt(obj: Obj, column: PrinterColumn): unknown {
  const values = evalPath(obj, column.jsonPath);
  if (values.length === 0) return undefined;
  return values.length === 1 ? values[0] : values;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function scalar(v: unknown): Cell {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map((x) => String(scalar(x))).join(',');
  return JSON.stringify(v);
}

/** The elements of a list field (objects unless the caller says otherwise), or none. */
const arr = <T = Obj>(v: unknown): T[] => (Array.isArray(v) ? v : []);
const map = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** Age of a timestamp as kubectl shows it, or undefined when absent or unparsable. */
function ageOf(ts: unknown): string | undefined {
  if (typeof ts !== 'string' || !ts) return undefined;
  const t = Date.parse(ts);
  return Number.isNaN(t) ? undefined : humanDuration(Date.now() - t);
}

/** At most `max` entries, then ` + N more...`, the way long cells are cut. */
function truncated(list: string[], max: number, total = list.length, sep = ','): string {
  const shown = list.slice(0, max).join(sep);
  return total > max ? `${shown} + ${total - max} more...` : shown;
}

const hostPort = (ip: string, port: unknown) => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);

/** `k=v,k2=v2` sorted by key; `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries(map(labels)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(',') : NONE;
}

/** A LabelSelector as a selector string (`app=web,tier in (a,b),!gone`); `<none>` when empty. */
export function formatLabelSelector(selector: unknown): string {
  if (!selector || typeof selector !== 'object') return NONE;
  const s = selector as Obj;
  const reqs: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(map(s.matchLabels))) reqs.push({ key: k, text: `${k}=${v}` });
  for (const e of arr(s.matchExpressions)) {
    const values = [...arr(e.values)].sort().join(',');
    switch (e.operator) {
      case 'In':
        reqs.push({ key: e.key, text: `${e.key} in (${values})` });
        break;
      case 'NotIn':
        reqs.push({ key: e.key, text: `${e.key} notin (${values})` });
        break;
      case 'Exists':
        reqs.push({ key: e.key, text: e.key });
        break;
      case 'DoesNotExist':
        reqs.push({ key: e.key, text: `!${e.key}` });
        break;
      default:
        reqs.push({ key: e.key, text: `${e.key} ${e.operator} (${values})` });
    }
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.length ? reqs.map((r) => r.text).join(',') : NONE;
}

/** Every value the column's path reaches, lists flattened, empties dropped. */
const joined = (o: Obj, c: PrinterColumn) =>
  evalPath(o, c.jsonPath)
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v) => !isEmpty(v))
    .map((v) => String(scalar(v)));

const conditionOf = (conditions: unknown, type: string): Obj | undefined => arr(conditions).find((c) => c?.type === type);
const conditionTrue = (conditions: unknown, type: string) => conditionOf(conditions, type)?.status === 'True';

/** Load-balancer ingress points (ip, else hostname), sorted and unique, cut to 16 characters. */
function loadBalancerText(ingress: unknown): string {
  const points = [
    ...new Set(
      arr(ingress)
        .map((i) => i?.ip || i?.hostname)
        .filter(Boolean) as string[],
    ),
  ].sort();
  const text = points.join(',');
  return text.length > 16 ? `${text.slice(0, 13)}...` : text;
}

// ---------------------------------------------------------------------------
// Generic formatters (read the column's jsonPath)
// ---------------------------------------------------------------------------

const generic: Record<string, CellFormatter> = {
  /** The value, or `<none>` when absent or empty. */
  orNone: (o, c) => {
    const v = valueAt(o, c);
    return isEmpty(v) ? NONE : scalar(v);
  },
  /** The value, or an empty cell. */
  orEmpty: (o, c) => {
    const v = valueAt(o, c);
    return isEmpty(v) ? '' : scalar(v);
  },
  /** The value as text, or `<unset>`. */
  orUnset: (o, c) => {
    const v = valueAt(o, c);
    return isEmpty(v) ? UNSET : String(scalar(v));
  },
  /** The value as text, or `N/A` (disruption budgets). */
  orNA: (o, c) => {
    const v = valueAt(o, c);
    return isEmpty(v) ? 'N/A' : String(scalar(v));
  },
  /** A number, 0 when absent. */
  intOrZero: (o, c) => {
    const v = valueAt(o, c);
    return typeof v === 'number' ? v : 0;
  },
  /** A boolean, false when absent. */
  boolOrFalse: (o, c) => valueAt(o, c) === true,
  /** A boolean, true when absent (CSIDriver attachRequired). */
  boolOrTrue: (o, c) => valueAt(o, c) !== false,
  /** `True` / `False` as text, `<unset>` when absent (CronJob suspend). */
  boolText: (o, c) => {
    const v = valueAt(o, c);
    return typeof v === 'boolean' ? (v ? 'True' : 'False') : UNSET;
  },
  /** The value, or `<unknown>` (node info). */
  orUnknown: (o, c) => {
    const v = valueAt(o, c);
    return isEmpty(v) ? '<unknown>' : scalar(v);
  },
  /** Text with surrounding white space removed (event messages). */
  trimmed: (o, c) => {
    const v = valueAt(o, c);
    return isEmpty(v) ? '' : String(scalar(v)).trim();
  },
  /** Number of entries of the list or map at the path. */
  count: (o, c) => {
    const v = valueAt(o, c);
    if (Array.isArray(v)) return v.length;
    return v && typeof v === 'object' ? Object.keys(v).length : 0;
  },
  /** Values joined with commas, empty when there are none. */
  joinComma: (o, c) => joined(o, c).join(','),
  /** Values joined with commas, `<none>` when there are none. */
  joinCommaOrNone: (o, c) => joined(o, c).join(',') || NONE,
  /** A LabelSelector at the path, `<none>` when it selects everything or is unset. */
  labelSelector: (o, c) => formatLabelSelector(valueAt(o, c)),
  /** A LabelSelector as selector text, empty when it selects everything or is unset. */
  selectorString: (o, c) => {
    const t = formatLabelSelector(valueAt(o, c));
    return t === NONE ? '' : t;
  },
  /** A string map at the path as `k=v,...`. */
  labelMap: (o, c) => formatLabels(valueAt(o, c)),
  /** Age of the timestamp at the path, `<none>` when unset. */
  ageOrNone: (o, c) => ageOf(valueAt(o, c)) ?? NONE,
};

// ---------------------------------------------------------------------------
// core/v1
// ---------------------------------------------------------------------------

const core: Record<string, CellFormatter> = {
  servicePorts: (o) => {
    const ports = arr(o.spec?.ports);
    if (!ports.length) return NONE;
    return ports
      .map((p) => {
        const proto = p.protocol ?? 'TCP';
        return p.nodePort ? `${p.port}:${p.nodePort}/${proto}` : `${p.port}/${proto}`;
      })
      .join(',');
  },
  serviceExternalIP: (o) => {
    const spec = map(o.spec);
    const external = arr<string>(spec.externalIPs);
    switch (spec.type ?? 'ClusterIP') {
      case 'ClusterIP':
      case 'NodePort':
        return external.length ? external.join(',') : NONE;
      case 'LoadBalancer': {
        const lb = loadBalancerText(o.status?.loadBalancer?.ingress);
        const all = [...(lb ? lb.split(',') : []), ...external];
        return all.length ? all.join(',') : '<pending>';
      }
      case 'ExternalName':
        return spec.externalName ?? '';
      default:
        return '<unknown>';
    }
  },
  endpoints: (o) => {
    const subsets = arr(o.subsets);
    if (!subsets.length) return NONE;
    const list: string[] = [];
    for (const subset of subsets) {
      const addrs = arr(subset.addresses);
      const ports = arr(subset.ports);
      if (!ports.length) for (const a of addrs) list.push(a.ip);
      else for (const p of ports) for (const a of addrs) list.push(hostPort(a.ip, p.port));
    }
    return truncated(list, 3);
  },
  configMapData: (o) => Object.keys(map(o.data)).length + Object.keys(map(o.binaryData)).length,
  secretData: (o) => Object.keys(map(o.data)).length,
  componentStatus: (o) => {
    const c = conditionOf(o.conditions, 'Healthy');
    if (!c) return 'Unknown';
    return c.status === 'True' ? 'Healthy' : 'Unhealthy';
  },
  componentMessage: (o) => conditionOf(o.conditions, 'Healthy')?.message ?? '',
  componentError: (o) => conditionOf(o.conditions, 'Healthy')?.error ?? '',
  accessModes: (o, c) => {
    const modes = new Set(arr<string>(valueAt(o, c)));
    const abbrev: [string, string][] = [
      ['ReadWriteOnce', 'RWO'],
      ['ReadOnlyMany', 'ROX'],
      ['ReadWriteMany', 'RWX'],
      ['ReadWriteOncePod', 'RWOP'],
    ];
    return abbrev
      .filter(([m]) => modes.has(m))
      .map(([, a]) => a)
      .join(',');
  },
  /** PV capacity: the storage quantity, `0` when unset. */
  volumeCapacity: (o) => o.spec?.capacity?.storage ?? '0',
  volumeClaim: (o) => {
    const ref = o.spec?.claimRef;
    return ref ? `${ref.namespace ?? ''}/${ref.name ?? ''}` : '';
  },
  /** Storage class: the beta annotation wins over the field, as upstream reads it. */
  storageClassOf: (o) => o.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? o.spec?.storageClassName ?? '',
  volumeMode: (o) => o.spec?.volumeMode ?? UNSET,
  /** Phase, or Terminating once deletion started (PV and PVC). */
  phaseOrTerminating: (o) => (o.metadata?.deletionTimestamp ? 'Terminating' : (o.status?.phase ?? '')),
  /** A claim's capacity, shown once it names a volume. */
  claimCapacity: (o) => (o.spec?.volumeName ? (o.status?.capacity?.storage ?? '0') : ''),
  claimAccessModes: (o) => (o.spec?.volumeName ? core.accessModes(o, { jsonPath: '.status.accessModes' } as PrinterColumn) : ''),
  nodeStatus: (o) => {
    const ready = conditionOf(o.status?.conditions, 'Ready');
    const parts = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
    if (o.spec?.unschedulable) parts.push('SchedulingDisabled');
    return parts.join(',');
  },
  nodeRoles: (o) => {
    const roles = new Set<string>();
    for (const [k, v] of Object.entries(map(o.metadata?.labels))) {
      if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length) roles.add(k.slice('node-role.kubernetes.io/'.length));
      else if (k === 'kubernetes.io/role' && v) roles.add(String(v));
    }
    return roles.size ? [...roles].sort().join(',') : NONE;
  },
  nodeInternalIP: (o) => arr(o.status?.addresses).find((a) => a.type === 'InternalIP')?.address ?? NONE,
  nodeExternalIP: (o) => arr(o.status?.addresses).find((a) => a.type === 'ExternalIP')?.address ?? NONE,
  podReady: (o) => {
    const p = podSummary(o);
    return `${p.ready}/${p.total}`;
  },
  podRestarts: (o) => {
    const p = podSummary(o);
    return p.restarts && p.lastRestart ? `${p.restarts} (${humanDuration(Date.now() - p.lastRestart)} ago)` : String(p.restarts);
  },
  podStatus: (o) => podStatus(o),
  podReadinessGates: (o) => {
    const gates = arr(o.spec?.readinessGates);
    if (!gates.length) return NONE;
    const ok = gates.filter((g) => conditionTrue(o.status?.conditions, g.conditionType)).length;
    return `${ok}/${gates.length}`;
  },
  quotaRequest: (o) => quotaColumn(o, false),
  quotaLimit: (o) => quotaColumn(o, true),
};

export interface PodSummary {
  /** Ready containers (and started, ready sidecars) of `total`. */
  ready: number;
  total: number;
  restarts: number;
  /** Epoch ms of the latest container termination behind a restart, 0 if none. */
  lastRestart: number;
  /** The Status cell. */
  reason: string;
}

/**
 * One pass over a pod's status giving its Ready, Status and Restarts cells:
 * phase refined by the first unfinished init container, then by the regular
 * containers (last one wins); sidecars (init containers that always restart)
 * count as containers once started.
 */
export function podSummary(o: Obj): PodSummary {
  const status = map(o.status);
  const initSpecs = new Map(arr(o.spec?.initContainers).map((c) => [c.name, c]));
  const isSidecar = (name: string) => initSpecs.get(name)?.restartPolicy === 'Always';
  const out: PodSummary = {
    ready: 0,
    total: arr(o.spec?.containers).length + arr(o.spec?.initContainers).filter((c) => c.restartPolicy === 'Always').length,
    restarts: 0,
    lastRestart: 0,
    reason: status.reason || status.phase || '',
  };
  if (arr(status.conditions).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) out.reason = 'SchedulingGated';
  const finishedAt = (s: Obj) => {
    const t = Date.parse(s.lastState?.terminated?.finishedAt ?? '');
    return Number.isNaN(t) ? 0 : t;
  };

  let sidecarRestarts = 0;
  let sidecarLast = 0;
  let initializing = false;
  const inits = arr(status.initContainerStatuses);
  for (let i = 0; i < inits.length; i++) {
    const s = inits[i];
    out.restarts += s.restartCount ?? 0;
    out.lastRestart = Math.max(out.lastRestart, finishedAt(s));
    if (isSidecar(s.name)) {
      sidecarRestarts += s.restartCount ?? 0;
      sidecarLast = Math.max(sidecarLast, finishedAt(s));
    }
    const term = s.state?.terminated;
    const wait = s.state?.waiting;
    if (term && term.exitCode === 0) continue;
    if (isSidecar(s.name) && s.started) {
      if (s.ready) out.ready++;
      continue;
    }
    initializing = true;
    if (term) out.reason = term.reason ? `Init:${term.reason}` : term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode ?? 0}`;
    else if (wait?.reason && wait.reason !== 'PodInitializing') out.reason = `Init:${wait.reason}`;
    else out.reason = `Init:${i}/${initSpecs.size}`;
    break;
  }
  if (!initializing || conditionTrue(status.conditions, 'Initialized')) {
    out.restarts = sidecarRestarts;
    out.lastRestart = sidecarLast;
    let running = false;
    const cs = arr(status.containerStatuses);
    for (let i = cs.length - 1; i >= 0; i--) {
      const s = cs[i];
      out.restarts += s.restartCount ?? 0;
      out.lastRestart = Math.max(out.lastRestart, finishedAt(s));
      const term = s.state?.terminated;
      if (s.state?.waiting?.reason) out.reason = s.state.waiting.reason;
      else if (term?.reason) out.reason = term.reason;
      else if (term) out.reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode ?? 0}`;
      else if (s.ready && s.state?.running) {
        running = true;
        out.ready++;
      }
    }
    if (out.reason === 'Completed' && running) out.reason = conditionTrue(status.conditions, 'Ready') ? 'Running' : 'NotReady';
  }
  if (o.metadata?.deletionTimestamp) {
    if (status.reason === 'NodeLost') out.reason = 'Unknown';
    else if (status.phase !== 'Succeeded' && status.phase !== 'Failed') out.reason = 'Terminating';
  }
  return out;
}

/** The Status cell of a pod. */
export function podStatus(o: Obj): string {
  return podSummary(o).reason;
}

/** `resource: used/hard, ...` over the quota's hard limits, requests or limits only. */
function quotaColumn(o: Obj, limits: boolean): string {
  const hard = map(o.status?.hard);
  const used = map(o.status?.used);
  return Object.keys(hard)
    .sort()
    .filter((r) => (r.split('.').length > 1 && r.split('.')[0] === 'limits') === limits)
    .map((r) => `${r}: ${used[r] ?? '0'}/${hard[r]}`)
    .join(', ');
}

// ---------------------------------------------------------------------------
// Events (core/v1 and events.k8s.io/v1 shapes)
// ---------------------------------------------------------------------------

const firstSeen = (o: Obj) => o.firstTimestamp || o.deprecatedFirstTimestamp || o.eventTime;

const events: Record<string, CellFormatter> = {
  eventLastSeen: (o) => {
    const ts = o.series?.lastObservedTime || o.lastTimestamp || o.deprecatedLastTimestamp || firstSeen(o);
    return ageOf(ts) ?? '<unknown>';
  },
  eventFirstSeen: (o) => ageOf(firstSeen(o)) ?? '<unknown>',
  eventCount: (o) => o.series?.count ?? (o.count || o.deprecatedCount || 1),
  eventObject: (o) => {
    const ref = map(o.involvedObject ?? o.regarding);
    const kind = String(ref.kind ?? '').toLowerCase();
    return ref.name ? `${kind}/${ref.name}` : kind;
  },
  eventSource: (o) => {
    const src = map(o.source ?? o.deprecatedSource);
    const component: string = src.component || o.reportingComponent || o.reportingController || '';
    const instance: string = src.host || o.reportingInstance || '';
    return instance ? `${component}, ${instance}` : component;
  },
};

// ---------------------------------------------------------------------------
// Other groups
// ---------------------------------------------------------------------------

const subjects = (o: Obj, kind: string) =>
  arr(o.subjects)
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}:${s.name}` : s.name))
    .join(', ');

const hpaMetric = (spec: Obj, status: Obj | undefined): string => {
  const avg = (v: unknown) => (v === undefined || v === null ? '<unknown>' : String(v));
  switch (spec.type) {
    case 'External': {
      const t = map(spec.external?.target);
      const cur = map(status?.external?.current);
      return t.averageValue !== undefined ? `${avg(cur.averageValue)}/${t.averageValue} (avg)` : `${avg(cur.value)}/${t.value}`;
    }
    case 'Pods':
      return `${avg(status?.pods?.current?.averageValue)}/${spec.pods?.target?.averageValue}`;
    case 'Object': {
      const t = map(spec.object?.target);
      const cur = map(status?.object?.current);
      return t.averageValue !== undefined ? `${avg(cur.averageValue)}/${t.averageValue} (avg)` : `${avg(cur.value)}/${t.value}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const s = map(spec[key]);
      const cur = map(status?.[key]?.current);
      const t = map(s.target);
      if (t.averageValue !== undefined) return `${s.name}: ${avg(cur.averageValue)}/${t.averageValue}`;
      const current = cur.averageUtilization !== undefined ? `${cur.averageUtilization}%` : '<unknown>';
      const target = t.averageUtilization !== undefined ? `${t.averageUtilization}%` : '<auto>';
      return `${s.name}: ${current}/${target}`;
    }
    default:
      return '<unknown type>';
  }
};

const others: Record<string, CellFormatter> = {
  readyOfDesired: (o) => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
  controllerOwner: (o) => {
    const ref = arr(o.metadata?.ownerReferences).find((r) => r.controller);
    if (!ref) return NONE;
    const apiVersion = String(ref.apiVersion ?? '');
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
    return `${(group ? `${ref.kind}.${group}` : String(ref.kind)).toLowerCase()}/${ref.name}`;
  },
  roleRef: (o) => `${o.roleRef?.kind ?? ''}/${o.roleRef?.name ?? ''}`,
  subjectsUsers: (o) => subjects(o, 'User'),
  subjectsGroups: (o) => subjects(o, 'Group'),
  subjectsServiceAccounts: (o) => subjects(o, 'ServiceAccount'),
  sliceEndpointPorts: (o) => {
    const ports = arr(o.ports);
    if (!ports.length) return UNSET;
    return truncated(
      ports.map((p) => (typeof p.port === 'number' ? String(p.port) : (p.name ?? '*'))),
      3,
    );
  },
  sliceEndpoints: (o) => {
    const addrs = arr(o.endpoints).flatMap((e) => arr(e.addresses)) as string[];
    return addrs.length ? truncated(addrs, 3) : UNSET;
  },
  reclaimPolicy: (o) => o.reclaimPolicy ?? 'Delete',
  volumeBindingMode: (o) => o.volumeBindingMode ?? 'Immediate',
  tokenRequestAudiences: (o) => {
    const reqs = arr(o.spec?.tokenRequests);
    return reqs.length ? reqs.map((r) => r.audience).join(',') : UNSET;
  },
  apiServiceService: (o) => (o.spec?.service ? `${o.spec.service.namespace}/${o.spec.service.name}` : 'Local'),
  apiServiceAvailable: (o) => {
    const c = conditionOf(o.status?.conditions, 'Available');
    if (!c) return 'Unknown';
    return c.status === 'True' ? 'True' : `${c.status} (${c.reason ?? ''})`;
  },
  ipParentRef: (o) => {
    const ref = o.spec?.parentRef;
    if (!ref) return NONE;
    const resource = String(ref.group ? `${ref.resource}.${ref.group}` : ref.resource).toLowerCase();
    return `${resource}${ref.namespace ? `/${ref.namespace}` : ''}/${ref.name}`;
  },
  /** Up to three rule hosts, then ` + N more...` counted over all rules; `*` when none. */
  ingressHosts: (o) => {
    const rules = arr(o.spec?.rules);
    const hosts: string[] = [];
    let more = false;
    for (const r of rules) {
      if (hosts.length === 3) more = true;
      if (!more && r.host) hosts.push(r.host);
    }
    if (!hosts.length) return '*';
    return more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(',');
  },
  ingressAddress: (o) => loadBalancerText(o.status?.loadBalancer?.ingress),
  ingressPorts: (o) => (arr(o.spec?.tls).length ? '80, 443' : '80'),
  ingressClassParameters: (o) => {
    const p = o.spec?.parameters;
    if (!p) return NONE;
    return `${p.apiGroup ? `${p.kind}.${p.apiGroup}` : p.kind}/${p.name}`;
  },
  paramKind: (o) => {
    const p = o.spec?.paramKind;
    return p ? `${p.apiVersion}/${p.kind}` : UNSET;
  },
  paramRef: (o) => {
    const p = o.spec?.paramRef;
    if (!p) return UNSET;
    if (p.name) return `${p.namespace || '*'}/${p.name}`;
    return p.selector ? formatLabelSelector(p.selector) : UNSET;
  },
  flowDistinguisher: (o) => o.spec?.distinguisherMethod?.type ?? NONE,
  flowSchemaMissingPL: (o) => conditionOf(o.status?.conditions, 'Dangling')?.status ?? '?',
  jobStatus: (o) => {
    const conds = o.status?.conditions;
    if (conditionTrue(conds, 'Complete')) return 'Complete';
    if (conditionTrue(conds, 'Failed')) return 'Failed';
    if (o.metadata?.deletionTimestamp) return 'Terminating';
    if (conditionTrue(conds, 'Suspended')) return 'Suspended';
    if (conditionTrue(conds, 'FailureTarget')) return 'FailureTarget';
    return 'Running';
  },
  jobCompletions: (o) => {
    const succeeded = o.status?.succeeded ?? 0;
    if (typeof o.spec?.completions === 'number') return `${succeeded}/${o.spec.completions}`;
    const parallelism = o.spec?.parallelism ?? 0;
    return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
  },
  jobDuration: (o) => {
    const start = Date.parse(o.status?.startTime ?? '');
    if (Number.isNaN(start)) return '';
    const end = Date.parse(o.status?.completionTime ?? '');
    return humanDuration((Number.isNaN(end) ? Date.now() : end) - start);
  },
  hpaReference: (o) => `${o.spec?.scaleTargetRef?.kind ?? ''}/${o.spec?.scaleTargetRef?.name ?? ''}`,
  hpaTargets: (o) => {
    const specs = arr(o.spec?.metrics);
    if (!specs.length) return NONE;
    const statuses = arr(o.status?.currentMetrics);
    const list = specs.map((s, i) => hpaMetric(s, statuses[i]));
    return truncated(list, 2, list.length, ', ');
  },
  csrRequestedDuration: (o) => (typeof o.spec?.expirationSeconds === 'number' ? humanDuration(o.spec.expirationSeconds * 1000) : NONE),
  csrCondition: (o) => csrCondition(o),
};

/** A certificate request's state as kubectl shows it: Denied over Approved over Pending, then Failed and Issued. */
export function csrCondition(o: Obj): string {
  const types = new Set(arr(o.status?.conditions).map((c) => c?.type));
  let s = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) s += ',Failed';
  if (o.status?.certificate) s += ',Issued';
  return s;
}

/** Every formatter by the name api-specs printer columns use. */
export const formatters: Record<string, CellFormatter> = { ...generic, ...core, ...events, ...others };
