// --runtime-config: which group-versions and resources are served, as
// kube-apiserver 1.31 reads the flag. The text is a cliflag
// ConfigurationMap (`key=value,...`, a key without `=` has the empty value);
// keys are `api/all`, `api/ga`, `api/beta`, `api/alpha` (applied in that
// order to every version whose name has that stability), then
// `group/version` and last `group/version/resource` (the most specific
// wins); the core group is `/v1` (also `api/v1` and the old `api/legacy`
// here). Without a setting a version keeps its default (ResourceDef
// enabledByDefault: GA on, beta on only when introduced before 1.22, alpha
// off). validateRuntimeConfig() makes upstream's start-up checks with its
// error texts (options.APIEnablementOptions.Validate, then
// resourceconfig.MergeAPIResourceConfigs).

import type { ResourceDef } from '../../generated/api-types.ts';

/** Key to raw value, in the order given (a later setting of a key replaces an earlier one). */
export type RuntimeConfig = Map<string, string>;

/** A --runtime-config that kube-apiserver would refuse at start-up. */
export class RuntimeConfigError extends Error {}

/** Parses the flag's text as cliflag.ConfigurationMap does: comma-separated, `=` splits once, both sides trimmed. */
export function parseRuntimeConfig(text: string | undefined): RuntimeConfig {
  const out: RuntimeConfig = new Map();
  if (!text) return out;
  for (const part of text.split(',')) {
    if (part.length === 0) continue;
    const eq = part.indexOf('=');
    if (eq < 0) out.set(part.trim(), '');
    else out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

/** The stability keys, in the order upstream applies them, with the versions each addresses. */
const MATCHERS: [string, RegExp][] = [
  ['api/all', /^/],
  ['api/ga', /^v\d+$/],
  ['api/beta', /^v\d+beta\d+$/],
  ['api/alpha', /^v\d+alpha\d+$/],
];
const MATCHER_KEYS = new Set(MATCHERS.map(([k]) => k));

/** Our spellings of the core group's `/v1`. */
const CORE_ALIASES: Record<string, string> = { 'api/v1': '/v1', 'api/legacy': '/v1' };

/** Go's strconv.ParseBool, with the empty value meaning true (resourceconfig.getRuntimeConfigValue). */
function boolValue(key: string, value: string): boolean {
  if (value === '') return true;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new RuntimeConfigError(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

/** A group-version or group-version-resource key split into its parts (core aliases resolved); undefined for other shapes. */
function splitKey(key: string): { group: string; version: string; resource?: string } | undefined {
  const tokens = (CORE_ALIASES[key] ?? key).split('/');
  if (tokens.length < 2 || tokens.length > 3) return undefined;
  return tokens.length === 3 ? { group: tokens[0], version: tokens[1], resource: tokens[2] } : { group: tokens[0], version: tokens[1] };
}

/**
 * Upstream's start-up checks of the flag against the served group-versions
 * (`defs`): a lone `api/all=false`; keys of other shapes; groups nobody
 * serves (a removed group such as `extensions`); then, in the flag's order,
 * a stability key's value other than true/false, a version its group does
 * not serve (a removed one such as `policy/v1beta1`), a value that is no
 * boolean, and a resource key not in lower case.
 */
export function validateRuntimeConfig(rc: RuntimeConfig, defs: readonly ResourceDef[]): void {
  if (rc.get('api/all') === 'false' && rc.size === 1) throw new RuntimeConfigError('invalid key with only api/all=false');
  const groups = new Set(defs.map((d) => d.group));
  const versions = new Set(defs.map((d) => `${d.group}/${d.version}`));
  const unknown: string[] = [];
  for (const key of rc.keys()) {
    if (MATCHER_KEYS.has(key)) continue;
    const k = splitKey(key);
    if (!k) throw new RuntimeConfigError(`runtime-config invalid key ${key}`);
    if (!groups.has(k.group)) unknown.push(k.group);
  }
  if (unknown.length) throw new RuntimeConfigError(`unknown api groups ${unknown.join(',')}`);
  for (const [key] of MATCHERS) {
    const v = rc.get(key);
    if (v !== undefined && v !== 'true' && v !== 'false') throw new RuntimeConfigError(`invalid value ${key}=${v}`);
  }
  for (const [key, value] of rc) {
    if (MATCHER_KEYS.has(key)) continue;
    const k = splitKey(key)!;
    if (!versions.has(`${k.group}/${k.version}`)) throw new RuntimeConfigError(`group version ${k.group ? `${k.group}/${k.version}` : k.version} that has not been registered`);
    boolValue(key, value);
    if (k.resource !== undefined && k.resource.toLowerCase() !== k.resource) {
      throw new RuntimeConfigError(`invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(k.resource)}`);
    }
  }
}

/** Whether `def` is served under `rc` (checked by validateRuntimeConfig; a value that is no boolean counts as true here). */
export function isEnabled(def: ResourceDef, rc: RuntimeConfig): boolean {
  let on = def.enabledByDefault;
  if (rc.size === 0) return on;
  for (const [key, re] of MATCHERS) {
    const v = rc.get(key);
    if (v !== undefined && re.test(def.version)) on = v !== 'false';
  }
  let version: boolean | undefined;
  let resource: boolean | undefined;
  for (const [key, value] of rc) {
    if (MATCHER_KEYS.has(key)) continue;
    const k = splitKey(key);
    if (!k || k.group !== def.group || k.version !== def.version) continue;
    let b: boolean;
    try {
      b = boolValue(key, value);
    } catch {
      b = true;
    }
    if (k.resource === undefined) version = b;
    else if (k.resource === def.resource) resource = b;
  }
  return resource ?? version ?? on;
}
