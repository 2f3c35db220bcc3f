// The `--authentication-config` file (kind AuthenticationConfiguration,
// apiserver.config.k8s.io/v1beta1 or v1alpha1, YAML or JSON) as far as this
// server supports it: the `anonymous` section (enabled, conditions[].path).
// JWT authenticators are refused with a clear error. Decoding is strict as
// upstream's (unknown fields are errors); validation texts are upstream's.
// Also the rule that `--anonymous-auth` and an `anonymous` section are not
// used together, and the anonymous decision for a request path.

import { readFileSync } from 'node:fs';
import { yaml } from '../api/yaml.ts';
import { goQuote } from '../api/go-format.ts';
import { FileError } from './file-error.ts';

export const AUTHN_CONFIG_GROUP = 'apiserver.config.k8s.io';
export const AUTHN_CONFIG_VERSIONS = ['v1beta1', 'v1alpha1'];
const MAX_FILE_BYTES = 1024 * 1024;

export interface AnonymousConfig {
  enabled: boolean;
  /** When non-empty, anonymous requests are allowed only for these exact paths. */
  conditions: { path: string }[];
}

export interface AuthenticationConfiguration {
  /** Undefined when the file has no `anonymous` section. */
  anonymous?: AnonymousConfig;
}

/** A problem with the file's content, before the path is added. */
class ConfigProblem extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function goType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

function typeError(v: unknown, field: string, want: string): ConfigProblem {
  return new ConfigProblem(`json: cannot unmarshal ${goType(v)} into Go struct field ${field} of type ${want}`);
}

function unknownFields(obj: Record<string, unknown>, known: string[], at: string, out: string[]): void {
  for (const k of Object.keys(obj)) if (!known.includes(k)) out.push(`unknown field ${goQuote(at ? `${at}.${k}` : k)}`);
}

function decodeAnonymous(raw: unknown, unknown: string[]): AnonymousConfig {
  if (!isObject(raw)) throw typeError(raw, 'AuthenticationConfiguration.anonymous', 'v1beta1.AnonymousAuthConfig');
  unknownFields(raw, ['enabled', 'conditions'], 'anonymous', unknown);
  const enabled = raw.enabled ?? false;
  if (typeof enabled !== 'boolean') throw typeError(enabled, 'AnonymousAuthConfig.anonymous.enabled', 'bool');
  const rawConditions = raw.conditions ?? [];
  if (!Array.isArray(rawConditions)) throw typeError(rawConditions, 'AnonymousAuthConfig.anonymous.conditions', '[]v1beta1.AnonymousAuthCondition');
  const conditions = rawConditions.map((c, i) => {
    if (!isObject(c)) throw typeError(c, 'AnonymousAuthConfig.anonymous.conditions', 'v1beta1.AnonymousAuthCondition');
    unknownFields(c, ['path'], `anonymous.conditions[${i}]`, unknown);
    const path = c.path ?? '';
    if (typeof path !== 'string') throw typeError(path, 'AnonymousAuthCondition.anonymous.conditions.path', 'string');
    return { path };
  });
  return { enabled, conditions };
}

