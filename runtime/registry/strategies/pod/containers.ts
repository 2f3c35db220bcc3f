// Container rules of a PodSpec, wherever one appears: containers required,
// names DNS labels unique across init, regular and ephemeral containers,
// image (required in Pods only, never padded with spaces), pull and
// termination-message policies, ports (number range, protocol, IANA name,
// unique names), env var names and sources, resources (quantity syntax,
// not negative, requests within limits), volume mounts (a declared volume,
// a unique mount path) and probes (one handler, counts,
// success threshold 1 for liveness and startup); plus the pod's
// restartPolicy against what the carrying kind allows. Upstream's paths
// and texts; volumes are in volumes.ts.

import { QuantityValue } from '../../../cel/libs/quantity-parse.ts';
import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { validateDNS1123Label } from '../../../api/validation.ts';
import { portNameErrors, portNumOrNameErrors } from '../common/ip-rules.ts';

const PORT_RANGE = 'must be between 1 and 65535, inclusive';
const NEGATIVE = 'must be greater than or equal to 0';
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
export const ENV_NAME_MSG =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
const QUANTITY_MSG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
/** Resources whose request must equal the limit (no overcommit). */
const NO_OVERCOMMIT = (name: string) => name.startsWith('hugepages-') || (name.includes('/') && !name.includes('kubernetes.io/'));

export const ALL_RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];

export interface PodSpecRules {
  /** Pods need an image; templates may leave it to be filled later. */
  requireImage: boolean;
  /** The pod restartPolicy values the carrying kind accepts. */
  restartPolicies: string[];
}

function nonNegative(path: string, v: unknown): FieldError[] {
  return typeof v === 'number' && v < 0 ? [fieldErrors.invalid(path, v, NEGATIVE)] : [];
}

function parseQuantity(v: unknown): QuantityValue | undefined {
  if (typeof v === 'number') v = String(v);
  if (typeof v !== 'string') return undefined;
  try {
    return QuantityValue.parse(v);
  } catch {
    return undefined;
  }
}

function resourcesErrors(path: string, res: Obj | undefined): FieldError[] {
  if (!res || typeof res !== 'object') return [];
  const errs: FieldError[] = [];
  const parsed: Record<'limits' | 'requests', Map<string, QuantityValue>> = { limits: new Map(), requests: new Map() };
  for (const kind of ['limits', 'requests'] as const) {
    for (const [name, raw] of Object.entries((res[kind] ?? {}) as Record<string, unknown>)) {
      const p = `${path}.${kind}[${name}]`;
      const qv = parseQuantity(raw);
      if (!qv) {
        errs.push(fieldErrors.invalid(p, raw, QUANTITY_MSG));
        continue;
      }
      if (qv.sign() < 0) {
        errs.push(fieldErrors.invalid(p, qv.toString(), NEGATIVE));
        continue;
      }
      parsed[kind].set(name, qv);
    }
  }
  for (const [name, req] of parsed.requests) {
    const lim = parsed.limits.get(name);
    if (!lim) {
      if (NO_OVERCOMMIT(name)) errs.push(fieldErrors.required(`${path}.limits`, 'Limit must be set for non overcommitable resources'));
      continue;
    }
    if (NO_OVERCOMMIT(name) && req.cmp(lim) !== 0) {
      errs.push(fieldErrors.invalid(`${path}.requests`, req.toString(), `must be equal to ${name} limit of ${lim.toString()}`));
    } else if (req.cmp(lim) > 0) {
      errs.push(fieldErrors.invalid(`${path}.requests`, req.toString(), `must be less than or equal to ${name} limit of ${lim.toString()}`));
    }
  }
  return errs;
}

function portValueErrors(path: string, v: unknown): FieldError[] {
  return portNumOrNameErrors(v).map((m) => fieldErrors.invalid(path, v ?? 0, m));
}

