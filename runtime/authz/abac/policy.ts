// The ABAC policy file of `--authorization-policy-file`, read as upstream
// reads it: one JSON policy a line (blank lines and lines starting with `#`
// skipped), either `abac.authorization.kubernetes.io/v1beta1` `Policy`
// objects or the unversioned legacy form, each converted to one internal
// policy as upstream's conversions do. Notably both forms turn a `*` user or
// group into the group system:authenticated, which is why a grant to `*`
// never reaches system:anonymous (in system:unauthenticated). A bad line is a
// FileError with upstream's text, naming the file and the line.

import { readFileSync } from 'node:fs';
import { FileError } from '../../auth/file-error.ts';
import { JSONSyntaxError, parseJSONStrict } from '../../codec/json-parse.ts';

export const ABAC_V1BETA1 = 'abac.authorization.kubernetes.io/v1beta1';
const ALL_AUTHENTICATED = 'system:authenticated';

/** One policy, as upstream's internal abac.PolicySpec. */
export interface AbacPolicy {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  resource: string;
  namespace: string;
  nonResourcePath: string;
}

class LineError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads a field as Go's JSON decoder would into a string or bool field (null leaves the zero value). */
function field<T extends 'string' | 'boolean'>(o: Record<string, unknown>, name: string, kind: T, owner: string): T extends 'string' ? string : boolean {
  const v = o[name];
  if (v === undefined || v === null) return (kind === 'string' ? '' : false) as T extends 'string' ? string : boolean;
  if (typeof v !== kind) {
    const goType = kind === 'string' ? 'string' : 'bool';
    throw new LineError(`json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v} into Go struct field ${owner}.${name} of type ${goType}`);
  }
  return v as T extends 'string' ? string : boolean;
}

function fromV1beta1(spec: Record<string, unknown>): AbacPolicy {
  const p: AbacPolicy = {
    user: field(spec, 'user', 'string', 'PolicySpec.spec'),
    group: field(spec, 'group', 'string', 'PolicySpec.spec'),
    readonly: field(spec, 'readonly', 'boolean', 'PolicySpec.spec'),
    apiGroup: field(spec, 'apiGroup', 'string', 'PolicySpec.spec'),
    resource: field(spec, 'resource', 'string', 'PolicySpec.spec'),
    namespace: field(spec, 'namespace', 'string', 'PolicySpec.spec'),
    nonResourcePath: field(spec, 'nonResourcePath', 'string', 'PolicySpec.spec'),
  };
  // v1beta1: a * user or group means every authenticated subject
  if (p.user === '*' || p.group === '*') {
    p.group = ALL_AUTHENTICATED;
    p.user = '';
  }
  return p;
}

function fromUnversioned(o: Record<string, unknown>): AbacPolicy {
  const user = field(o, 'user', 'string', 'Policy');
  const group = field(o, 'group', 'string', 'Policy');
  const namespace = field(o, 'namespace', 'string', 'Policy');
  const resource = field(o, 'resource', 'string', 'Policy');
  const p: AbacPolicy = { user, group, readonly: field(o, 'readonly', 'boolean', 'Policy'), apiGroup: '*', resource, namespace, nonResourcePath: '' };
  // the legacy form: no subject, or a * subject, means every authenticated subject
  if (user === '' && group === '') p.group = ALL_AUTHENTICATED;
  if (user === '*' || group === '*') {
    p.group = ALL_AUTHENTICATED;
    p.user = '';
  }
  // an empty namespace or resource matches all; with both empty, every non-resource path too
  if (namespace === '') p.namespace = '*';
  if (resource === '') p.resource = '*';
  if (namespace === '' && resource === '') p.nonResourcePath = '*';
  return p;
}

/** One non-blank, non-comment line, and whether it was of the unversioned form. */
function parseLine(line: string): { policy: AbacPolicy; unversioned: boolean } {
  let raw: unknown;
  try {
    raw = parseJSONStrict(line).value;
  } catch (err) {
    if (err instanceof JSONSyntaxError) throw new LineError(`couldn't get version/kind; json parse error: ${err.message}`);
    throw err;
  }
  if (!isObject(raw))
    throw new LineError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(raw) ? 'array' : typeof raw} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  const apiVersion = raw.apiVersion ?? '';
  const kind = raw.kind ?? '';
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') throw new LineError("couldn't get version/kind; json parse error: apiVersion and kind must be strings");
  // missing version or kind: the unversioned form (as upstream, which falls back to it)
  if (apiVersion === '' || kind === '') return { policy: fromUnversioned(raw), unversioned: true };
  if (apiVersion !== ABAC_V1BETA1 || kind !== 'Policy') {
    // upstream also falls back to the unversioned form for kinds it does not know, which then fails to decode
    throw new LineError(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/apis/abac/register.go"`);
  }
  const spec = raw.spec ?? {};
  if (!isObject(spec)) throw new LineError('json: cannot unmarshal into Go struct field Policy.spec of type v1beta1.PolicySpec');
  return { policy: fromV1beta1(spec), unversioned: false };
}

export interface PolicyFile {
  policies: AbacPolicy[];
  /** Start-up notes (unversioned lines), as upstream logs them. */
  warnings: string[];
}

/** Parses the file's text; `path` names the file in messages. */
export function parsePolicyFile(path: string, text: string): PolicyFile {
  const policies: AbacPolicy[] = [];
  let unversioned = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    try {
      const { policy, unversioned: legacy } = parseLine(line);
      policies.push(policy);
      if (legacy) unversioned++;
    } catch (err) {
      if (!(err instanceof LineError)) throw err;
      throw new FileError(path, `error reading policy file ${path}, line ${i + 1}: ${line}: ${err.message}`, i + 1);
    }
  }
  const warnings = unversioned ? [`Policy file ${path} contained unversioned rules. See docs/admin/authorization.md#abac-mode for ABAC file format details.`] : [];
  return { policies, warnings };
}

/** Reads `--authorization-policy-file`; an unreadable or bad file is a FileError. */
export function loadPolicyFile(path: string): PolicyFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new FileError(path, `open ${path}: ${e.code === 'ENOENT' ? 'no such file or directory' : e.code === 'EACCES' ? 'permission denied' : e.message}`);
  }
  return parsePolicyFile(path, text);
}
