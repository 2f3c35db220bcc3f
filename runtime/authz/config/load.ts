// The AuthorizationConfiguration file of `--authorization-config`
// (apiserver.config.k8s.io/v1beta1 or v1alpha1, as kube-apiserver 1.31
// accepts), read as upstream reads it: YAML or JSON, decoded strictly
// (unknown and duplicate fields are errors), defaulted (a webhook's
// authorizedTTL 5m and unauthorizedTTL 30s), then validated with upstream's
// field paths and texts: authorizers present, types known and only Webhook
// repeated, names DNS-1123 subdomains and unique (and, for kube-apiserver,
// the lower-cased type for anything but a webhook), webhook timeout in
// (0s, 30s], TTLs > 0s, versions, failurePolicy, connectionInfo and up to 64
// matchConditions compiled with our CEL module. `requireTypes` (a reload)
// lists the non-webhook types that must still be present.

import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { yaml } from '../../api/yaml.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { formatDuration, parseDuration } from '../../codec/protobuf/special-values.ts';
import { compileMatchConditions, type Matcher } from '../webhook/match.ts';

export const CONFIG_GROUP = 'apiserver.config.k8s.io';
export const CONFIG_VERSIONS = ['v1beta1', 'v1alpha1'];
/** The types kube-apiserver knows (upstream's AuthorizationModeChoices). */
export const AUTHORIZER_TYPES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'];
const REPEATABLE = ['Webhook'];
const MAX_TIMEOUT_MS = 30_000;

export interface WebhookSettings {
  timeoutMs: number;
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  subjectAccessReviewVersion: 'v1' | 'v1beta1';
  failurePolicy: 'NoOpinion' | 'Deny';
  connectionInfo: { type: 'KubeConfigFile' | 'InClusterConfig'; kubeConfigFile?: string };
  matchConditions: string[];
  /** The compiled matchConditions (none: always ask). */
  matcher?: Matcher;
}

export interface AuthorizerEntry {
  type: string;
  name: string;
  webhook?: WebhookSettings;
}

export interface AuthorizationConfig {
  authorizers: AuthorizerEntry[];
}

export class AuthorizationConfigError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const SCHEMA: Record<string, readonly string[]> = {
  '': ['apiVersion', 'kind', 'authorizers'],
  authorizer: ['type', 'name', 'webhook'],
  webhook: ['timeout', 'authorizedTTL', 'unauthorizedTTL', 'subjectAccessReviewVersion', 'matchConditionSubjectAccessReviewVersion', 'failurePolicy', 'connectionInfo', 'matchConditions'],
  connectionInfo: ['type', 'kubeConfigFile'],
  matchCondition: ['expression'],
};

/** Upstream's strict decoding: every field not in the type is an error, named by its path. */
function unknownFields(raw: Record<string, unknown>): string[] {
  const out: string[] = [];
  const check = (o: unknown, kind: string, path: string) => {
    if (!isObject(o)) return;
    for (const k of Object.keys(o)) if (!SCHEMA[kind].includes(k)) out.push(`unknown field "${path ? `${path}.` : ''}${k}"`);
  };
  check(raw, '', '');
  if (Array.isArray(raw.authorizers)) {
    raw.authorizers.forEach((a, i) => {
      const p = `authorizers[${i}]`;
      check(a, 'authorizer', p);
      if (!isObject(a) || !isObject(a.webhook)) return;
      check(a.webhook, 'webhook', `${p}.webhook`);
      check(a.webhook.connectionInfo, 'connectionInfo', `${p}.webhook.connectionInfo`);
      if (Array.isArray(a.webhook.matchConditions)) a.webhook.matchConditions.forEach((m, j) => check(m, 'matchCondition', `${p}.webhook.matchConditions[${j}]`));
    });
  }
  return out;
}

function typeError(path: string, want: string, got: unknown): never {
  const kind = Array.isArray(got) ? 'array' : got === null ? 'null' : typeof got;
  throw new AuthorizationConfigError(`json: cannot unmarshal ${kind} into Go struct field ${path} of type ${want}`);
}