function probeErrors(path: string, probe: Obj | undefined, needsSuccessOne: boolean): FieldError[] {
  if (!probe || typeof probe !== 'object') return [];
  const errs: FieldError[] = [];
  const set = HANDLERS.filter((h) => probe[h] != null);
  if (set.length === 0) errs.push(fieldErrors.required(path, 'must specify a handler type'));
  for (const h of set.slice(1)) errs.push(fieldErrors.forbidden(`${path}.${h}`, 'may not specify more than 1 handler type'));
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...nonNegative(`${path}.${f}`, probe[f]));
  }
  if (needsSuccessOne && typeof probe.successThreshold === 'number' && probe.successThreshold !== 1) {
    errs.push(fieldErrors.invalid(`${path}.successThreshold`, probe.successThreshold, 'must be 1'));
  }
  if (probe.terminationGracePeriodSeconds !== undefined && !(probe.terminationGracePeriodSeconds > 0)) {
    errs.push(fieldErrors.invalid(`${path}.terminationGracePeriodSeconds`, probe.terminationGracePeriodSeconds, 'must be greater than 0'));
  }
  const http = probe.httpGet;
  if (http && typeof http === 'object') {
    errs.push(...portValueErrors(`${path}.httpGet.port`, http.port));
    if (http.scheme !== undefined && http.scheme !== 'HTTP' && http.scheme !== 'HTTPS') {
      errs.push(fieldErrors.notSupported(`${path}.httpGet.scheme`, http.scheme, ['HTTP', 'HTTPS']));
    }
  }
  const tcp = probe.tcpSocket;
  if (tcp && typeof tcp === 'object') errs.push(...portValueErrors(`${path}.tcpSocket.port`, tcp.port));
  const grpc = probe.grpc;
  if (grpc && typeof grpc === 'object' && !(typeof grpc.port === 'number' && grpc.port >= 1 && grpc.port <= 65535)) {
    errs.push(fieldErrors.invalid(`${path}.grpc.port`, grpc.port ?? 0, PORT_RANGE));
  }
  return errs;
}

