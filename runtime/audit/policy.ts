// The audit policy of `--audit-policy-file` (audit.k8s.io/v1 Policy, YAML or
// JSON, as kube-apiserver 1.31 reads it): decoded, validated with upstream's
// field paths and texts, and evaluated per request as upstream's policy
// checker does: the rules in order, the first whose users, userGroups,
// verbs, resources/namespaces or nonResourceURLs all match decides the level
// (None when none matches); a rule's omitStages add to the policy's, and a
// rule's omitManagedFields, when set, overrides the policy's.

import { readFileSync } from 'node:fs';
import { yaml } from '../api/yaml.ts';
import { type FieldError, fieldErrors } from '../api/field-errors.ts';
import { validateDNS1123Subdomain } from '../api/validation.ts';

export const AUDIT_API_VERSION = 'audit.k8s.io/v1';
export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Level = (typeof LEVELS)[number];
export type Stage = (typeof STAGES)[number];

export interface GroupResources {
  group: string;
  resources: string[];
  resourceNames: string[];
}

export interface PolicyRule {
  level: Level;
  users: string[];
  userGroups: string[];
  verbs: string[];
  resources: GroupResources[];
  namespaces: string[];
  nonResourceURLs: string[];
  /** The rule's own omitStages joined with the policy's. */
  omitStages: Stage[];
  /** The rule's own omitStages, as written (what validation checks). */
  ownOmitStages: Stage[];
  omitManagedFields?: boolean;
}

export interface Policy {
  rules: PolicyRule[];
  omitStages: Stage[];
  omitManagedFields: boolean;
}

/** How one request is audited: its level, the stages left out, and whether managedFields are dropped from its objects. */
export interface RequestAuditConfig {
  level: Level;
  omitStages: readonly Stage[];
  omitManagedFields: boolean;
}

/** Who a request is: its authenticated user (none for a failed authentication). */
export interface AuditSubject {
  name: string;
  groups: readonly string[];
}

/** What a rule is matched against (a parsed request's fields; the user is passed beside them). */
export interface AuditAttributes {
  verb: string;
  isResourceRequest: boolean;
  path: string;
  namespace: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  name: string;
}

/** A policy that cannot be used: the message kube-apiserver stops with. */
export class AuditPolicyError extends Error {}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's json error for a field of the wrong type (`rules[0].verbs` of type []string). */
class DecodeError extends Error {}

function strings(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new DecodeError(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${field} of type []string`);
  return v.map((s) => {
    if (typeof s !== 'string') throw new DecodeError(`json: cannot unmarshal ${jsonType(s)} into Go struct field ${field} of type string`);
    return s;
  });
}

function str(v: unknown, field: string, type = 'string'): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new DecodeError(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${field} of type ${type}`);
  return v;
}

