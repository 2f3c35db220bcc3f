// --admission-control-config-file: kube-apiserver's AdmissionConfiguration
// file (apiserver.config.k8s.io/v1, also v1alpha1 and the older
// apiserver.k8s.io/v1alpha1), YAML or JSON, with one entry per plugin:
// `{name, configuration}` (the plugin's own configuration object, inline)
// or `{name, path}` (a file holding it; a relative path is relative to the
// AdmissionConfiguration file's directory). Plugins ask for their entry by
// name (the first entry of that name wins, as upstream); each plugin
// decodes and validates what it gets itself (decodeTyped() below checks
// apiVersion and kind the way upstream's decoder does). A file that cannot
// be read or decoded is an AdmissionConfigError with upstream's text.

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { goQuote } from '../api/go-format.ts';
import { yaml } from '../api/yaml.ts';

export class AdmissionConfigError extends Error {}

/** The apiVersions kube-apiserver 1.31 decodes an AdmissionConfiguration in. */
export const ADMISSION_CONFIG_VERSIONS = ['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1alpha1', 'apiserver.k8s.io/v1alpha1'];

/** Larger files are refused before they are parsed (a configuration is a few KiB). */
const MAX_FILE_BYTES = 4 << 20;

/** One plugin's configuration: the decoded value, and where it came from (for messages). */
export interface PluginConfiguration {
  value: unknown;
  source: string;
}

export interface AdmissionConfigProvider {
  /** The path of the AdmissionConfiguration file; undefined when none was given. */
  readonly path?: string;
  /** The named plugin's configuration; undefined when the file has no entry for it (or there is no file). */
  configFor(name: string): PluginConfiguration | undefined;
}

interface Entry {
  name: string;
  configuration?: unknown;
  path?: string;
}

/** The provider when no file is given: every plugin runs with its defaults. */
export const NO_ADMISSION_CONFIG: AdmissionConfigProvider = { configFor: () => undefined };

/** Parses YAML or JSON text into a value; throws Error with the parser's message. */
export function parseConfigText(text: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      // not JSON after all: YAML is a superset, let its parser explain
    }
  }
  const doc = yaml().parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length) throw new Error(`error converting YAML to JSON: yaml: ${doc.errors[0].message.split('\n')[0]}`);
  return doc.toJS({ maxAliasCount: 100 });
}

const GO_ERRNO: Record<string, string> = { ENOENT: 'no such file or directory', EACCES: 'permission denied', EISDIR: 'is a directory', ENOTDIR: 'not a directory' };

/** A file error as Go's os package prints it (`open /x: no such file or directory`); others keep Node's text. */
function goFileError(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code && GO_ERRNO[code]) return `${code === 'EISDIR' ? 'read' : 'open'} ${path}: ${GO_ERRNO[code]}`;
  return (err as Error).message;
}

/** Reads a configuration file (at most 4 MiB) as text; errors worded as Go's. */
export function readConfigFile(path: string): string {
  return readText(path);
}

function readText(path: string): string {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (err) {
    throw new Error(goFileError(path, err), { cause: err });
  }
  if (buf.length > MAX_FILE_BYTES) throw new Error(`the file is larger than ${MAX_FILE_BYTES} bytes`);
  return buf.toString('utf8');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a decoded configuration's apiVersion and kind against the kinds a
 * plugin accepts, with the texts of upstream's universal decoder; returns
 * the object.
 */
export function decodeTyped(value: unknown, accepted: { apiVersion: string; kind: string }[], raw: string = JSON.stringify(value)): Record<string, unknown> {
  if (!isObject(value))
    throw new Error(
      `couldn't get version/kind; json parse error: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  const apiVersion = typeof value.apiVersion === 'string' ? value.apiVersion : '';
  const kind = typeof value.kind === 'string' ? value.kind : '';
  if (!kind) throw new Error(`Object 'Kind' is missing in '${raw.trim()}'`);
  if (!apiVersion) throw new Error(`Object 'apiVersion' is missing in '${raw.trim()}'`);
  if (!accepted.some((a) => a.apiVersion === apiVersion && a.kind === kind)) {
    throw new Error(`no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)}`);
  }
  return value;
}

/** Reads --admission-control-config-file; undefined or '' gives NO_ADMISSION_CONFIG. */
export function loadAdmissionConfig(path: string | undefined): AdmissionConfigProvider {
  if (!path) return NO_ADMISSION_CONFIG;
  const fail = (msg: string): never => {
    throw new AdmissionConfigError(`failed to read plugin config: ${msg}`);
  };
  let text = '';
  try {
    text = readText(path);
  } catch (err) {
    fail(`unable to read admission control configuration from ${goQuote(path)} [${(err as Error).message}]`);
  }
  let value: unknown;
  try {
    value = parseConfigText(text);
    decodeTyped(
      value,
      ADMISSION_CONFIG_VERSIONS.map((apiVersion) => ({ apiVersion, kind: 'AdmissionConfiguration' })),
      text,
    );
  } catch (err) {
    fail((err as Error).message);
  }
  const doc = value as Record<string, unknown>;
  const plugins = doc.plugins ?? [];
  if (!Array.isArray(plugins)) return fail(`json: cannot unmarshal ${typeof plugins} into Go struct field AdmissionConfiguration.plugins of type []v1.AdmissionPluginConfiguration`);
  const entries: Entry[] = [];
  const baseDir = dirname(path);
  for (const p of plugins) {
    if (!isObject(p)) return fail('json: cannot unmarshal into Go struct field AdmissionConfiguration.plugins of type v1.AdmissionPluginConfiguration');
    const name = typeof p.name === 'string' ? p.name : '';
    const entry: Entry = { name, configuration: p.configuration ?? undefined };
    if (typeof p.path === 'string' && p.path) entry.path = isAbsolute(p.path) ? p.path : resolve(join(baseDir, p.path));
    entries.push(entry);
  }
  return {
    path,
    configFor(name) {
      const e = entries.find((x) => x.name === name);
      if (!e) return undefined;
      if (e.configuration !== undefined) return { value: e.configuration, source: 'inline' };
      if (!e.path) return undefined;
      let fileText: string;
      try {
        fileText = readText(e.path);
      } catch (err) {
        throw new AdmissionConfigError(`couldn't open admission plugin configuration ${e.path}: ${(err as Error).message}`);
      }
      try {
        return { value: parseConfigText(fileText), source: e.path };
      } catch (err) {
        throw new AdmissionConfigError(`couldn't init admission plugin ${goQuote(name)}: ${(err as Error).message}`);
      }
    },
  };
}

/** The error a plugin's bad configuration stops start-up with (upstream's InitPlugin text). */
export function pluginInitError(name: string, err: unknown): AdmissionConfigError {
  return new AdmissionConfigError(`couldn't init admission plugin ${goQuote(name)}: ${(err as Error).message ?? String(err)}`);
}