function envErrors(path: string, env: unknown): FieldError[] {
  if (!Array.isArray(env)) return [];
  const errs: FieldError[] = [];
  env.forEach((e: Obj, i: number) => {
    const p = `${path}[${i}]`;
    const name = e?.name;
    if (!name) errs.push(fieldErrors.required(`${p}.name`, ''));
    else if (!ENV_NAME.test(name)) errs.push(fieldErrors.invalid(`${p}.name`, name, ENV_NAME_MSG));
    const from = e?.valueFrom;
    if (from && typeof from === 'object') {
      const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter((k) => from[k] != null);
      if (e.value) errs.push(fieldErrors.invalid(`${p}.valueFrom`, '', 'may not be specified when `value` is not empty'));
      if (sources.length === 0) errs.push(fieldErrors.invalid(`${p}.valueFrom`, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
      else if (sources.length > 1) errs.push(fieldErrors.invalid(`${p}.valueFrom`, '', 'may not have more than one field specified at a time'));
    }
  });
  return errs;
}

function portsErrors(path: string, ports: unknown): FieldError[] {
  if (!Array.isArray(ports)) return [];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((pt: Obj, i: number) => {
    const p = `${path}[${i}]`;
    if (pt?.name) {
      for (const m of portNameErrors(pt.name)) errs.push(fieldErrors.invalid(`${p}.name`, pt.name, m));
      if (names.has(pt.name)) errs.push(fieldErrors.duplicate(`${p}.name`, pt.name));
      names.add(pt.name);
    }
    if (!pt?.containerPort) errs.push(fieldErrors.required(`${p}.containerPort`, ''));
    else if (!(pt.containerPort >= 1 && pt.containerPort <= 65535)) errs.push(fieldErrors.invalid(`${p}.containerPort`, pt.containerPort, PORT_RANGE));
    if (pt?.hostPort && !(pt.hostPort >= 1 && pt.hostPort <= 65535)) errs.push(fieldErrors.invalid(`${p}.hostPort`, pt.hostPort, PORT_RANGE));
    if (!pt?.protocol) errs.push(fieldErrors.required(`${p}.protocol`, ''));
    else if (!PROTOCOLS.includes(pt.protocol)) errs.push(fieldErrors.notSupported(`${p}.protocol`, pt.protocol, PROTOCOLS));
  });
  return errs;
}

function volumeMountErrors(path: string, mounts: unknown, volumes: Set<string>): FieldError[] {
  if (!Array.isArray(mounts)) return [];
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  mounts.forEach((m: Obj, i: number) => {
    const p = `${path}[${i}]`;
    const name = String(m?.name ?? '');
    if (!name) errs.push(fieldErrors.required(`${p}.name`, ''));
    if (!volumes.has(name)) errs.push(fieldErrors.notFound(`${p}.name`, name));
    const mp = String(m?.mountPath ?? '');
    if (!mp) errs.push(fieldErrors.required(`${p}.mountPath`, ''));
    if (paths.has(mp)) errs.push(fieldErrors.invalid(`${p}.mountPath`, mp, 'must be unique'));
    paths.add(mp);
  });
  return errs;
}

function containerErrors(path: string, c: Obj, kind: 'containers' | 'initContainers' | 'ephemeralContainers', rules: PodSpecRules, volumes: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const name = c?.name;
  if (!name) errs.push(fieldErrors.required(`${path}.name`, ''));
  else for (const m of validateDNS1123Label(name)) errs.push(fieldErrors.invalid(`${path}.name`, name, m));
  const image = c?.image;
  if (!image) {
    if (rules.requireImage) errs.push(fieldErrors.required(`${path}.image`, ''));
  } else if (typeof image === 'string' && image.trim() !== image) {
    errs.push(fieldErrors.invalid(`${path}.image`, image, 'must not have leading or trailing whitespace'));
  }
  if (c?.imagePullPolicy !== undefined && !PULL_POLICIES.includes(c.imagePullPolicy)) {
    errs.push(fieldErrors.notSupported(`${path}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
  }
  if (c?.terminationMessagePolicy !== undefined && !MESSAGE_POLICIES.includes(c.terminationMessagePolicy)) {
    errs.push(fieldErrors.notSupported(`${path}.terminationMessagePolicy`, c.terminationMessagePolicy, MESSAGE_POLICIES));
  }
  errs.push(...portsErrors(`${path}.ports`, c?.ports));
  errs.push(...envErrors(`${path}.env`, c?.env));
  errs.push(...resourcesErrors(`${path}.resources`, c?.resources));
  errs.push(...volumeMountErrors(`${path}.volumeMounts`, c?.volumeMounts, volumes));
  const sidecar = kind === 'initContainers' && c?.restartPolicy === 'Always';
  if (kind === 'containers' || sidecar) {
    errs.push(...probeErrors(`${path}.livenessProbe`, c?.livenessProbe, true));
    errs.push(...probeErrors(`${path}.readinessProbe`, c?.readinessProbe, false));
    errs.push(...probeErrors(`${path}.startupProbe`, c?.startupProbe, true));
  } else {
    const why = kind === 'initContainers' ? 'may not be set for init containers without restartPolicy=Always' : 'cannot be set for an Ephemeral Container';
    for (const pr of ['livenessProbe', 'readinessProbe', 'startupProbe']) if (c?.[pr] != null) errs.push(fieldErrors.forbidden(`${path}.${pr}`, why));
  }
  if (kind === 'initContainers' && c?.restartPolicy !== undefined && c.restartPolicy !== 'Always') {
    errs.push(fieldErrors.notSupported(`${path}.restartPolicy`, c.restartPolicy, ['Always']));
  }
  if (kind === 'containers' && c?.restartPolicy !== undefined) {
    errs.push(fieldErrors.forbidden(`${path}.restartPolicy`, 'may not be set for non-init containers'));
  }
  return errs;
}

/** The container and restart-policy rules of a PodSpec at `path` (`spec`, `spec.template.spec`, ...). */
export function podSpecErrors(path: string, spec: Obj | undefined, rules: PodSpecRules): FieldError[] {
  if (!spec || typeof spec !== 'object') return [];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const volumes = new Set<string>((Array.isArray(spec.volumes) ? spec.volumes : []).map((v: Obj) => String(v?.name ?? '')));
  const lists: ['containers' | 'initContainers' | 'ephemeralContainers', unknown][] = [
    ['initContainers', spec.initContainers],
    ['containers', spec.containers],
    ['ephemeralContainers', spec.ephemeralContainers],
  ];
  if (!Array.isArray(spec.containers) || spec.containers.length === 0) errs.push(fieldErrors.required(`${path}.containers`, ''));
  for (const [kind, list] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((c: Obj, i: number) => {
      const p = `${path}.${kind}[${i}]`;
      errs.push(...containerErrors(p, c, kind, rules, volumes));
      const name = c?.name;
      if (typeof name === 'string' && name) {
        if (seen.has(name)) errs.push(fieldErrors.duplicate(`${p}.name`, name));
        seen.add(name);
      }
    });
  }
  const rp = spec.restartPolicy;
  if (!rp) errs.push(fieldErrors.required(`${path}.restartPolicy`, ''));
  else if (!rules.restartPolicies.includes(rp)) errs.push(fieldErrors.notSupported(`${path}.restartPolicy`, rp, rules.restartPolicies));
  errs.push(...nonNegative(`${path}.terminationGracePeriodSeconds`, spec.terminationGracePeriodSeconds));
  const ads = spec.activeDeadlineSeconds;
  if (ads !== undefined && !(typeof ads === 'number' && ads >= 1 && ads <= 2147483647)) {
    errs.push(fieldErrors.invalid(`${path}.activeDeadlineSeconds`, ads, 'must be between 1 and 2147483647, inclusive'));
  }
  return errs;
}