function bool(v: unknown, field: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new DecodeError(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${field} of type bool`);
  return v;
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Decodes and validates a policy document; throws AuditPolicyError with upstream's text (without the file part). */
export function parsePolicy(text: string): Policy {
  let raw: unknown;
  try {
    raw = yaml().parse(text);
  } catch (err) {
    throw new AuditPolicyError(`failed decoding: ${(err as Error).message.split('\n')[0]}`);
  }
  if (!isObj(raw)) throw new AuditPolicyError(`failed decoding: Object 'Kind' is missing in '${JSON.stringify(raw ?? null)}'`);
  const kind = raw.kind;
  if (typeof kind !== 'string' || kind === '') throw new AuditPolicyError(`failed decoding: Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  const apiVersion = typeof raw.apiVersion === 'string' ? raw.apiVersion : '';
  if (apiVersion !== AUDIT_API_VERSION || kind !== 'Policy') {
    throw new AuditPolicyError(`failed decoding: no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/audit/scheme.go"`);
  }
  let policy: Policy;
  try {
    policy = decode(raw);
  } catch (err) {
    if (err instanceof DecodeError) throw new AuditPolicyError(`failed decoding: ${err.message}`);
    throw err;
  }
  const errs = validatePolicy(policy);
  if (errs.length === 1) throw new AuditPolicyError(errs[0].toString());
  if (errs.length > 1) throw new AuditPolicyError(`[${errs.map(String).join(', ')}]`);
  if (policy.rules.length === 0) throw new AuditPolicyError('loaded illegal policy with 0 rules');
  return policy;
}

function decode(raw: Record<string, unknown>): Policy {
  const omitStages = strings(raw.omitStages, 'Policy.omitStages') as Stage[];
  const omitManagedFields = bool(raw.omitManagedFields, 'Policy.omitManagedFields') ?? false;
  if (raw.rules !== undefined && raw.rules !== null && !Array.isArray(raw.rules)) {
    throw new DecodeError(`json: cannot unmarshal ${jsonType(raw.rules)} into Go struct field Policy.rules of type []v1.PolicyRule`);
  }
  const rules = ((raw.rules as unknown[] | undefined) ?? []).map((r): PolicyRule => {
    if (!isObj(r)) throw new DecodeError(`json: cannot unmarshal ${jsonType(r)} into Go struct field Policy.rules of type v1.PolicyRule`);
    if (r.resources !== undefined && r.resources !== null && !Array.isArray(r.resources)) {
      throw new DecodeError(`json: cannot unmarshal ${jsonType(r.resources)} into Go struct field PolicyRule.rules.resources of type []v1.GroupResources`);
    }
    const resources = ((r.resources as unknown[] | undefined) ?? []).map((g): GroupResources => {
      if (!isObj(g)) throw new DecodeError(`json: cannot unmarshal ${jsonType(g)} into Go struct field PolicyRule.rules.resources of type v1.GroupResources`);
      return {
        group: str(g.group, 'GroupResources.rules.resources.group'),
        resources: strings(g.resources, 'GroupResources.rules.resources.resources'),
        resourceNames: strings(g.resourceNames, 'GroupResources.rules.resources.resourceNames'),
      };
    });
    const ownStages = strings(r.omitStages, 'PolicyRule.rules.omitStages') as Stage[];
    return {
      level: str(r.level, 'PolicyRule.rules.level', 'v1.Level') as Level,
      users: strings(r.users, 'PolicyRule.rules.users'),
      userGroups: strings(r.userGroups, 'PolicyRule.rules.userGroups'),
      verbs: strings(r.verbs, 'PolicyRule.rules.verbs'),
      resources,
      namespaces: strings(r.namespaces, 'PolicyRule.rules.namespaces'),
      nonResourceURLs: strings(r.nonResourceURLs, 'PolicyRule.rules.nonResourceURLs'),
      omitStages: [...new Set([...omitStages, ...ownStages])],
      ownOmitStages: ownStages,
      omitManagedFields: bool(r.omitManagedFields, 'PolicyRule.rules.omitManagedFields'),
    };
  });
  return { rules, omitStages, omitManagedFields };
}

function validatePolicy(p: Policy): FieldError[] {
  const errs: FieldError[] = [];
  p.rules.forEach((rule, i) => {
    const at = `rules[${i}]`;
    if (rule.level === ('' as Level)) errs.push(fieldErrors.required(`${at}.level`));
    else if (!LEVELS.includes(rule.level)) errs.push(fieldErrors.notSupported(`${at}.level`, rule.level, [...LEVELS]));
    rule.nonResourceURLs.forEach((url, j) => {
      if (url === '*') return;
      if (!url.startsWith('/')) errs.push(fieldErrors.invalid(`${at}.nonResourceURLs[${j}]`, url, "non-resource URL rules must begin with a '/' character"));
      if (url !== '' && url.slice(0, -1).includes('*')) {
        errs.push(fieldErrors.invalid(`${at}.nonResourceURLs[${j}]`, url, "non-resource URL wildcards '*' must be the final character of the rule"));
      }
    });
    for (const gr of rule.resources) {
      if (gr.group !== '') {
        const msgs = validateDNS1123Subdomain(gr.group);
        if (msgs.length) errs.push(fieldErrors.invalid(`${at}.resources.group`, gr.group, msgs.join(',')));
      }
      if (gr.resourceNames.length > 0 && gr.resources.length === 0) {
        errs.push(fieldErrors.invalid(`${at}.resources.resourceNames`, gr.resourceNames, 'using resourceNames requires at least one resource'));
      }
    }
    rule.ownOmitStages.forEach((s, j) => {
      if (!STAGES.includes(s)) errs.push(fieldErrors.invalid(`${at}.omitStages[${j}]`, s, `allowed stages are ${STAGES.join(',')}`));
    });
    if (rule.nonResourceURLs.length > 0 && (rule.resources.length > 0 || rule.namespaces.length > 0)) {
      errs.push(fieldErrors.invalid(`${at}.nonResourceURLs`, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
  });
  return errs;
}

/** Reads --audit-policy-file; any problem is an AuditPolicyError with kube-apiserver's start-up text. */
export function loadPolicyFile(path: string): Policy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file or directory' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'is a directory' : e.message;
    throw new AuditPolicyError(`loading audit policy file: failed to read file path "${path}": open ${path}: ${why}`);
  }
  try {
    return parsePolicy(text);
  } catch (err) {
    if (err instanceof AuditPolicyError) throw new AuditPolicyError(`loading audit policy file: ${err.message}: from file ${path}`);
    throw err;
  }
}

/** The level, omitted stages and managed-fields choice of a request (upstream's policy checker). */
/** The configs a policy's rules give (and its own, for no rule), made once each: a request's config is shared and never changed. */
const configs = new WeakMap<PolicyRule | Policy, RequestAuditConfig>();

function configOf(key: PolicyRule | Policy, level: Level, omitStages: readonly Stage[], omitManagedFields: boolean): RequestAuditConfig {
  let c = configs.get(key);
  if (c === undefined) configs.set(key, (c = Object.freeze({ level, omitStages, omitManagedFields })));
  return c;
}

export function evaluatePolicy(policy: Policy, attrs: AuditAttributes, user: AuditSubject | undefined): RequestAuditConfig {
  for (const rule of policy.rules) {
    if (ruleMatches(rule, attrs, user)) return configOf(rule, rule.level, rule.omitStages, rule.omitManagedFields ?? policy.omitManagedFields);
  }
  return configOf(policy, 'None', policy.omitStages, policy.omitManagedFields);
}

function ruleMatches(r: PolicyRule, attrs: AuditAttributes, user: AuditSubject | undefined): boolean {
  if (r.users.length > 0 && (!user || !r.users.includes(user.name))) return false;
  if (r.userGroups.length > 0 && (!user || !user.groups.some((g) => r.userGroups.includes(g)))) return false;
  if (r.verbs.length > 0 && !r.verbs.includes(attrs.verb)) return false;
  if (r.namespaces.length > 0 || r.resources.length > 0) return resourceMatches(r, attrs);
  if (r.nonResourceURLs.length > 0) return !attrs.isResourceRequest && r.nonResourceURLs.some((spec) => pathMatches(attrs.path, spec));
  return true;
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(r: PolicyRule, attrs: AuditAttributes): boolean {
  if (!attrs.isResourceRequest) return false;
  // cluster-scoped requests have the empty namespace
  if (r.namespaces.length > 0 && !r.namespaces.includes(attrs.namespace)) return false;
  if (r.resources.length === 0) return true;
  const { resource, subresource } = attrs;
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const gr of r.resources) {
    if (gr.group !== attrs.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(attrs.name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (subresource && res.startsWith('*/') && res.slice(2) === subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === resource) return true;
    }
  }
  return false;
}

/** Whether level `a` records at least as much as `b`. */
export function levelAtLeast(a: Level, b: Level): boolean {
  return LEVELS.indexOf(a) >= LEVELS.indexOf(b);
}
