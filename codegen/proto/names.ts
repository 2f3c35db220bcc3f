// Naming rules between OpenAPI schema names, proto packages/messages, proto
// field names and file paths. Kubernetes schema names are the Go package path
// reversed at the front (`io.k8s.api.core.v1.Pod` <-> proto
// `k8s.io.api.core.v1.Pod`); dashes are not allowed in proto packages, so they
// become underscores. Pure functions, no I/O.

/** `io.k8s.api.core.v1.Pod` -> `k8s.io.api.core.v1.Pod`; other names only get dashes replaced. */
export function schemaToProtoName(schema: string): string {
  const parts = schema.split('.');
  if (parts[0] === 'io' && parts[1] === 'k8s') {
    parts[0] = 'k8s';
    parts[1] = 'io';
  }
  return parts.map((p) => sanitizeIdent(p)).join('.');
}

/** Inverse of schemaToProtoName for Kubernetes packages. */
export function protoToSchemaName(proto: string): string {
  const parts = proto.split('.');
  if (parts[0] === 'k8s' && parts[1] === 'io') {
    parts[0] = 'io';
    parts[1] = 'k8s';
  }
  return parts.map((p) => p.replace(/_/g, '-')).join('.');
}

export function splitName(full: string): { pkg: string; name: string } {
  const i = full.lastIndexOf('.');
  return i < 0 ? { pkg: '', name: full } : { pkg: full.slice(0, i), name: full.slice(i + 1) };
}

function sanitizeIdent(s: string): string {
  let out = s.replace(/[^A-Za-z0-9_]/g, '_');
  if (/^[0-9]/.test(out)) out = '_' + out;
  return out;
}

/**
 * Proto field name for a JSON property: `$ref` -> `ref`,
 * `x-kubernetes-list-type` -> `xKubernetesListType`; plain names unchanged.
 */
export function jsonToProtoField(json: string): string {
  let s = json.replace(/^\$/, '');
  s = s.replace(/[-.]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase());
  return sanitizeIdent(s);
}

/** Path of the .proto file of a proto package: `k8s.io.api.core.v1` -> `k8s.io/api/core/v1/generated.proto`. */
export function packageToFile(pkg: string): string {
  const parts = pkg.split('.');
  if (parts[0] === 'k8s' && parts[1] === 'io') return ['k8s.io', ...parts.slice(2), 'generated.proto'].join('/');
  return [...parts, 'generated.proto'].join('/');
}
