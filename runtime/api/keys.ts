// Names built from a resource's group, version and resource: the
// apiVersion string (`apps/v1`, core `v1`) and the storage key layout
// (`/registry/<group or core>/<resource>/[<namespace>/]<name>`). One copy,
// used by the registry, the watch cache and the served-resource index.

/** The apiVersion of a group and version: `apps/v1`, or `v1` for the core group. */
export function groupVersion(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** The key prefix of a resource: `/registry/<group or core>/<resource>/`. */
export function keyRoot(group: string, resource: string): string {
  return `/registry/${group || 'core'}/${resource}/`;
}

/**
 * The storage key of one object under a resource's prefix: the namespace
 * is a path segment when there is one (namespaced kinds), then the name.
 */
export function objectKey(root: string, namespace: string | undefined, name: string): string {
  return namespace ? `${root}${namespace}/${name}` : `${root}${name}`;
}