/** Decodes and validates the file's text (YAML or JSON); throws ConfigProblem. */
function decode(text: string): AuthenticationConfiguration {
  if (text.trim() === '') throw new ConfigProblem('empty config data');
  const doc = yaml().parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length) throw new ConfigProblem(`error converting YAML to JSON: ${doc.errors[0].message.split('\n')[0]}`);
  const raw: unknown = doc.toJS({ maxAliasCount: 100 });
  if (!isObject(raw))
    throw new ConfigProblem(
      `couldn't get version/kind; json parse error: cannot unmarshal ${goType(raw)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  const { apiVersion, kind } = raw;
  if (typeof kind !== 'string' || kind === '') throw new ConfigProblem("Object 'Kind' is missing");
  if (typeof apiVersion !== 'string' || apiVersion === '') throw new ConfigProblem("Object 'apiVersion' is missing");
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  if (group !== AUTHN_CONFIG_GROUP || !AUTHN_CONFIG_VERSIONS.includes(version) || kind !== 'AuthenticationConfiguration') {
    throw new ConfigProblem(`no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)}`);
  }
  const unknown: string[] = [];
  unknownFields(raw, ['apiVersion', 'kind', 'jwt', 'anonymous'], '', unknown);
  const config: AuthenticationConfiguration = {};
  if (raw.anonymous !== undefined && raw.anonymous !== null) config.anonymous = decodeAnonymous(raw.anonymous, unknown);
  if (unknown.length) throw new ConfigProblem(`strict decoding error: ${unknown.join(', ')}`);
  const jwt = raw.jwt;
  if (jwt !== undefined && jwt !== null && !Array.isArray(jwt)) throw typeError(jwt, 'AuthenticationConfiguration.jwt', '[]v1beta1.JWTAuthenticator');
  if (Array.isArray(jwt) && jwt.length > 0) {
    throw new ConfigProblem('jwt: Forbidden: JWT authenticators are not supported by this server (remove the jwt section, or use another authenticator)');
  }
  const errs = validate(config);
  if (errs.length) throw new ConfigProblem(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  return config;
}

function validate(c: AuthenticationConfiguration): string[] {
  const errs: string[] = [];
  if (c.anonymous && !c.anonymous.enabled && c.anonymous.conditions.length > 0) {
    const value = `[]apiserver.AnonymousAuthCondition{${c.anonymous.conditions.map((x) => `apiserver.AnonymousAuthCondition{Path:${goQuote(x.path)}}`).join(', ')}}`;
    errs.push(`anonymous.conditions: Invalid value: ${value}: enabled should be set to true when conditions are defined`);
  }
  return errs;
}

/** Parses the file's text; `path` names the file in errors. */
export function parseAuthenticationConfiguration(path: string, text: string): AuthenticationConfiguration {
  try {
    return decode(text);
  } catch (err) {
    const message = err instanceof ConfigProblem || err instanceof Error ? err.message : String(err);
    throw new FileError(path, `failed to load authentication configuration from file ${goQuote(path)}: ${message}`);
  }
}

/** Reads and parses `--authentication-config`; any problem is a FileError. */
export function loadAuthenticationConfiguration(path: string): AuthenticationConfiguration {
  let text: string;
  try {
    const buf = readFileSync(path);
    if (buf.length > MAX_FILE_BYTES) throw new Error(`the file is larger than ${MAX_FILE_BYTES} bytes`);
    text = buf.toString('utf8');
  } catch (err) {
    throw new FileError(path, `failed to load authentication configuration from file ${goQuote(path)}: ${(err as Error).message}`);
  }
  return parseAuthenticationConfiguration(path, text);
}

/** The refusal of `--anonymous-auth` given together with an `anonymous` section (upstream's text, typo included). */
export const ANONYMOUS_FLAG_CONFLICT = '--anonynous-auth flag cannot be set when anonymous field is configured in authentication configuration file';

/**
 * The effective anonymous configuration from `--anonymous-auth` (its value,
 * default true, and whether it was given) and the configuration file. Throws
 * an Error with upstream's text when both configure anonymous requests.
 */
export function effectiveAnonymous(flag: { value: boolean; set: boolean }, config?: AuthenticationConfiguration): AnonymousConfig {
  if (config?.anonymous) {
    if (flag.set) throw new Error(ANONYMOUS_FLAG_CONFLICT);
    return config.anonymous;
  }
  return { enabled: flag.value, conditions: [] };
}

/** Whether a request without credentials for `path` (no query) may run as system:anonymous. */
export function anonymousAllowed(path: string, config: AnonymousConfig): boolean {
  if (!config.enabled) return false;
  if (config.conditions.length === 0) return true;
  return config.conditions.some((c) => c.path === path);
}