function str(o: Record<string, unknown>, k: string, path: string): string {
  const v = o[k];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') typeError(`${path}.${k}`, 'string', v);
  return v;
}

/** A metav1.Duration field: Go's duration text; undefined when absent. */
function duration(o: Record<string, unknown>, k: string, path: string): number | undefined {
  const v = o[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') typeError(`${path}.${k}`, 'v1.Duration', v);
  try {
    return parseDuration(v) / 1e6;
  } catch {
    throw new AuthorizationConfigError(`time: invalid duration ${JSON.stringify(v)}`);
  }
}

interface RawWebhook {
  timeoutMs?: number;
  authorizedTtlMs?: number;
  unauthorizedTtlMs?: number;
  subjectAccessReviewVersion: string;
  matchConditionSubjectAccessReviewVersion: string;
  failurePolicy: string;
  connectionInfo: { type: string; kubeConfigFile?: string };
  matchConditions: string[];
}

/** Decodes the document (YAML or JSON) into the typed form with defaults; decoding problems throw. */
function decode(text: string): { authorizers: { type: string; name: string; webhook?: RawWebhook }[] } {
  if (text.trim() === '') return { authorizers: [] };
  const doc = yaml().parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length) throw new AuthorizationConfigError(doc.errors[0].message.split('\n')[0]);
  const raw: unknown = doc.toJS({ maxAliasCount: 100 });
  if (!isObject(raw)) throw new AuthorizationConfigError("couldn't get version/kind; json parse error: the document is not an object");
  const apiVersion = raw.apiVersion;
  const kind = raw.kind;
  if (typeof kind !== 'string' || kind === '') throw new AuthorizationConfigError(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  if (typeof apiVersion !== 'string' || apiVersion === '') throw new AuthorizationConfigError(`Object 'apiVersion' is missing in '${JSON.stringify(raw)}'`);
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  if (group !== CONFIG_GROUP || !CONFIG_VERSIONS.includes(version) || kind !== 'AuthorizationConfiguration') {
    throw new AuthorizationConfigError(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/apis/apiserver/load/load.go"`);
  }
  const unknown = unknownFields(raw);
  if (unknown.length) throw new AuthorizationConfigError(`strict decoding error: ${unknown.join(', ')}`);
  const list = raw.authorizers ?? [];
  if (!Array.isArray(list)) typeError('AuthorizationConfiguration.authorizers', '[]v1beta1.AuthorizerConfiguration', list);
  return {
    authorizers: list.map((a: unknown, i: number) => {
      const path = `AuthorizationConfiguration.authorizers[${i}]`;
      if (!isObject(a)) typeError(path, 'v1beta1.AuthorizerConfiguration', a);
      const entry: { type: string; name: string; webhook?: RawWebhook } = { type: str(a, 'type', path), name: str(a, 'name', path) };
      if (a.webhook !== undefined && a.webhook !== null) {
        const w = a.webhook;
        const wp = `${path}.webhook`;
        if (!isObject(w)) typeError(wp, 'v1beta1.WebhookConfiguration', w);
        const ci = w.connectionInfo ?? {};
        if (!isObject(ci)) typeError(`${wp}.connectionInfo`, 'v1beta1.WebhookConnectionInfo', ci);
        const mcs = w.matchConditions ?? [];
        if (!Array.isArray(mcs)) typeError(`${wp}.matchConditions`, '[]v1beta1.WebhookMatchCondition', mcs);
        const kubeConfigFile = ci.kubeConfigFile;
        if (kubeConfigFile !== undefined && kubeConfigFile !== null && typeof kubeConfigFile !== 'string') typeError(`${wp}.connectionInfo.kubeConfigFile`, 'string', kubeConfigFile);
        entry.webhook = {
          timeoutMs: duration(w, 'timeout', wp),
          // defaults of v1beta1 and v1alpha1
          authorizedTtlMs: duration(w, 'authorizedTTL', wp) ?? 5 * 60_000,
          unauthorizedTtlMs: duration(w, 'unauthorizedTTL', wp) ?? 30_000,
          subjectAccessReviewVersion: str(w, 'subjectAccessReviewVersion', wp),
          matchConditionSubjectAccessReviewVersion: str(w, 'matchConditionSubjectAccessReviewVersion', wp),
          failurePolicy: str(w, 'failurePolicy', wp),
          connectionInfo: { type: str(ci, 'type', `${wp}.connectionInfo`), ...(typeof kubeConfigFile === 'string' ? { kubeConfigFile } : {}) },
          matchConditions: mcs.map((m: unknown, j: number) => {
            if (!isObject(m)) typeError(`${wp}.matchConditions[${j}]`, 'v1beta1.WebhookMatchCondition', m);
            return str(m, 'expression', `${wp}.matchConditions[${j}]`);
          }),
        };
      }
      return entry;
    }),
  };
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function subdomainErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(name)) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errs;
}

function validateWebhook(path: string, w: RawWebhook, errs: FieldError[]): Matcher | undefined {
  const ms = (n: number) => formatDuration(n * 1e6);
  if (!w.timeoutMs) errs.push(fieldErrors.required(`${path}.timeout`));
  else if (w.timeoutMs > MAX_TIMEOUT_MS || w.timeoutMs < 0) errs.push(fieldErrors.invalid(`${path}.timeout`, ms(w.timeoutMs), 'must be > 0s and <= 30s'));
  if (!w.authorizedTtlMs) errs.push(fieldErrors.required(`${path}.authorizedTTL`));
  else if (w.authorizedTtlMs < 0) errs.push(fieldErrors.invalid(`${path}.authorizedTTL`, ms(w.authorizedTtlMs), 'must be > 0s'));
  if (!w.unauthorizedTtlMs) errs.push(fieldErrors.required(`${path}.unauthorizedTTL`));
  else if (w.unauthorizedTtlMs < 0) errs.push(fieldErrors.invalid(`${path}.unauthorizedTTL`, ms(w.unauthorizedTtlMs), 'must be > 0s'));
  if (w.subjectAccessReviewVersion === '') errs.push(fieldErrors.required(`${path}.subjectAccessReviewVersion`));
  else if (!['v1', 'v1beta1'].includes(w.subjectAccessReviewVersion)) errs.push(fieldErrors.notSupported(`${path}.subjectAccessReviewVersion`, w.subjectAccessReviewVersion, ['v1', 'v1beta1']));
  if (w.matchConditionSubjectAccessReviewVersion === '') {
    if (w.matchConditions.length) errs.push(fieldErrors.required(`${path}.matchConditionSubjectAccessReviewVersion`, 'required if match conditions are specified'));
  } else if (w.matchConditionSubjectAccessReviewVersion !== 'v1') {
    errs.push(fieldErrors.notSupported(`${path}.matchConditionSubjectAccessReviewVersion`, w.matchConditionSubjectAccessReviewVersion, ['v1']));
  }
  if (w.failurePolicy === '') errs.push(fieldErrors.required(`${path}.failurePolicy`));
  else if (!['NoOpinion', 'Deny'].includes(w.failurePolicy)) errs.push(fieldErrors.notSupported(`${path}.failurePolicy`, w.failurePolicy, ['NoOpinion', 'Deny']));
  const ci = w.connectionInfo;
  const kc = `${path}.connectionInfo.kubeConfigFile`;
  if (ci.type === '') errs.push(fieldErrors.required(`${path}.connectionInfo.type`));
  else if (ci.type === 'InClusterConfig') {
    if (ci.kubeConfigFile !== undefined) errs.push(fieldErrors.invalid(kc, ci.kubeConfigFile, 'can only be set when type=KubeConfigFile'));
  } else if (ci.type === 'KubeConfigFile') {
    if (!ci.kubeConfigFile) errs.push(fieldErrors.required(kc));
    else if (!isAbsolute(ci.kubeConfigFile)) errs.push(fieldErrors.invalid(kc, ci.kubeConfigFile, 'must be an absolute path'));
    else {
      try {
        if (!statSync(ci.kubeConfigFile).isFile()) errs.push(fieldErrors.invalid(kc, ci.kubeConfigFile, 'must be a regular file'));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
        errs.push(fieldErrors.invalid(kc, ci.kubeConfigFile, `error loading file: stat ${ci.kubeConfigFile}: ${why}`));
      }
    }
  } else {
    errs.push(fieldErrors.notSupported(`${path}.connectionInfo.type`, ci.type, ['InClusterConfig', 'KubeConfigFile']));
  }
  const compiled = compileMatchConditions(w.matchConditions, `${path}.matchConditions`);
  errs.push(...compiled.errors);
  return compiled.matcher;
}

/** Go's aggregate error text: one message alone, several in brackets. */
function aggregate(msgs: string[]): string {
  return msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
}

/** Decodes, defaults and validates the file's text; every problem is an AuthorizationConfigError with upstream's text. */
export function parseAuthorizationConfig(text: string, requireTypes: string[] = []): AuthorizationConfig {
  let decoded;
  try {
    decoded = decode(text);
  } catch (err) {
    if (err instanceof AuthorizationConfigError) throw new AuthorizationConfigError(`failed to load AuthorizationConfiguration from file: ${err.message}`);
    throw err;
  }
  const errs: FieldError[] = [];
  if (decoded.authorizers.length === 0) errs.push(fieldErrors.required('authorizers', 'at least one authorization mode must be defined'));
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  const out: AuthorizerEntry[] = [];
  decoded.authorizers.forEach((a, i) => {
    const path = `authorizers[${i}]`;
    if (a.type === '') return void errs.push(fieldErrors.required(`${path}.type`));
    if (!AUTHORIZER_TYPES.includes(a.type)) return void errs.push(fieldErrors.notSupported(`${path}.type`, a.type, [...AUTHORIZER_TYPES].sort()));
    if (seenTypes.has(a.type) && !REPEATABLE.includes(a.type)) return void errs.push(fieldErrors.duplicate(`${path}.type`, a.type));
    seenTypes.add(a.type);
    if (a.name === '') errs.push(fieldErrors.required(`${path}.name`));
    else if (seenNames.has(a.name)) errs.push(fieldErrors.duplicate(`${path}.name`, a.name));
    else {
      const bad = subdomainErrors(a.name);
      if (bad.length) errs.push(fieldErrors.invalid(`${path}.name`, a.name, `authorizer name is invalid: ${bad.join(', ')}`));
    }
    seenNames.add(a.name);
    if (a.type === 'Webhook') {
      if (!a.webhook) return void errs.push(fieldErrors.required(`${path}.webhook`, 'required when type=Webhook'));
      const w = a.webhook;
      const matcher = validateWebhook(`${path}.webhook`, w, errs);
      out.push({
        type: a.type,
        name: a.name,
        webhook: {
          timeoutMs: w.timeoutMs ?? 0,
          authorizedTtlMs: w.authorizedTtlMs!,
          unauthorizedTtlMs: w.unauthorizedTtlMs!,
          subjectAccessReviewVersion: w.subjectAccessReviewVersion as 'v1' | 'v1beta1',
          failurePolicy: w.failurePolicy as 'NoOpinion' | 'Deny',
          connectionInfo: w.connectionInfo as WebhookSettings['connectionInfo'],
          matchConditions: w.matchConditions,
          ...(matcher ? { matcher } : {}),
        },
      });
    } else {
      if (a.webhook) errs.push(fieldErrors.invalid(`${path}.webhook`, 'non-null', 'may only be specified when type=Webhook'));
      out.push({ type: a.type, name: a.name });
    }
  });
  if (errs.length) throw new AuthorizationConfigError(aggregate(errs.map(String)));
  // kube-apiserver's own checks: fixed names for the built-in types, and (on reload) the types it started with
  const more: string[] = [];
  const seenModes = new Set<string>();
  for (const a of out) {
    if (a.type === 'Webhook') continue;
    seenModes.add(a.type);
    const expected = a.type.toLowerCase();
    if (a.name !== expected) more.push(`expected name ${expected} for authorizer ${a.type} instead of ${a.name}`);
  }
  const missing = requireTypes.filter((t) => !seenModes.has(t)).sort();
  if (missing.length) more.push(`missing required types: [${missing.join(' ')}]`);
  if (more.length) throw new AuthorizationConfigError(aggregate(more));
  return { authorizers: out };
}
